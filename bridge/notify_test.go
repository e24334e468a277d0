package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// receiver records the requests a webhook service sends; the first failures requests are answered 503.
type receiver struct {
	mu       sync.Mutex
	bodies   []string
	paths    []string
	failures int
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failures > 0 {
		r.failures--
		http.Error(w, "not now", http.StatusServiceUnavailable)
		return
	}
	r.bodies = append(r.bodies, string(body))
	r.paths = append(r.paths, req.Method+" "+req.URL.Path)
}

func (r *receiver) received() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.bodies...)
}

func newReceiver(t *testing.T) (*receiver, string) {
	r := &receiver{}
	s := httptest.NewServer(r)
	t.Cleanup(s.Close)
	return r, s.URL
}

func configMap(rv string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: "rollouts", Name: "argo-rollouts-notification-configmap", ResourceVersion: rv},
		Data:       data,
	}
}

func rolloutObject(annotations map[string]any) map[string]any {
	return map[string]any{
		"apiVersion": "argoproj.io/v1alpha1",
		"kind":       "Rollout",
		"metadata": map[string]any{
			"name": "checkout", "namespace": "shop", "annotations": annotations,
			"labels": map[string]any{"team": "payments"},
		},
		"spec":   map[string]any{"strategy": map[string]any{"canary": map[string]any{}}},
		"status": map[string]any{"currentStepIndex": float64(2), "phase": "Paused"},
	}
}

func request(reason string, obj map[string]any, cfgs ...NotifyConfig) NotifyRequest {
	var req NotifyRequest
	req.Event.Type = "Normal"
	req.Event.Reason = reason
	req.Object = obj
	req.Configs = cfgs
	return req
}

func fastNotifier() *Notifier {
	n := NewNotifier(3, time.Millisecond, 5*time.Second)
	return n
}

func TestTriggerOf_kebabCasesTheReason(t *testing.T) {
	cases := map[string]string{
		"RolloutStepCompleted": "on-rollout-step-completed",
		"AnalysisRunFailed":    "on-analysis-run-failed",
		"RolloutPaused":        "on-rollout-paused",
		"ScalingReplicaSet":    "on-scaling-replica-set",
		"SwitchService":        "on-switch-service",
		"TrafficWeightUpdated": "on-traffic-weight-updated",
		"HTTPRouteUpdated":     "on-http-route-updated",
		"Rollout2Done":         "on-rollout2-done",
	}
	for reason, want := range cases {
		if got := TriggerOf(reason); got != want {
			t.Errorf("TriggerOf(%q) = %q, want %q", reason, got, want)
		}
	}
}

func TestNotify_rendersTheTemplateWithTheRolloutAndAnalysisRunsAndSendsItOnce(t *testing.T) {
	rec, url := newReceiver(t)
	cm := configMap("1", map[string]string{
		"service.webhook.hook":      "url: " + url,
		"trigger.on-rollout-paused": "- send: [paused]\n",
		"template.paused": "webhook:\n  hook:\n    method: POST\n    path: /paused\n" +
			"    body: '{{.rollout.metadata.name}} step {{.rollout.status.currentStepIndex}} runs {{len .analysisRuns}} " +
			"{{(index .analysisRuns 0).metadata.name}} via {{.serviceType}}/{{.recipient}}'\n",
	})
	obj := rolloutObject(map[string]any{"notifications.argoproj.io/subscribe.on-rollout-paused.hook": ""})
	req := request("RolloutPaused", obj, NotifyConfig{ConfigMap: cm})
	req.AnalysisRuns = []any{map[string]any{"metadata": map[string]any{"name": "checkout-7f-2"}}}

	answer := fastNotifier().Notify(req)

	if answer.Trigger != "on-rollout-paused" || len(answer.Failed) != 0 || len(answer.Sent) != 1 {
		t.Fatalf("answer = %+v", answer)
	}
	got := rec.received()
	want := []string{"checkout step 2 runs 1 checkout-7f-2 via hook/"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("received %q, want %q", got, want)
	}
	if rec.paths[0] != "POST /paused" {
		t.Fatalf("request %q, want POST /paused", rec.paths[0])
	}
	if _, has := obj[analysisRunsKey]; has {
		t.Fatal("the request's object was modified")
	}
}

