// Command podtemplatehash regenerates the data behind io.rollgate.controller.rollout.model.GoPodTemplateJson:
// the Go type tables (how encoding/json sees k8s.io/api/core/v1.PodTemplateSpec) and the Go-computed test vectors.
// It is a development tool only; nothing in the Maven build runs it.
//
// Regenerate everything (needs Go and the Go module proxy), from this directory:
//
//	./regen.sh
//
// which runs, once per Kubernetes API version (go.mod is k8s.io/api v0.36.3; k8s-v0.34.mod and k8s-v0.29.mod
// select the versions that the Argo Rollouts 1.9/1.10 and 1.8 releases are built with):
//
//	go run [-modfile=k8s-vX.mod] . types                  > <main resources>/go-podtemplatespec-<version>.json
//	go run [-modfile=k8s-vX.mod] . vectors <fixtures> <out dir>
//	go run [-modfile=k8s-vX.mod] . quantities <input file> > <out dir>/quantities.tsv
//	go run [-modfile=k8s-vX.mod] . times <input file> > <out dir>/times.tsv
//	go run [-modfile=k8s-vX.mod] . random <count> <seed> | gzip -9n > <out dir>/random.jsonl.gz
//
// "types" walks reflect.TypeOf(corev1.PodTemplateSpec{}) the way encoding/json does (field order, json names,
// omitempty/omitzero, embedded structs flattened) and prints one JSON table of every reachable struct type.
//
// "vectors" decodes every *.json fixture the way a Kubernetes Go client decodes API responses (sigs.k8s.io/json,
// case-sensitive, unknown fields dropped) into a corev1.PodTemplateSpec, marshals it with encoding/json after one
// normalising decode/encode round (see remarshal) and writes <name>.json (the exact bytes) and hashes.tsv (the pod
// template hash without and with collisionCount=1, or the decode error).
//
// "random" (random.go) prints random templates with Go's bytes or decode error, for a differential check.
//
// "quantities" and "times" read one JSON value per line, decode it into a resource.Quantity or a metav1.Time and
// print the input, a tab and the JSON encoding of the value (or ERROR and the message).
package main

import (
	"bufio"
	"encoding"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	kjson "sigs.k8s.io/json"
)

func main() {
	if len(os.Args) < 2 {
		fail("usage: podtemplatehash types | vectors <fixtures dir> <out dir> | quantities <file> | times <file>")
	}
	switch os.Args[1] {
	case "types":
		printTypes()
	case "vectors":
		if len(os.Args) != 4 {
			fail("usage: podtemplatehash vectors <fixtures dir> <out dir>")
		}
		writeVectors(os.Args[2], os.Args[3])
	case "quantities":
		if len(os.Args) != 3 {
			fail("usage: podtemplatehash quantities <file>")
		}
		printValues(os.Args[2], "resource.Quantity", func() any { return &resource.Quantity{} })
	case "random":
		if len(os.Args) != 4 {
			fail("usage: podtemplatehash random <count> <seed>")
		}
		count, err1 := strconv.Atoi(os.Args[2])
		seed, err2 := strconv.Atoi(os.Args[3])
		if err1 != nil || err2 != nil {
			fail("random: count and seed must be integers")
		}
		printRandom(count, seed)
	case "times":
		if len(os.Args) != 3 {
			fail("usage: podtemplatehash times <file>")
		}
		printValues(os.Args[2], "metav1.Time", func() any { return &metav1.Time{} })
	default:
		fail("unknown command " + os.Args[1])
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, msg)
	os.Exit(1)
}

// apiVersion returns the version of k8s.io/api this binary was built with.
func apiVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		fail("no build info")
	}
	for _, m := range info.Deps {
		if m.Path == "k8s.io/api" {
			if m.Replace != nil {
				return m.Replace.Version
			}
			return m.Version
		}
	}
	fail("k8s.io/api not in build info")
	return ""
}

// ---------------------------------------------------------------------------------------------------------------
// types

// customTypes are the types with their own JSON (un)marshallers, by package path and name; the Java encoder knows
// each of them by the short name.
var customTypes = map[string]string{
	"k8s.io/apimachinery/pkg/api/resource.Quantity":   "Quantity",
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString": "IntOrString",
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":       "Time",
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":  "MicroTime",
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":   "FieldsV1",
	"k8s.io/apimachinery/pkg/runtime.RawExtension":    "RawExtension",
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":   "Duration",
}

