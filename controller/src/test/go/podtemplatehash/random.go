package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// "random <count> <seed>" prints JSON lines {"input": <random template JSON>, "go": <Go's bytes as a string>} or
// {"input": ..., "error": <message>}: random pod templates built from the Go types (with unknown fields, nulls,
// empty values and odd strings mixed in), for a differential check of the Java encoder.

var randomStrings = []string{"", "a", "nginx", "web-0", "ALL", "<b>&amp;</b>", "tab\there", "line\nbreak", "\u2028",
	"\x00\x1f\x7f", "é", "日本", "😀", "quote\"back\\slash", "In", "Exists", "TCP", "Always", "1", "0", "true", "null"}

var randomQuantities = []any{"0", "1", "+1", "01", "0.5", "1.500", "100m", "1000m", "1k", "1000", "1e3", "1E3",
	"1.5e3", "15e-1", "1Ki", "1024Ki", "1.5Gi", "0.5Gi", "128Mi", "1.5Ki", "0.1Ki", "8Ei", "1000E", "1e21",
	"0.123456789123", "12345678901234567890", " 250m ", "1.Gi", ".5", "-1", "-0.5Gi", "1.5.5", "abc", "1i",
	json.Number("2"), json.Number("0.25"), json.Number("1.5"), json.Number("-3"), json.Number("1000")}

var randomTimes = []any{nil, "2024-01-02T03:04:05Z", "2024-01-02T03:04:05+02:00", "2024-01-02T03:04:05.5Z",
	"2024-01-02T3:04:05Z", "0001-01-01T00:00:00Z", "0001-01-01T00:00:00.5Z", "2024-02-30T00:00:00Z", "bad"}

type generator struct {
	r *rand.Rand
}

func (g *generator) pick(n int) int { return g.r.IntN(n) }

func (g *generator) chance(p float64) bool { return g.r.Float64() < p }

func (g *generator) value(t reflect.Type, depth int) any {
	if t.Name() != "" {
		switch customTypes[typeName(t)] {
		case "Quantity":
			return randomQuantities[g.pick(len(randomQuantities))]
		case "IntOrString":
			if g.chance(0.5) {
				return json.Number(strconv.Itoa(g.pick(70000) - 100))
			}
			return randomStrings[g.pick(len(randomStrings))]
		case "Time":
			return randomTimes[g.pick(len(randomTimes))]
		case "FieldsV1":
			return map[string]any{"f:metadata": map[string]any{"f:labels": map[string]any{".": map[string]any{}}},
				"f:spec": map[string]any{}, "k:{\"a\":1}": []any{1, "x", nil, 2.5, true}}
		}
	}
	switch t.Kind() {
	case reflect.String:
		return randomStrings[g.pick(len(randomStrings))]
	case reflect.Bool:
		return g.chance(0.5)
	case reflect.Int32:
		return json.Number(strconv.FormatInt([]int64{0, 1, -1, 80, 2147483647, -2147483648}[g.pick(6)], 10))
	case reflect.Int64:
		return json.Number(strconv.FormatInt([]int64{0, 1, -5, 30, 1 << 40, -1 << 63}[g.pick(6)], 10))
	case reflect.Pointer:
		if g.chance(0.15) {
			return nil
		}
		return g.value(t.Elem(), depth)
	case reflect.Slice:
		switch {
		case g.chance(0.1):
			return nil
		case g.chance(0.15):
			return []any{}
		}
		n := 1 + g.pick(2)
		out := make([]any, n)
		for i := range out {
			if g.chance(0.05) {
				out[i] = nil
			} else {
				out[i] = g.value(t.Elem(), depth+1)
			}
		}
		return out
	case reflect.Map:
		switch {
		case g.chance(0.1):
			return nil
		case g.chance(0.15):
			return map[string]any{}
		}
		out := map[string]any{}
		for i := 0; i < 1+g.pick(3); i++ {
			key := randomStrings[g.pick(len(randomStrings))]
			if t.Elem().Kind() == reflect.Struct || g.chance(0.9) {
				out[key] = g.value(t.Elem(), depth+1)
			} else {
				out[key] = nil
			}
		}
		return out
	case reflect.Struct:
		out := map[string]any{}
		p := 0.6 / float64(1+depth)
		for _, f := range typeFields(t) {
			if !g.chance(p) && !(depth < 2 && g.chance(0.3)) {
				continue
			}
			if g.chance(0.05) {
				out[f.name] = nil
			} else {
				out[f.name] = g.value(f.typ, depth+1)
			}
		}
		if g.chance(0.1) {
			out["unknownField"] = map[string]any{"x": 1}
		}
		if g.chance(0.05) && len(out) > 0 {
			keys := make([]string, 0, len(out))
			for k := range out {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			k := keys[g.pick(len(keys))]
			out[strings.ToUpper(k[:1])+k[1:]] = out[k] // a case-mismatched duplicate Go must ignore
		}
		return out
	default:
		fail("random: unsupported kind " + t.Kind().String())
	}
	return nil
}

func printRandom(count, seed int) {
	g := &generator{r: rand.New(rand.NewPCG(uint64(seed), 0x5eed))}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	for i := 0; i < count; i++ {
		input, err := json.Marshal(g.value(reflect.TypeFor[corev1.PodTemplateSpec](), 0))
		if err != nil {
			fail(err.Error())
		}
		line := map[string]any{"input": json.RawMessage(input)}
		if t, err := decode(input); err != nil {
			line["error"] = err.Error()
		} else if encoded, err := remarshal(t); err != nil {
			line["error"] = "re-decoding: " + err.Error()
		} else {
			line["go"] = string(encoded)
		}
		if err := enc.Encode(line); err != nil {
			fail(fmt.Sprint(err))
		}
	}
}
