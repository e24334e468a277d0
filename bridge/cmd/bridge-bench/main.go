// Command bridge-bench measures what the plugin bridge adds to a plugin call (docs/plugins.md, "Go plugins of Argo
// Rollouts"). It is a benchmark, not a test: it prints figures and checks nothing about them.
//
//	bridge-bench --bridge <rollgate-plugin-bridge> --plugin <step plugin> [--calls 2000]
//
// It starts the step plugin twice: once with go-plugin's client in this process, as Argo Rollouts' controller runs it,
// and once behind the bridge, called over protocol v1 (HTTP with a keep-alive connection, as the controller calls it).
// Both get the same Run call (a Rollout of about 1 KiB of JSON) the same number of times, one after the other. It
// prints p50, p90 and p99 of both and their difference (the latency the bridge adds), and the resident set size of
// the bridge process and of the plugin behind it.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	steprpc "github.com/argoproj/argo-rollouts/rollout/steps/plugin/rpc"
	"github.com/argoproj/argo-rollouts/utils/plugin/types"
	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
)

const rolloutJSON = `{"apiVersion":"argoproj.io/v1alpha1","kind":"Rollout","metadata":{"name":"bench","namespace":"shop",
"labels":{"app":"bench","team":"payments"},"annotations":{"rollout.argoproj.io/revision":"7"}},
"spec":{"replicas":5,"selector":{"matchLabels":{"app":"bench"}},"template":{"metadata":{"labels":{"app":"bench"}},
"spec":{"containers":[{"name":"app","image":"registry.example/app:v2","ports":[{"containerPort":8080}],
"resources":{"requests":{"cpu":"100m","memory":"128Mi"}}}]}},
"strategy":{"canary":{"canaryService":"bench-canary","stableService":"bench-stable","steps":[{"setWeight":20},
{"plugin":{"name":"step/bench","config":{"return":"Successful"}}},{"pause":{"duration":"1m"}},{"setWeight":60}]}}},
"status":{"phase":"Progressing","currentStepIndex":1,"stableRS":"6c9f7d8b4","currentPodHash":"7d4f9c6b5",
"observedGeneration":"12","replicas":5,"readyReplicas":5,"availableReplicas":5,"updatedReplicas":1,
"conditions":[{"type":"Progressing","status":"True","reason":"ReplicaSetUpdated","message":"RS updated"},
{"type":"Available","status":"True","reason":"AvailableReason","message":"Rollout has minimum availability"}]}}`

func main() {
	bridge := flag.String("bridge", "", "the rollgate-plugin-bridge executable")
	plugin := flag.String("plugin", "", "an Argo Rollouts step plugin (e.g. test/cmd/step-plugin-e2e)")
	calls := flag.Int("calls", 2000, "calls per variant")
	flag.Parse()
	if *bridge == "" || *plugin == "" || *calls < 10 {
		fmt.Fprintln(os.Stderr, "usage: bridge-bench --bridge <path> --plugin <path> [--calls N (>= 10)]")
		os.Exit(1)
	}
	var ro v1alpha1.Rollout
	if err := json.Unmarshal([]byte(rolloutJSON), &ro); err != nil {
		fail("rollout: %v", err)
	}
	config := json.RawMessage(`{"return":"Successful"}`)

	direct := measureDirect(*plugin, &ro, config, *calls)
	bridged, bridgeRSS, pluginRSS := measureBridged(*bridge, *plugin, config, *calls)

	fmt.Printf("calls per variant: %d (Run of a step plugin, Rollout of %d bytes of JSON)\n", *calls, len(rolloutJSON))
	fmt.Printf("%-28s %10s %10s %10s\n", "", "p50", "p90", "p99")
	row := func(name string, d []time.Duration) {
		fmt.Printf("%-28s %10s %10s %10s\n", name, pct(d, 50), pct(d, 90), pct(d, 99))
	}
	row("direct (go-plugin, net/rpc)", direct)
	row("through the bridge (HTTP)", bridged)
	fmt.Printf("%-28s %10s %10s %10s\n", "added by the bridge",
		pct(bridged, 50)-pct(direct, 50), pct(bridged, 90)-pct(direct, 90), pct(bridged, 99)-pct(direct, 99))
	fmt.Printf("RSS: bridge %d KiB, plugin behind it %d KiB\n", bridgeRSS, pluginRSS)
}