var (
	marshalerType       = reflect.TypeFor[json.Marshaler]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	isZeroerType        = reflect.TypeFor[interface{ IsZero() bool }]()
)

type fieldOut struct {
	JSON      string `json:"json"`
	Go        string `json:"go"`
	OmitEmpty bool   `json:"omitempty,omitempty"`
	OmitZero  bool   `json:"omitzero,omitempty"`
	Type      any    `json:"type"`
}

type typeTable struct {
	Comment string                `json:"comment"`
	API     string                `json:"k8sApi"`
	Go      string                `json:"go"`
	Root    string                `json:"root"`
	Structs map[string][]fieldOut `json:"structs"`
}

func printTypes() {
	table := typeTable{
		Comment: "Generated by controller/src/test/go/podtemplatehash (go run . types); do not edit.",
		API:     apiVersion(),
		Go:      strings.TrimPrefix(runtimeVersion(), "go"),
		Structs: map[string][]fieldOut{},
	}
	root := describe(reflect.TypeFor[corev1.PodTemplateSpec](), table.Structs)
	table.Root = root.(map[string]any)["struct"].(string)
	// One field per line keeps the file reviewable and its diffs small.
	var b strings.Builder
	header, err := json.Marshal(map[string]string{"comment": table.Comment, "k8sApi": table.API, "go": table.Go,
		"root": table.Root})
	if err != nil {
		fail(err.Error())
	}
	b.Write(header[:len(header)-1])
	b.WriteString(",\n\"structs\": {")
	names := make([]string, 0, len(table.Structs))
	for name := range table.Structs {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n %q: [", name)
		for j, f := range table.Structs[name] {
			if j > 0 {
				b.WriteString(",")
			}
			line, err := json.Marshal(f)
			if err != nil {
				fail(err.Error())
			}
			b.WriteString("\n  ")
			b.Write(line)
		}
		b.WriteString("\n ]")
	}
	b.WriteString("\n}}\n")
	os.Stdout.WriteString(b.String())
}

func runtimeVersion() string {
	info, _ := debug.ReadBuildInfo()
	return info.GoVersion
}

func typeName(t reflect.Type) string {
	return t.PkgPath() + "." + t.Name()
}

// describe returns the type descriptor of t: a string for scalars and custom types, {"ptr"|"slice"|"map": elem} for
// composites, {"struct": name} for structs (whose fields are added to structs).
func describe(t reflect.Type, structs map[string][]fieldOut) any {
	if t.Name() != "" {
		if short, ok := customTypes[typeName(t)]; ok && short != "" {
			return short
		}
	}
	pt := reflect.PointerTo(t)
	if t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer && (t.Implements(marshalerType) || pt.Implements(marshalerType) ||
		t.Implements(textMarshalerType) || pt.Implements(textMarshalerType) ||
		pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType)) {
		fail("type with an unknown custom (un)marshaller: " + typeName(t))
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return t.Kind().String()
	case reflect.Interface:
		if t.NumMethod() != 0 {
			fail("non-empty interface type " + t.String())
		}
		return "any"
	case reflect.Pointer:
		return map[string]any{"ptr": describe(t.Elem(), structs)}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			e := t.Elem()
			pe := reflect.PointerTo(e)
			if !e.Implements(marshalerType) && !e.Implements(textMarshalerType) && !pe.Implements(marshalerType) &&
				!pe.Implements(textMarshalerType) {
				return "bytes"
			}
		}
		return map[string]any{"slice": describe(t.Elem(), structs)}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			fail("map with a non-string key: " + t.String())
		}
		return map[string]any{"map": describe(t.Elem(), structs)}
	case reflect.Struct:
		if t.Name() == "" {
			fail("anonymous struct type " + t.String())
		}
		name := typeName(t)
		if _, seen := structs[name]; !seen {
			structs[name] = nil // placeholder against recursion
			var fields []fieldOut
			for _, f := range typeFields(t) {
				fo := fieldOut{JSON: f.name, Go: f.goPath, OmitEmpty: f.omitEmpty, OmitZero: f.omitZero}
				if f.omitZero {
					ft := f.typ
					if ft.Kind() != reflect.Pointer && ft.Kind() != reflect.Interface &&
						(ft.Implements(isZeroerType) || reflect.PointerTo(ft).Implements(isZeroerType)) {
						if _, known := customTypes[typeName(ft)]; !known {
							fail("omitzero field with an unknown IsZero method: " + name + "." + f.goPath)
						}
					}
				}
				fo.Type = describe(f.typ, structs)
				fields = append(fields, fo)
			}
			if fields == nil {
				fields = []fieldOut{}
			}
			structs[name] = fields
		}
		return map[string]any{"struct": name}
	default:
		fail("unsupported kind " + t.Kind().String() + " in " + t.String())
	}
	return nil
}

