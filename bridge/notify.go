package main

// The notifications mode: the bridge hosts Argo's notification engine (github.com/argoproj/notifications-engine) for
// the Rollgate controller, which sends it each Event it records together with the notification ConfigMap and Secret
// that apply (docs/notifications.md). The engine defines the semantics users rely on (Go templates with sprig, expr
// trigger conditions, the service clients); the bridge only maps an Event to its trigger, keeps a broken entry of the
// ConfigMap from taking the others down, retries failed sends and reports what happened.

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/argoproj/notifications-engine/pkg/api"
	"github.com/argoproj/notifications-engine/pkg/services"
	"github.com/argoproj/notifications-engine/pkg/subscriptions"
	"github.com/argoproj/notifications-engine/pkg/templates"
	"github.com/argoproj/notifications-engine/pkg/triggers"
	log "github.com/sirupsen/logrus"
	corev1 "k8s.io/api/core/v1"
)

// analysisRunsKey carries a request's AnalysisRuns inside the object map handed to the engine, so that the variables
// of one call are built from that call alone; a top-level key a Kubernetes object never has.
const analysisRunsKey = "rollgate.io/analysisRuns"

// NotifyRequest is the body of POST /v1/notify: one Event the controller recorded, the object it is about (a Rollout,
// an AnalysisRun or an Experiment, as the API server serves it), the AnalysisRuns of a Rollout's current revision
// (null when none or when the object is not a Rollout), and the notification configurations that apply, the
// Rollout's own namespace first when self-service notifications are on.
type NotifyRequest struct {
	Event struct {
		Type   string `json:"type"`
		Reason string `json:"reason"`
	} `json:"event"`
	Object       map[string]any `json:"object"`
	AnalysisRuns []any          `json:"analysisRuns"`
	Configs      []NotifyConfig `json:"configs"`
}

// NotifyConfig is one namespace's argo-rollouts-notification-configmap and, when it exists,
// argo-rollouts-notification-secret.
type NotifyConfig struct {
	ConfigMap *corev1.ConfigMap `json:"configMap"`
	Secret    *corev1.Secret    `json:"secret"`
}

// SendOutcome is one notification sent, or given up on, for one destination.
type SendOutcome struct {
	Config    string   `json:"config"`
	Service   string   `json:"service"`
	Recipient string   `json:"recipient"`
	Templates []string `json:"templates"`
	Attempts  int      `json:"attempts"`
	Error     string   `json:"error,omitempty"`
}

// NotifyAnswer is the answer to POST /v1/notify. Problems are entries of a ConfigMap that were left out because they
// are broken, or secret references that point nowhere; they are reported with every answer while they last.
type NotifyAnswer struct {
	Trigger  string        `json:"trigger"`
	Sent     []SendOutcome `json:"sent"`
	Failed   []SendOutcome `json:"failed"`
	Problems []string      `json:"problems"`
	Error    string        `json:"error"`
}

// Notifier renders and sends notifications for Events. Safe for concurrent use; the controller sends the Events of
// one object one after another, so their notifications leave in order.
type Notifier struct {
	// Attempts is how many times a send is tried before it is reported as failed (at least 1).
	Attempts int
	// Backoff is the wait before the second attempt; it doubles for each later one.
	Backoff time.Duration
	// Timeout bounds one attempt; a service client still running after it is abandoned.
	Timeout time.Duration

	sleep func(time.Duration)
	mu    sync.Mutex
	built map[string]*builtConfig
}

// builtConfig is one namespace's configuration as the engine uses it, keyed by the resource versions it was built
// from.
type builtConfig struct {
	key       string
	where     string
	api       api.API
	cfg       api.Config
	templates interface {
		FormatNotification(map[string]any, ...string) (*services.Notification, error)
	}
	getVars api.GetVars
	// serviceTypes maps a service name to its type (service.<type>.<name>).
	serviceTypes map[string]string
	problems     []string
	dropped      map[string]string
}

// NewNotifier creates a notifier with the given retry settings.
func NewNotifier(attempts int, backoff, timeout time.Duration) *Notifier {
	return &Notifier{Attempts: attempts, Backoff: backoff, Timeout: timeout, sleep: time.Sleep, built: map[string]*builtConfig{}}
}

