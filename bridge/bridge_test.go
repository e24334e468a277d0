package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		serveFake(mode)
	}
	os.Exit(m.Run())
}

const testCookie = "c0ffee"

// startFake starts the test binary as a go-plugin plugin of this mode, dispensed as kind, behind an HTTP server.
func startFake(t *testing.T, mode string, kind Kind) *httptest.Server {
	t.Helper()
	t.Setenv(fakeEnv, mode)
	started, err := Start(kind, os.Args[0], nil, 10*time.Second, io.Discard)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	srv := httptest.NewServer(&Handler{Started: started, Cookie: testCookie})
	// The plugin first: a call still waiting for it (a hanging plugin) then ends, and the server can close.
	t.Cleanup(func() {
		started.Kill()
		srv.Close()
	})
	return srv
}

func post(t *testing.T, srv *httptest.Server, path, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/"+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+testCookie)
	req.Header.Set(ProtocolHeader, "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var answer map[string]any
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(raw, &answer); err != nil {
			t.Fatalf("POST %s answered %q: %v", path, raw, err)
		}
	}
	return resp.StatusCode, answer
}

const rollout = `{"apiVersion":"argoproj.io/v1alpha1","kind":"Rollout","metadata":{"name":"web","namespace":"shop"},
 "spec":{"strategy":{"canary":{"steps":[{"setWeight":20}]}}},"status":{"observedGeneration":"3"}}`

func TestStepPlugin_runTerminateAbortAndInfo(t *testing.T) {
	srv := startFake(t, "step", KindStep)

	code, a := post(t, srv, "init", `{}`)
	if code != 200 || a["error"] != "" {
		t.Fatalf("init: %d %v", code, a)
	}
	_, a = post(t, srv, "info", `{}`)
	if a["type"] != "fake-step" {
		t.Fatalf("info: %v", a)
	}

	_, a = post(t, srv, "step/run", `{"rollout":`+rollout+`,"context":{"pluginName":"org/fake","stepIndex":1,
	  "config":{"return":"Running","requeue":"45s"},"status":null}}`)
	if a["phase"] != "Running" || a["requeueAfterSeconds"] != 45.0 || a["error"] != "" {
		t.Fatalf("run: %v", a)
	}
	if a["message"] != "org/fake ran web (status was )" {
		t.Fatalf("run message: %v", a["message"])
	}
	status, _ := json.Marshal(a["status"])
	if string(status) != `{"runs":1}` {
		t.Fatalf("run status: %s", status)
	}

	// The stored status goes back to the plugin.
	_, a = post(t, srv, "step/run", `{"rollout":`+rollout+`,"context":{"pluginName":"org/fake","stepIndex":1,
	  "config":{"return":"Successful"},"status":{"runs":1}}}`)
	if a["phase"] != "Successful" || a["message"] != `org/fake ran web (status was {"runs":1})` {
		t.Fatalf("second run: %v", a)
	}
	if _, present := a["requeueAfterSeconds"]; present {
		t.Fatalf("no requeue expected: %v", a)
	}

	_, a = post(t, srv, "step/run", `{"rollout":`+rollout+`,"context":{"config":{"error":"boom"}}}`)
	if a["error"] != "boom" || a["phase"] != nil {
		t.Fatalf("plugin error: %v", a)
	}
	_, a = post(t, srv, "step/terminate", `{"rollout":`+rollout+`,"context":{}}`)
	if a["phase"] != "Successful" || a["message"] != "terminated web" {
		t.Fatalf("terminate: %v", a)
	}
	_, a = post(t, srv, "step/abort", `{"rollout":`+rollout+`,"context":{}}`)
	if a["message"] != "aborted web" {
		t.Fatalf("abort: %v", a)
	}
}