func TestNotify_anotherReasonOrNoSubscriptionSendsNothing(t *testing.T) {
	rec, url := newReceiver(t)
	cm := configMap("1", map[string]string{
		"service.webhook.hook":      "url: " + url,
		"trigger.on-rollout-paused": "- send: [paused]\n",
		"template.paused":           "message: paused\n",
	})
	n := fastNotifier()
	subscribed := rolloutObject(map[string]any{"notifications.argoproj.io/subscribe.on-rollout-paused.hook": ""})
	a1 := n.Notify(request("RolloutCompleted", subscribed, NotifyConfig{ConfigMap: cm}))
	a2 := n.Notify(request("RolloutPaused", rolloutObject(nil), NotifyConfig{ConfigMap: cm}))
	if len(a1.Sent)+len(a1.Failed)+len(a2.Sent)+len(a2.Failed) != 0 || len(rec.received()) != 0 {
		t.Fatalf("sent something: %+v %+v %q", a1, a2, rec.received())
	}
}

func TestNotify_conditionsChooseTheTemplatesAndGlobalSubscriptionsMatchLabels(t *testing.T) {
	rec, url := newReceiver(t)
	cm := configMap("1", map[string]string{
		"service.webhook.hook": "url: " + url,
		"trigger.on-rollout-step-completed": "- when: rollout.status.currentStepIndex == 2\n  send: [two]\n" +
			"- when: rollout.status.currentStepIndex == 3\n  send: [three]\n- send: [always]\n",
		"template.two":    "webhook:\n  hook:\n    method: POST\n    body: two\n",
		"template.three":  "webhook:\n  hook:\n    method: POST\n    body: three\n",
		"template.always": "webhook:\n  hook:\n    method: POST\n    body: always\n",
		"subscriptions":   "- recipients: [hook]\n  triggers: [on-rollout-step-completed]\n  selector: team=payments\n",
	})
	answer := fastNotifier().Notify(request("RolloutStepCompleted", rolloutObject(nil), NotifyConfig{ConfigMap: cm}))
	got := rec.received()
	joined := strings.Join(got, ",")
	if len(answer.Sent) != 2 || !(joined == "two,always" || joined == "always,two") {
		t.Fatalf("answer %+v received %q, want two and always", answer, got)
	}
}

func TestNotify_aBrokenEntryIsReportedAndTheOthersStillSend(t *testing.T) {
	rec, url := newReceiver(t)
	cm := configMap("1", map[string]string{
		"service.webhook.hook":       "url: " + url,
		"trigger.on-rollout-paused":  "- send: [broken]\n- send: [fine]\n",
		"trigger.on-rollout-aborted": "- when: rollout.status.phase ==\n  send: [fine]\n",
		"template.broken":            "message: '{{.rollout.metadata.name'\n",
		"template.fine":              "webhook:\n  hook:\n    method: POST\n    body: fine\n",
		"service.slack":              "token: $slack-token\n",
		"defaultTriggers":            "not: [a list",
	})
	obj := rolloutObject(map[string]any{
		"notifications.argoproj.io/subscribe.on-rollout-paused.hook":  "",
		"notifications.argoproj.io/subscribe.on-rollout-aborted.hook": "",
		"notifications.argoproj.io/subscribe.on-rollout-paused.teams": "x",
	})
	n := fastNotifier()
	answer := n.Notify(request("RolloutPaused", obj, NotifyConfig{ConfigMap: cm}))

	if got := rec.received(); len(got) != 1 || got[0] != "fine" {
		t.Fatalf("received %q, want only fine", got)
	}
	problems := strings.Join(answer.Problems, "\n")
	for _, want := range []string{"key template.broken:", "key defaultTriggers:", "key trigger.on-rollout-aborted:",
		"key service.slack: refers to $slack-token, but Secret rollouts/argo-rollouts-notification-secret has no key slack-token"} {
		if !strings.Contains(problems, want) {
			t.Errorf("problems %q do not name %q", problems, want)
		}
	}
	failed := map[string]string{}
	for _, f := range answer.Failed {
		failed[f.Service] = f.Error
	}
	if !strings.Contains(failed["hook"], "template.broken in rollouts/argo-rollouts-notification-configmap is invalid") {
		t.Errorf("hook failure %q does not name template.broken", failed["hook"])
	}
	if !strings.Contains(failed["teams"], "service teams is not defined") {
		t.Errorf("teams failure %q does not say the service is not defined", failed["teams"])
	}
	aborted := n.Notify(request("RolloutAborted", obj, NotifyConfig{ConfigMap: cm}))
	if len(aborted.Failed) != 1 || !strings.Contains(aborted.Failed[0].Error, "trigger.on-rollout-aborted in") {
		t.Fatalf("aborted answer %+v does not name the broken trigger", aborted)
	}
}