// TriggerOf is the trigger an Event reason fires, as Argo Rollouts names it: "on-" and the reason in kebab case
// (RolloutStepCompleted -> on-rollout-step-completed, AnalysisRunFailed -> on-analysis-run-failed).
func TriggerOf(reason string) string {
	var b strings.Builder
	b.WriteString("on-")
	runes := []rune(reason)
	for i, r := range runes {
		upper := r >= 'A' && r <= 'Z'
		if upper && i > 0 {
			prev := runes[i-1]
			prevLowerOrDigit := (prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9')
			nextLower := i+1 < len(runes) && runes[i+1] >= 'a' && runes[i+1] <= 'z'
			prevUpper := prev >= 'A' && prev <= 'Z'
			if prevLowerOrDigit || (prevUpper && nextLower) {
				b.WriteByte('-')
			}
		}
		if upper {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Notify runs the Event's trigger in every configuration and sends what it selects to every subscribed destination.
func (n *Notifier) Notify(req NotifyRequest) NotifyAnswer {
	answer := NotifyAnswer{Trigger: TriggerOf(req.Event.Reason), Sent: []SendOutcome{}, Failed: []SendOutcome{}, Problems: []string{}}
	if req.Event.Reason == "" {
		answer.Error = "event.reason: required"
		return answer
	}
	if req.Object == nil {
		answer.Error = "object: required"
		return answer
	}
	labels, annotations := objectMeta(req.Object)
	obj := make(map[string]any, len(req.Object)+1)
	for k, v := range req.Object {
		obj[k] = v
	}
	obj[analysisRunsKey] = req.AnalysisRuns

	type job struct {
		bc        *builtConfig
		dest      services.Destination
		templates []string
	}
	var jobs []job
	for i, c := range req.Configs {
		if c.ConfigMap == nil {
			answer.Problems = append(answer.Problems, fmt.Sprintf("configs[%d].configMap: required", i))
			continue
		}
		bc := n.config(c)
		answer.Problems = append(answer.Problems, bc.problems...)
		dests := bc.cfg.GetGlobalDestinations(labels)
		dests.Merge(subscriptions.NewAnnotations(annotations).GetDestinations(bc.cfg.DefaultTriggers, bc.cfg.ServiceDefaultTriggers))
		targets := dests[answer.Trigger]
		if len(targets) == 0 {
			continue
		}
		if why, broken := bc.dropped["trigger."+answer.Trigger]; broken {
			for _, d := range targets {
				answer.Failed = append(answer.Failed, SendOutcome{Config: bc.where, Service: d.Service, Recipient: d.Recipient,
					Templates: []string{}, Error: fmt.Sprintf("trigger.%s in %s is invalid: %s", answer.Trigger, bc.where, why)})
			}
			continue
		}
		results, err := bc.api.RunTrigger(answer.Trigger, obj)
		if err != nil {
			if strings.Contains(err.Error(), "is not configured") {
				// A subscription to a trigger the ConfigMap does not define: nothing to send, as in Argo Rollouts.
				continue
			}
			for _, d := range targets {
				answer.Failed = append(answer.Failed, SendOutcome{Config: bc.where, Service: d.Service, Recipient: d.Recipient,
					Templates: []string{}, Error: fmt.Sprintf("trigger %s: %v", answer.Trigger, err)})
			}
			continue
		}
		conditions := bc.cfg.Triggers[answer.Trigger]
		for _, r := range results {
			// A condition without "when" always sends; one with a "when" sends when it evaluated to true.
			idx := conditionIndex(r.Key)
			always := idx >= 0 && idx < len(conditions) && conditions[idx].When == ""
			if !r.Triggered && !always {
				continue
			}
			for _, d := range targets {
				jobs = append(jobs, job{bc: bc, dest: d, templates: r.Templates})
			}
		}
	}

	outcomes := make([]SendOutcome, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func(i int, j job) {
			defer wg.Done()
			outcomes[i] = n.send(j.bc, obj, j.templates, j.dest)
		}(i, j)
	}
	wg.Wait()
	for _, o := range outcomes {
		if o.Error == "" {
			answer.Sent = append(answer.Sent, o)
		} else {
			answer.Failed = append(answer.Failed, o)
		}
	}
	return answer
}

// send renders the templates for one destination, then sends, retrying a failed send with a doubling backoff. A
// template that does not render, or a service the ConfigMap does not define, fails at once.
func (n *Notifier) send(bc *builtConfig, obj map[string]any, names []string, dest services.Destination) SendOutcome {
	out := SendOutcome{Config: bc.where, Service: dest.Service, Recipient: dest.Recipient, Templates: names}
	if out.Templates == nil {
		out.Templates = []string{}
	}
	for _, name := range names {
		if why, broken := bc.dropped["template."+name]; broken {
			out.Error = fmt.Sprintf("template.%s in %s is invalid: %s", name, bc.where, why)
			return out
		}
	}
	if _, ok := bc.api.GetNotificationServices()[dest.Service]; !ok {
		if why, broken := bc.dropped[serviceKeyPrefix+dest.Service]; broken {
			out.Error = fmt.Sprintf("service %s in %s is invalid: %s", dest.Service, bc.where, why)
		} else {
			out.Error = fmt.Sprintf("service %s is not defined in %s (no key service.<type>.%s or service.%s)",
				dest.Service, bc.where, dest.Service, dest.Service)
		}
		return out
	}
	vars := bc.getVars(obj, dest)
	vars["serviceType"] = dest.Service
	vars["recipient"] = dest.Recipient
	if _, err := bc.templates.FormatNotification(vars, names...); err != nil {
		out.Error = fmt.Sprintf("rendering %s for %s: %v", strings.Join(names, ", "), destinationName(dest), err)
		return out
	}
	attempts := n.Attempts
	if attempts < 1 || bc.serviceTypes[dest.Service] == "webhook" {
		// The webhook service retries by itself (its retryMax, retryWaitMin and retryWaitMax options).
		attempts = 1
	}
	wait := n.Backoff
	for out.Attempts = 1; ; out.Attempts++ {
		err := n.attempt(bc, obj, names, dest)
		if err == nil {
			out.Error = ""
			return out
		}
		out.Error = fmt.Sprintf("sending %s to %s: %v", strings.Join(names, ", "), destinationName(dest), err)
		if out.Attempts >= attempts {
			return out
		}
		n.sleep(wait)
		wait *= 2
	}
}

// attempt runs one send, bounded by the notifier's timeout.
func (n *Notifier) attempt(bc *builtConfig, obj map[string]any, names []string, dest services.Destination) error {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("the %s client failed: %v", dest.Service, p)
			}
		}()
		done <- bc.api.Send(obj, names, dest)
	}()
	if n.Timeout <= 0 {
		return <-done
	}
	select {
	case err := <-done:
		return err
	case <-time.After(n.Timeout):
		return fmt.Errorf("no answer within %s", n.Timeout)
	}
}

func destinationName(d services.Destination) string {
	if d.Recipient == "" {
		return d.Service
	}
	return d.Service + ":" + d.Recipient
}

// conditionIndex reads i from the engine's condition key "[i].<hash of when>", or -1.
func conditionIndex(key string) int {
	if !strings.HasPrefix(key, "[") {
		return -1
	}
	end := strings.Index(key, "]")
	if end < 0 {
		return -1
	}
	i, err := strconv.Atoi(key[1:end])
	if err != nil {
		return -1
	}
	return i
}

func objectMeta(obj map[string]any) (map[string]string, map[string]string) {
	meta, _ := obj["metadata"].(map[string]any)
	return stringMap(meta["labels"]), stringMap(meta["annotations"])
}

func stringMap(v any) map[string]string {
	m, _ := v.(map[string]any)
	out := make(map[string]string, len(m))
	for k, x := range m {
		if s, ok := x.(string); ok {
			out[k] = s
		}
	}
	return out
}

// config returns the built configuration for a ConfigMap and Secret, building it again when either changed.
func (n *Notifier) config(c NotifyConfig) *builtConfig {
	cm := c.ConfigMap
	secret := c.Secret
	if secret == nil {
		secret = &corev1.Secret{}
	}
	key := cm.ResourceVersion + "/" + secret.ResourceVersion
	if cm.ResourceVersion == "" {
		// Not from the API server (no resource version): never cached.
		key = ""
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if b, ok := n.built[cm.Namespace]; ok && key != "" && b.key == key {
		return b
	}
	b := buildConfig(cm, secret)
	b.key = key
	n.built[cm.Namespace] = b
	return b
}

const serviceKeyPrefix = "service-name:"

// secretRef is how the engine finds secret references in a service's configuration.
var secretRef = regexp.MustCompile(`[$][\w-]+`)

// buildConfig parses a ConfigMap with the engine, leaving out each entry that does not parse, compile or construct,
// and naming it in the problems: one broken template, trigger or service must not silence the others.
func buildConfig(cm *corev1.ConfigMap, secret *corev1.Secret) *builtConfig {
	b := &builtConfig{where: cm.Namespace + "/" + cm.Name, dropped: map[string]string{}, problems: []string{},
		serviceTypes: map[string]string{}}
	for k := range cm.Data {
		parts := strings.Split(k, ".")
		if parts[0] == "service" && len(parts) == 2 {
			b.serviceTypes[parts[1]] = parts[1]
		} else if parts[0] == "service" && len(parts) == 3 {
			b.serviceTypes[parts[2]] = parts[1]
		}
	}
	drop := func(key, id string, err error) {
		b.dropped[id] = err.Error()
		b.problems = append(b.problems, fmt.Sprintf("%s: key %s: %v", b.where, key, err))
	}
	clean := cm.DeepCopy()
	clean.Data = map[string]string{}
	for k, v := range cm.Data {
		probe := cm.DeepCopy()
		probe.Data = map[string]string{k: v}
		if _, err := api.ParseConfig(probe, secret); err != nil {
			drop(k, entryID(k), err)
			continue
		}
		clean.Data[k] = v
	}
	cfg, err := api.ParseConfig(clean, secret)
	if err != nil {
		// Each key parsed alone; together they cannot fail, but never leave a nil configuration behind.
		b.problems = append(b.problems, fmt.Sprintf("%s: %v", b.where, err))
		cfg = &api.Config{Services: map[string]api.ServiceFactory{}, Triggers: map[string][]triggers.Condition{},
			Templates: map[string]services.Notification{}, ServiceDefaultTriggers: map[string][]string{}, Namespace: cm.Namespace}
	}
	for name, t := range cfg.Templates {
		if _, err := templates.NewService(map[string]services.Notification{name: t}); err != nil {
			delete(cfg.Templates, name)
			drop("template."+name, "template."+name, err)
		}
	}
	for name, conditions := range cfg.Triggers {
		if _, err := triggers.NewService(map[string][]triggers.Condition{name: conditions}); err != nil {
			delete(cfg.Triggers, name)
			drop("trigger."+name, "trigger."+name, err)
		}
	}
	for name, factory := range cfg.Services {
		if _, err := factory(); err != nil {
			delete(cfg.Services, name)
			drop(serviceKey(cm, name), serviceKeyPrefix+name, err)
		}
	}
	for k, v := range clean.Data {
		if !strings.HasPrefix(k, "service.") {
			continue
		}
		for _, ref := range uniqueRefs(v) {
			if _, ok := secret.Data[ref[1:]]; !ok {
				b.problems = append(b.problems, fmt.Sprintf(
					"%s: key %s: refers to %s, but Secret %s/argo-rollouts-notification-secret has no key %s (the text %s is used as it is)",
					b.where, k, ref, cm.Namespace, ref[1:], ref))
			}
		}
	}
	sort.Strings(b.problems)
	b.getVars = varsFor(secret)
	a, err := api.NewAPI(*cfg, b.getVars)
	if err != nil {
		b.problems = append(b.problems, fmt.Sprintf("%s: %v", b.where, err))
		a, _ = api.NewAPI(api.Config{}, b.getVars)
	}
	ts, err := templates.NewService(cfg.Templates)
	if err != nil {
		ts, _ = templates.NewService(nil)
	}
	b.api = a
	b.cfg = *cfg
	b.templates = ts
	return b
}

// entryID is how a dropped ConfigMap key is looked up when a send needs it.
func entryID(key string) string {
	parts := strings.Split(key, ".")
	if parts[0] == "service" && len(parts) >= 2 {
		return serviceKeyPrefix + parts[len(parts)-1]
	}
	return key
}

// serviceKey is the ConfigMap key that defines the service named name (service.<type>.<name> or service.<name>).
func serviceKey(cm *corev1.ConfigMap, name string) string {
	for k := range cm.Data {
		parts := strings.Split(k, ".")
		if parts[0] == "service" && ((len(parts) == 3 && parts[2] == name) || (len(parts) == 2 && parts[1] == name)) {
			return k
		}
	}
	return "service." + name
}

func uniqueRefs(v string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range secretRef.FindAllString(v, -1) {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// timeVars are the functions templates and conditions reach as .time / time: Parse reads an RFC 3339 timestamp (it
// panics on anything else, which the template or expression reports as its error), Now is the current time.
var timeVars = map[string]any{
	"Parse": func(s string) time.Time {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			panic(err)
		}
		return t
	},
	"Now": time.Now,
}

// varsFor builds the variables templates and trigger conditions see, as Argo Rollouts names them: rollout (the
// object), analysisRuns, time and secrets.
func varsFor(secret *corev1.Secret) api.GetVars {
	return func(obj map[string]any, _ services.Destination) map[string]any {
		object := make(map[string]any, len(obj))
		for k, v := range obj {
			if k != analysisRunsKey {
				object[k] = v
			}
		}
		var runs any
		if list, ok := obj[analysisRunsKey].([]any); ok && list != nil {
			runs = list
		}
		return map[string]any{"rollout": object, "analysisRuns": runs, "time": timeVars, "secrets": secret.Data}
	}
}

// NotifyHandler serves the notifier over protocol v1: POST /v1/init, /v1/info and /v1/notify.
type NotifyHandler struct {
	Notifier *Notifier
	Cookie   string
}

func (h *NotifyHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	serveV1(w, r, h.Cookie, "the notifier", h.route)
}

func (h *NotifyHandler) route(path string) routeFunc {
	switch path {
	case "init":
		return func(json.RawMessage) (any, error) { return errorAnswer{}, nil }
	case "info":
		return func(json.RawMessage) (any, error) {
			return map[string]any{"type": "notifications", "version": version}, nil
		}
	case "notify":
		return func(body json.RawMessage) (any, error) {
			var req NotifyRequest
			if err := decode(body, &req); err != nil {
				return nil, err
			}
			return h.Notifier.Notify(req), nil
		}
	}
	return nil
}

func runNotifications(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rollgate-plugin-bridge notifications", flag.ContinueOnError)
	fs.SetOutput(stderr)
	attempts := fs.Int("send-attempts", 3, "how many times a notification is tried before it is reported as failed")
	backoff := fs.Duration("send-backoff", time.Second, "wait before the second attempt; doubles for each later one")
	timeout := fs.Duration("send-timeout", 30*time.Second, "bound of one attempt")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "rollgate-plugin-bridge notifications: "+format+"\n", a...)
		return exitUsage
	}
	if *attempts < 1 {
		return fail("--send-attempts must be at least 1, got %d", *attempts)
	}
	if *backoff < 0 || *timeout <= 0 {
		return fail("--send-backoff must not be negative and --send-timeout must be positive")
	}
	cookie := os.Getenv("ROLLGATE_PLUGIN_COOKIE")
	if cookie == "" {
		return fail("ROLLGATE_PLUGIN_COOKIE is not set: the notifier is started by the Rollgate controller")
	}
	log.SetOutput(stderr)
	log.SetLevel(log.WarnLevel)
	handler := &NotifyHandler{Notifier: NewNotifier(*attempts, *backoff, *timeout), Cookie: cookie}
	code, _ := serveUntilStopped(handler, nil, stdin, stdout, stderr)
	return code
}