func TestTrafficRouterPlugin_callsAndErrors(t *testing.T) {
	srv := startFake(t, "trafficrouter", KindTrafficRouter)

	_, a := post(t, srv, "trafficrouter/setWeight", `{"rollout":`+rollout+`,"desiredWeight":30,
	  "additionalDestinations":[{"serviceName":"exp","podTemplateHash":"abc","weight":5}]}`)
	if a["error"] != "" {
		t.Fatalf("setWeight: %v", a)
	}
	_, a = post(t, srv, "trafficrouter/verifyWeight", `{"rollout":`+rollout+`,"desiredWeight":31}`)
	if a["verified"] != true {
		t.Fatalf("verifyWeight 31 (30 + one destination): %v", a)
	}
	_, a = post(t, srv, "trafficrouter/verifyWeight", `{"rollout":`+rollout+`,"desiredWeight":50}`)
	if a["verified"] != false {
		t.Fatalf("verifyWeight 50: %v", a)
	}
	_, a = post(t, srv, "trafficrouter/verifyWeight", `{"rollout":`+rollout+`,"desiredWeight":42}`)
	if v, present := a["verified"]; !present || v != nil {
		t.Fatalf("verifyWeight 42 must be null: %v", a)
	}
	_, a = post(t, srv, "trafficrouter/setWeight", `{"rollout":`+rollout+`,"desiredWeight":130}`)
	if a["error"] != "weight 130 over 100 for web" {
		t.Fatalf("setWeight error: %v", a)
	}
	_, a = post(t, srv, "trafficrouter/updateHash", `{"rollout":`+rollout+`,"canaryHash":"a","stableHash":"a"}`)
	if a["error"] != "same hash a for web" {
		t.Fatalf("updateHash: %v", a)
	}
	_, a = post(t, srv, "trafficrouter/setHeaderRoute", `{"rollout":`+rollout+`,"headerRoute":{"name":"h1","match":[{"headerName":"x","headerValue":{"exact":"y"}}]}}`)
	if a["error"] != "" {
		t.Fatalf("setHeaderRoute: %v", a)
	}
	_, a = post(t, srv, "trafficrouter/setMirrorRoute", `{"rollout":`+rollout+`,"mirrorRoute":{"name":"m1"}}`)
	if a["error"] != "mirror m1 not supported" {
		t.Fatalf("setMirrorRoute: %v", a)
	}
	_, a = post(t, srv, "trafficrouter/removeManagedRoutes", `{"rollout":`+rollout+`}`)
	if a["error"] != "" {
		t.Fatalf("removeManagedRoutes: %v", a)
	}
	_, a = post(t, srv, "trafficrouter/setWeight", `{"rollout":{"spec":"not an object"}}`)
	if e, _ := a["error"].(string); !strings.HasPrefix(e, "rollgate-plugin-bridge: cannot decode the request") {
		t.Fatalf("bad body: %v", a)
	}
	if code, _ := post(t, srv, "step/run", `{}`); code != http.StatusNotFound {
		t.Fatalf("a step call to a router: %d", code)
	}
}

func TestMetricProviderPlugin_runAndMetadata(t *testing.T) {
	srv := startFake(t, "metricprovider", KindMetricProvider)
	run := `{"analysisRun":{"metadata":{"name":"ar1"}},"metric":{"name":"m","provider":{"plugin":{"org/fake":{}}}}}`
	_, a := post(t, srv, "metricprovider/run", run)
	m, _ := a["measurement"].(map[string]any)
	if m["phase"] != "Successful" || m["value"] != "ar1/m" || a["error"] != "" {
		t.Fatalf("run: %v", a)
	}
	_, a = post(t, srv, "metricprovider/metadata", `{"metric":{"name":"m"}}`)
	if md, _ := a["metadata"].(map[string]any); md["metric"] != "m" {
		t.Fatalf("metadata: %v", a)
	}
	_, a = post(t, srv, "metricprovider/resume", `{"analysisRun":{},"metric":{"name":"m"}}`)
	if a["error"] != "rollgate-plugin-bridge: measurement: required" {
		t.Fatalf("resume without a measurement: %v", a)
	}
}

func TestRequestsWithoutTheCookieOrWithAnotherMethodAreRefused(t *testing.T) {
	srv := startFake(t, "step", KindStep)
	resp, err := http.Post(srv.URL+"/v1/init", "application/json", strings.NewReader(`{}`))
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no cookie: %v %v", resp, err)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v1/info", nil)
	req.Header.Set("Authorization", "Bearer "+testCookie)
	resp, err = http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET: %v %v", resp, err)
	}
	req, _ = http.NewRequest(http.MethodPost, srv.URL+"/v1/info", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+testCookie)
	req.Header.Set(ProtocolHeader, "2")
	resp, err = http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("protocol 2: %v %v", resp, err)
	}
}

func TestStartFails_forABinaryThatIsNotAPlugin(t *testing.T) {
	_, err := Start(KindStep, "/bin/echo", []string{"hello"}, 3*time.Second, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "cannot start /bin/echo as an Argo Rollouts step plugin") {
		t.Fatalf("got %v", err)
	}
}