type field struct {
	name      string
	tagged    bool
	index     []int
	typ       reflect.Type
	omitEmpty bool
	omitZero  bool
	goPath    string
}

// typeFields returns the fields encoding/json encodes for struct type t, in encoding order, following the rules of
// encoding/json's own typeFields (embedded structs without a json name are flattened; a shallower or tagged field
// dominates).
func typeFields(t reflect.Type) []field {
	type queued struct {
		typ    reflect.Type
		index  []int
		goPath string
	}
	current := []queued{}
	next := []queued{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []field
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := 0; i < f.typ.NumField(); i++ {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					st := sf.Type
					if st.Kind() == reflect.Pointer {
						st = st.Elem()
					}
					if !sf.IsExported() && st.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				optList := strings.Split(opts, ",")
				has := func(o string) bool {
					for _, x := range optList {
						if x == o {
							return true
						}
					}
					return false
				}
				if has("string") {
					fail("json ,string option is not supported: " + typeName(f.typ) + "." + sf.Name)
				}
				index := append(append([]int{}, f.index...), i)
				goPath := sf.Name
				if f.goPath != "" {
					goPath = f.goPath + "." + sf.Name
				}
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					fields = append(fields, field{name: name, tagged: tagged, index: index, typ: sf.Type,
						omitEmpty: has("omitempty"), omitZero: has("omitzero"), goPath: goPath})
					if count[f.typ] > 1 {
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}
				if sf.Type.Kind() == reflect.Pointer {
					fail("embedded pointer struct is not supported: " + typeName(f.typ) + "." + sf.Name)
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, queued{typ: ft, index: index, goPath: goPath})
				}
			}
		}
	}
	sort.SliceStable(fields, func(i, j int) bool {
		x := fields
		if x[i].name != x[j].name {
			return x[i].name < x[j].name
		}
		if len(x[i].index) != len(x[j].index) {
			return len(x[i].index) < len(x[j].index)
		}
		if x[i].tagged != x[j].tagged {
			return x[i].tagged
		}
		return lessIndex(x[i].index, x[j].index)
	})
	out := fields[:0]
	for advance, i := 0, 0; i < len(fields); i += advance {
		fi := fields[i]
		for advance = 1; i+advance < len(fields); advance++ {
			if fields[i+advance].name != fi.name {
				break
			}
		}
		if advance == 1 {
			out = append(out, fi)
			continue
		}
		if dominant, ok := dominantField(fields[i : i+advance]); ok {
			out = append(out, dominant)
		}
	}
	fields = out
	sort.Slice(fields, func(i, j int) bool { return lessIndex(fields[i].index, fields[j].index) })
	return fields
}

func lessIndex(a, b []int) bool {
	for k, xik := range a {
		if k >= len(b) {
			return false
		}
		if xik != b[k] {
			return xik < b[k]
		}
	}
	return len(a) < len(b)
}

func dominantField(fields []field) (field, bool) {
	if len(fields) > 1 && len(fields[0].index) == len(fields[1].index) && fields[0].tagged == fields[1].tagged {
		return field{}, false
	}
	return fields[0], true
}

// ---------------------------------------------------------------------------------------------------------------
// vectors