func measureDirect(plugin string, ro *v1alpha1.Rollout, config json.RawMessage, n int) []time.Duration {
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig: goplugin.HandshakeConfig{ProtocolVersion: 1, MagicCookieKey: "ARGO_ROLLOUTS_RPC_PLUGIN", MagicCookieValue: "step"},
		Plugins:         map[string]goplugin.Plugin{"RpcStepPlugin": &steprpc.RpcStepPlugin{}},
		Cmd:             exec.Command(plugin),
		Logger:          hclog.New(&hclog.LoggerOptions{Output: io.Discard}),
	})
	defer client.Kill()
	rpcClient, err := client.Client()
	if err != nil {
		fail("direct start: %v", err)
	}
	raw, err := rpcClient.Dispense("RpcStepPlugin")
	if err != nil {
		fail("dispense: %v", err)
	}
	p := raw.(steprpc.StepPlugin)
	p.InitPlugin()
	out := make([]time.Duration, 0, n)
	for i := 0; i < n+n/10; i++ {
		start := time.Now()
		// The bridge decodes the Rollout's JSON on each call; so does this side, to compare like with like.
		var r v1alpha1.Rollout
		if err := json.Unmarshal([]byte(rolloutJSON), &r); err != nil {
			fail("decode: %v", err)
		}
		_, rpcErr := p.Run(&r, &types.RpcStepContext{PluginName: "step/bench", Config: config})
		if rpcErr.HasError() {
			fail("direct Run: %s", rpcErr.ErrorString)
		}
		if i >= n/10 { // the first tenth warms up
			out = append(out, time.Since(start))
		}
	}
	return out
}

func measureBridged(bridge, plugin string, config json.RawMessage, n int) ([]time.Duration, int, int) {
	cmd := exec.Command(bridge, "--kind", "step", "--", plugin)
	cmd.Env = append(os.Environ(), "ROLLGATE_PLUGIN_COOKIE=bench", "ROLLGATE_PLUGIN_PROTOCOL=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		fail("bridge start: %v", err)
	}
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "rollgate-plugin 1 ") {
		fail("bridge handshake %q: %v", line, err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	url := strings.TrimSpace(strings.TrimPrefix(line, "rollgate-plugin 1 "))
	body := []byte(`{"rollout":` + rolloutJSON + `,"context":{"pluginName":"step/bench","stepIndex":1,"config":` +
		string(config) + `,"status":null}}`)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	call := func(path string, b []byte) {
		req, _ := http.NewRequest(http.MethodPost, url+"/v1/"+path, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer bench")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Rollgate-Plugin-Protocol", "1")
		resp, err := client.Do(req)
		if err != nil {
			fail("%s through the bridge: %v", path, err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || bytes.Contains(answer, []byte(`"error":"r`)) {
			fail("%s through the bridge: %d %s", path, resp.StatusCode, answer)
		}
	}
	call("init", []byte(`{}`))
	out := make([]time.Duration, 0, n)
	for i := 0; i < n+n/10; i++ {
		start := time.Now()
		call("step/run", body)
		if i >= n/10 {
			out = append(out, time.Since(start))
		}
	}
	bridgeRSS := rssKiB(cmd.Process.Pid)
	pluginRSS := 0
	if kids, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", cmd.Process.Pid, cmd.Process.Pid)); err == nil {
		for _, f := range strings.Fields(string(kids)) {
			var pid int
			fmt.Sscan(f, &pid)
			pluginRSS += rssKiB(pid)
		}
	}
	return out, bridgeRSS, pluginRSS
}

// rssKiB reads VmRSS of a process from /proc (0 when it cannot).
func rssKiB(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			var kib int
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, "VmRSS:"), "kB")), &kib)
			return kib
		}
	}
	return 0
}

func pct(d []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	if i < 1 {
		i = 1
	}
	return s[i-1].Round(time.Microsecond)
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "bridge-bench: "+format+"\n", a...)
	os.Exit(1)
}