func TestStartFails_forAPluginOfAnotherKind(t *testing.T) {
	t.Setenv(fakeEnv, "step")
	_, err := Start(KindTrafficRouter, os.Args[0], nil, 5*time.Second, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "as an Argo Rollouts trafficrouter plugin") {
		t.Fatalf("got %v", err)
	}
}

// runBridge runs the command in-process with a pipe as its standard input.
func runBridge(t *testing.T, args ...string) (code chan int, stdout *bufio.Reader, stdin io.WriteCloser, stderr *bytes.Buffer) {
	t.Helper()
	t.Setenv("ROLLGATE_PLUGIN_COOKIE", testCookie)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	stderr = &bytes.Buffer{}
	code = make(chan int, 1)
	go func() {
		code <- run(args, inR, outW, stderr)
		outW.Close()
	}()
	return code, bufio.NewReader(outR), inW, stderr
}

func awaitExit(t *testing.T, code chan int) int {
	t.Helper()
	select {
	case c := <-code:
		return c
	case <-time.After(15 * time.Second):
		t.Fatal("the bridge did not exit")
		return -1
	}
}

func TestBridge_printsItsHandshakeAndStopsWhenStdinCloses(t *testing.T) {
	t.Setenv(fakeEnv, "step")
	code, out, in, _ := runBridge(t, "--kind", "step", "--", os.Args[0])
	line, err := out.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "rollgate-plugin 1 http://127.0.0.1:") {
		t.Fatalf("handshake line %q: %v", line, err)
	}
	url := strings.TrimSpace(strings.TrimPrefix(line, "rollgate-plugin 1 "))
	req, _ := http.NewRequest(http.MethodPost, url+"/v1/info", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+testCookie)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("info through the bridge: %v %v", resp, err)
	}
	in.Close()
	if c := awaitExit(t, code); c != exitStopped {
		t.Fatalf("exit %d", c)
	}
}

func TestBridge_exitsNonZeroWhenThePluginDies(t *testing.T) {
	t.Setenv(fakeEnv, "exit-after-start")
	code, out, _, stderr := runBridge(t, "--kind", "step", "--", os.Args[0])
	if line, _ := out.ReadString('\n'); !strings.HasPrefix(line, "rollgate-plugin 1 ") {
		t.Fatalf("handshake line %q", line)
	}
	if c := awaitExit(t, code); c != exitPluginExited {
		t.Fatalf("exit %d, stderr %s", c, stderr)
	}
}

func TestBridge_reportsAPluginThatCannotStartBeforeAnyHandshake(t *testing.T) {
	code, out, _, stderr := runBridge(t, "--kind", "step", "--start-timeout", "3s", "--", "/bin/echo", "not a plugin")
	if c := awaitExit(t, code); c != exitStartFailed {
		t.Fatalf("exit %d", c)
	}
	if rest, _ := io.ReadAll(out); strings.Contains(string(rest), "rollgate-plugin 1") {
		t.Fatalf("a handshake line was printed: %q", rest)
	}
	if !strings.Contains(stderr.String(), "rollgate-plugin-bridge: cannot start /bin/echo as an Argo Rollouts step plugin") {
		t.Fatalf("stderr: %s", stderr)
	}
}

func TestBridge_refusesBadArguments(t *testing.T) {
	for _, args := range [][]string{{"--kind", "router", "--", "/bin/true"}, {"--kind", "step"}} {
		code, _, _, stderr := runBridge(t, args...)
		if c := awaitExit(t, code); c != exitUsage {
			t.Fatalf("%v: exit %d (%s)", args, c, stderr)
		}
	}
}

func TestAHangingCallDoesNotBlockOtherRequests(t *testing.T) {
	srv := startFake(t, "hang", KindStep)
	client := &http.Client{Timeout: 500 * time.Millisecond}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/step/run", strings.NewReader(`{"rollout":`+rollout+`,"context":{}}`))
	req.Header.Set("Authorization", "Bearer "+testCookie)
	if _, err := client.Do(req); err == nil {
		t.Fatal("a hanging Run answered")
	}
	if _, a := post(t, srv, "info", `{}`); a["type"] != "fake-step" {
		t.Fatalf("info after a hanging call: %v", a)
	}
}