func TestNotify_aFailedSendIsRetriedWithBackoffThenReported(t *testing.T) {
	var calls []time.Time
	var mu sync.Mutex
	failing := 2
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, time.Now())
		if failing > 0 {
			failing--
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"ok":false,"error":"ratelimited"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true,"channel":"C1","ts":"1.0"}`))
	}))
	defer api.Close()
	cm := configMap("1", map[string]string{
		"service.slack":             "token: xoxb-1\napiURL: " + api.URL + "/api/\n",
		"trigger.on-rollout-paused": "- send: [paused]\n",
		"template.paused":           "message: paused\n",
	})
	obj := rolloutObject(map[string]any{"notifications.argoproj.io/subscribe.on-rollout-paused.slack": "deploys"})
	n := fastNotifier()
	var waits []time.Duration
	n.sleep = func(d time.Duration) { waits = append(waits, d) }

	answer := n.Notify(request("RolloutPaused", obj, NotifyConfig{ConfigMap: cm}))
	if len(answer.Sent) != 1 || answer.Sent[0].Attempts != 3 || len(waits) != 2 || waits[1] != 2*waits[0] {
		t.Fatalf("answer %+v waits %v: want sent on attempt 3 after a doubling backoff", answer, waits)
	}

	failing = 5
	answer = n.Notify(request("RolloutPaused", obj, NotifyConfig{ConfigMap: cm}))
	if len(answer.Failed) != 1 || answer.Failed[0].Attempts != 3 ||
		!strings.Contains(answer.Failed[0].Error, "sending paused to slack:deploys") {
		t.Fatalf("answer %+v: want one failure after 3 attempts naming the destination", answer)
	}
}

func TestNotify_selfServiceConfigurationsAreEachUsed(t *testing.T) {
	rec, url := newReceiver(t)
	own := configMap("5", map[string]string{
		"service.webhook.hook":         "url: " + url,
		"trigger.on-rollout-completed": "- send: [done]\n",
		"template.done":                "webhook:\n  hook:\n    method: POST\n    body: team {{.secrets.team}}\n",
	})
	own.Namespace = "shop"
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", ResourceVersion: "6"},
		Data: map[string][]byte{"team": []byte("payments")}}
	controller := configMap("1", map[string]string{})
	obj := rolloutObject(map[string]any{"notifications.argoproj.io/subscribe.on-rollout-completed.hook": ""})
	answer := fastNotifier().Notify(request("RolloutCompleted", obj,
		NotifyConfig{ConfigMap: own, Secret: secret}, NotifyConfig{ConfigMap: controller}))
	if got := rec.received(); len(got) != 1 || got[0] != "team [112 97 121 109 101 110 116 115]" || len(answer.Sent) != 1 ||
		answer.Sent[0].Config != "shop/argo-rollouts-notification-configmap" {
		t.Fatalf("answer %+v received %q", answer, got)
	}
}

func TestNotifyHandler_servesProtocolV1(t *testing.T) {
	rec, url := newReceiver(t)
	h := &NotifyHandler{Notifier: fastNotifier(), Cookie: "c00kie"}
	s := httptest.NewServer(h)
	defer s.Close()
	cm := configMap("1", map[string]string{
		"service.webhook.hook":      "url: " + url,
		"trigger.on-rollout-paused": "- send: [paused]\n",
		"template.paused":           "webhook:\n  hook:\n    method: POST\n    body: '{{.rollout.metadata.name}}'\n",
	})
	body, _ := json.Marshal(request("RolloutPaused",
		rolloutObject(map[string]any{"notifications.argoproj.io/subscribe.on-rollout-paused.hook": ""}),
		NotifyConfig{ConfigMap: cm}))
	post := func(path, cookie string, b []byte) (*http.Response, NotifyAnswer) {
		req, _ := http.NewRequest(http.MethodPost, s.URL+path, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+cookie)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var a NotifyAnswer
		_ = json.NewDecoder(resp.Body).Decode(&a)
		return resp, a
	}
	if resp, _ := post("/v1/notify", "wrong", body); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong cookie: %d", resp.StatusCode)
	}
	if resp, _ := post("/v1/step/run", "c00kie", body); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown call: %d", resp.StatusCode)
	}
	_, bad := post("/v1/notify", "c00kie", []byte(`{"event":{"reason":1}}`))
	if !strings.Contains(bad.Error, "cannot decode the request") {
		t.Fatalf("bad body answer %+v", bad)
	}
	_, noReason := post("/v1/notify", "c00kie", []byte(`{"object":{}}`))
	if noReason.Error != "event.reason: required" {
		t.Fatalf("missing reason answer %+v", noReason)
	}
	resp, a := post("/v1/notify", "c00kie", body)
	if resp.StatusCode != 200 || len(a.Sent) != 1 || strings.Join(rec.received(), "") != "checkout" {
		t.Fatalf("notify: %d %+v %q", resp.StatusCode, a, rec.received())
	}
}

// upstreamCatalog reads the notification ConfigMap Argo Rollouts ships (manifests/notifications-install.yaml of the
// argo-rollouts module this module depends on, in the Go module cache).
func upstreamCatalog(t *testing.T) *corev1.ConfigMap {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/argoproj/argo-rollouts").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	raw, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "manifests", "notifications-install.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cm := &corev1.ConfigMap{}
	if err := yaml.Unmarshal(raw, cm); err != nil {
		t.Fatal(err)
	}
	cm.Namespace = "rollouts"
	cm.ResourceVersion = "1"
	return cm
}

func TestNotify_upstreamCatalogFiresEveryTriggerWithItsText(t *testing.T) {
	var mu sync.Mutex
	slackTexts := map[string]string{}
	slack := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		var attachments []map[string]any
		if err := json.Unmarshal([]byte(r.PostForm.Get("attachments")), &attachments); err != nil || len(attachments) != 1 {
			http.Error(w, "attachments are not one JSON object: "+r.PostForm.Get("attachments"), http.StatusBadRequest)
			return
		}
		mu.Lock()
		slackTexts[r.PostForm.Get("text")] = attachments[0]["title"].(string)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true,"channel":"C1","ts":"1.0"}`))
	}))
	defer slack.Close()
	cm := upstreamCatalog(t)
	cm.Data["service.slack"] = "token: xoxb-1\napiURL: " + slack.URL + "/\n"
	want := map[string]string{
		"AnalysisRunError":     "Rollout shop's analysis run is in error state.",
		"AnalysisRunFailed":    "Rollout shop's analysis run failed.",
		"AnalysisRunRunning":   "Rollout shop's analysis run is running.",
		"RolloutAborted":       "Rollout shop has been aborted.",
		"RolloutCompleted":     "Rollout shop has been completed.",
		"RolloutPaused":        "Rollout shop has been paused.",
		"RolloutStepCompleted": "Rollout shop step number 3/4 has been completed.",
		"RolloutUpdated":       "Rollout shop has been updated.",
		"ScalingReplicaSet":    "Scaling Rollout shop's replicaset to 5.",
	}
	annotations := map[string]any{}
	for reason := range want {
		annotations["notifications.argoproj.io/subscribe."+TriggerOf(reason)+".slack"] = "deploys"
	}
	obj := rolloutObject(annotations)
	obj["metadata"].(map[string]any)["name"] = "shop"
	obj["spec"] = map[string]any{
		"replicas": float64(5),
		"strategy": map[string]any{"canary": map[string]any{"steps": []any{map[string]any{}, map[string]any{}, map[string]any{}, map[string]any{}}}},
		"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "app", "image": "app:v2"}}}},
	}
	n := fastNotifier()
	for reason := range want {
		answer := n.Notify(request(reason, obj, NotifyConfig{ConfigMap: cm}))
		if len(answer.Sent) != 1 || len(answer.Failed) != 0 || len(answer.Problems) != 0 {
			t.Errorf("%s: %+v", reason, answer)
		}
	}
	if len(slackTexts) != len(want) {
		t.Fatalf("slack got %d distinct messages, want %d: %v", len(slackTexts), len(want), slackTexts)
	}
	for reason, text := range want {
		if slackTexts[text] != "shop" {
			t.Errorf("%s: no message %q with attachment title shop (got %v)", reason, text, slackTexts)
		}
	}
}