// decode decodes API JSON the way the Kubernetes Go clients do (apimachinery's JSON serializer).
func decode(data []byte) (*corev1.PodTemplateSpec, error) {
	var t corev1.PodTemplateSpec
	if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// podTemplateHash is FNV-32a over the JSON, then the collision count as 4 little-endian bytes in an 8-byte buffer,
// printed in decimal and passed through rand.SafeEncodeString.
func podTemplateHash(encoded []byte, collisionCount *int32) string {
	h := fnv.New32a()
	h.Write(encoded)
	if collisionCount != nil {
		buf := make([]byte, 8)
		binary.LittleEndian.PutUint32(buf, uint32(*collisionCount))
		h.Write(buf)
	}
	return rand.SafeEncodeString(fmt.Sprint(h.Sum32()))
}

// remarshal returns the bytes that get hashed: a controller that normalises its objects encodes the decoded object,
// decodes that with encoding/json and encodes the result again. The second round differs from the first only where
// encoding is not idempotent: a non-nil pointer to a zero metav1.Time encodes as null and decodes back as nil, and a
// time within the first second of year 1 loses its fraction and becomes the zero time.
func remarshal(t *corev1.PodTemplateSpec) ([]byte, error) {
	first, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	var normalised corev1.PodTemplateSpec
	if err := json.Unmarshal(first, &normalised); err != nil {
		return nil, err
	}
	return json.Marshal(&normalised)
}

func writeVectors(fixturesDir, outDir string) {
	files, err := filepath.Glob(filepath.Join(fixturesDir, "*.json"))
	if err != nil {
		fail(err.Error())
	}
	sort.Strings(files)
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		fail(err.Error())
	}
	var tsv strings.Builder
	tsv.WriteString("# fixture\thash\thash with collisionCount=1 (or ERROR and the Go decode error); k8s.io/api " +
		apiVersion() + "\n")
	one := int32(1)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		data, err := os.ReadFile(file)
		if err != nil {
			fail(err.Error())
		}
		t, err := decode(data)
		if err != nil {
			fmt.Fprintf(&tsv, "%s\tERROR\t%s\n", name, strings.ReplaceAll(err.Error(), "\n", " "))
			continue
		}
		encoded, err := remarshal(t)
		if err != nil {
			fail(name + ": " + err.Error())
		}
		if err := os.WriteFile(filepath.Join(outDir, name+".json"), encoded, 0o644); err != nil {
			fail(err.Error())
		}
		fmt.Fprintf(&tsv, "%s\t%s\t%s\n", name, podTemplateHash(encoded, nil), podTemplateHash(encoded, &one))
	}
	if err := os.WriteFile(filepath.Join(outDir, "hashes.tsv"), []byte(tsv.String()), 0o644); err != nil {
		fail(err.Error())
	}
}

// ---------------------------------------------------------------------------------------------------------------
// quantities and times

// printValues decodes each line (a JSON value) into a new value of one type and prints the line, a tab and the JSON
// encoding of the value after one normalising round (as in remarshal), or ERROR and the message.
func printValues(file, typeName string, newValue func() any) {
	f, err := os.Open(file)
	if err != nil {
		fail(err.Error())
	}
	defer f.Close()
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	fmt.Fprintf(out, "# input JSON\tGo encoding of the decoded %s (or ERROR); k8s.io/api %s\n", typeName, apiVersion())
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		line := scanner.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		v := newValue()
		if err := kjson.UnmarshalCaseSensitivePreserveInts([]byte(line), v); err != nil {
			fmt.Fprintf(out, "%s\tERROR %s\n", line, strings.ReplaceAll(err.Error(), "\n", " "))
			continue
		}
		encoded, err := remarshalValue(v, newValue)
		if err != nil {
			fmt.Fprintf(out, "%s\tERROR re-decoding: %s\n", line, strings.ReplaceAll(err.Error(), "\n", " "))
			continue
		}
		fmt.Fprintf(out, "%s\t%s\n", line, encoded)
	}
	if err := scanner.Err(); err != nil {
		fail(err.Error())
	}
}

// remarshalValue is remarshal for a single value.
func remarshalValue(v any, newValue func() any) ([]byte, error) {
	first, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	normalised := newValue()
	if err := json.Unmarshal(first, normalised); err != nil {
		return nil, err
	}
	return json.Marshal(normalised)
}
