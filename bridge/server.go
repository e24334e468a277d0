package main

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	metricrpc "github.com/argoproj/argo-rollouts/metricproviders/plugin/rpc"
	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	steprpc "github.com/argoproj/argo-rollouts/rollout/steps/plugin/rpc"
	trafficrpc "github.com/argoproj/argo-rollouts/rollout/trafficrouting/plugin/rpc"
	"github.com/argoproj/argo-rollouts/utils/plugin/types"
)

// ProtocolHeader carries the Rollgate plugin protocol version on every request (docs/plugins.md, "Requests").
const ProtocolHeader = "Rollgate-Plugin-Protocol"

// maxBody bounds a request body (a Rollout or an AnalysisRun with its measurements).
const maxBody = 32 << 20

// Handler serves one dispensed Argo Rollouts plugin over Rollgate's plugin protocol v1 (docs/plugins.md):
// POST /v1/<path> with a JSON body, answered 200 with a JSON body; requests without the per-process bearer cookie
// get 401. Each call is translated into the plugin's net/rpc call with the argo-rollouts types; an RpcError becomes
// the answer's "error". A body that cannot be decoded is answered with an "error" naming the field, so it reaches
// the Rollout as a plugin error rather than as a transport failure.
type Handler struct {
	Started *Started
	Cookie  string
}

type routeFunc func(body json.RawMessage) (any, error)

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	serveV1(w, r, h.Cookie, "a "+string(h.Started.Kind)+" plugin", h.route)
}

// serveV1 is the envelope of Rollgate's plugin protocol v1 (docs/plugins.md, "Requests"): POST only, the bearer
// cookie, the protocol header, a bounded JSON body, a JSON answer. route maps the path after /v1/ to its handler, or
// to nil for an unknown call (404 naming what for: who).
func serveV1(w http.ResponseWriter, r *http.Request, cookie, who string, route func(string) routeFunc) {
	if r.Method != http.MethodPost {
		http.Error(w, "only POST is allowed", http.StatusMethodNotAllowed)
		return
	}
	token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if subtle.ConstantTimeCompare([]byte(token), []byte(cookie)) != 1 || cookie == "" {
		http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
		return
	}
	if v := r.Header.Get(ProtocolHeader); v != "" && v != "1" {
		http.Error(w, fmt.Sprintf("%s %s is not supported: this bridge speaks 1", ProtocolHeader, v), http.StatusBadRequest)
		return
	}
	handler := route(strings.TrimPrefix(r.URL.Path, "/v1/"))
	if handler == nil || !strings.HasPrefix(r.URL.Path, "/v1/") {
		http.Error(w, "no such call for "+who+": "+r.URL.Path, http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		http.Error(w, "cannot read the request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	if len(body) > maxBody {
		http.Error(w, fmt.Sprintf("request body over %d bytes", maxBody), http.StatusRequestEntityTooLarge)
		return
	}
	answer, err := handler(body)
	if err != nil {
		answer = map[string]string{"error": "rollgate-plugin-bridge: " + err.Error()}
	}
	out, err := json.Marshal(answer)
	if err != nil {
		http.Error(w, "cannot encode the answer: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

func (h *Handler) route(path string) routeFunc {
	switch path {
	case "init":
		return h.init
	case "info":
		return h.info
	}
	switch impl := h.Started.Impl.(type) {
	case steprpc.StepPlugin:
		return stepRoute(impl, path)
	case trafficrpc.TrafficRouterPlugin:
		return trafficRoute(impl, path)
	case metricrpc.MetricProviderPlugin:
		return metricRoute(impl, path)
	}
	return nil
}

// initializer and typed are what every Argo Rollouts plugin kind offers.
type initializer interface{ InitPlugin() types.RpcError }
type typed interface{ Type() string }

func (h *Handler) init(json.RawMessage) (any, error) {
	return errorAnswer{Error: h.Started.Impl.(initializer).InitPlugin().ErrorString}, nil
}

func (h *Handler) info(json.RawMessage) (any, error) {
	return map[string]any{"type": h.Started.Impl.(typed).Type(), "configSchema": nil}, nil
}

type errorAnswer struct {
	Error string `json:"error"`
}

func rpcError(e types.RpcError) (any, error) {
	return errorAnswer{Error: e.ErrorString}, nil
}

// decode reads a request body into v, naming the call in the error.
func decode(body json.RawMessage, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("cannot decode the request: %w", err)
	}
	return nil
}

// ---- step plugins (docs/plugins.md "Step plugins") ----

type stepRequest struct {
	Rollout *v1alpha1.Rollout `json:"rollout"`
	Context struct {
		PluginName string          `json:"pluginName"`
		StepIndex  int             `json:"stepIndex"`
		Config     json.RawMessage `json:"config"`
		Status     json.RawMessage `json:"status"`
	} `json:"context"`
}

type stepAnswer struct {
	Phase               string          `json:"phase,omitempty"`
	Message             string          `json:"message,omitempty"`
	RequeueAfterSeconds *float64        `json:"requeueAfterSeconds,omitempty"`
	Status              json.RawMessage `json:"status,omitempty"`
	Error               string          `json:"error"`
}

func stepRoute(p steprpc.StepPlugin, path string) routeFunc {
	var op func(*v1alpha1.Rollout, *types.RpcStepContext) (types.RpcStepResult, types.RpcError)
	switch path {
	case "step/run":
		op = p.Run
	case "step/terminate":
		op = p.Terminate
	case "step/abort":
		op = p.Abort
	default:
		return nil
	}
	return func(body json.RawMessage) (any, error) {
		var req stepRequest
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		if req.Rollout == nil {
			return nil, fmt.Errorf("rollout: required")
		}
		ctx := &types.RpcStepContext{
			PluginName: req.Context.PluginName,
			Config:     nullToNil(req.Context.Config),
			Status:     nullToNil(req.Context.Status),
		}
		result, rpcErr := op(req.Rollout, ctx)
		if rpcErr.HasError() {
			return stepAnswer{Error: rpcErr.ErrorString}, nil
		}
		a := stepAnswer{Phase: string(result.Phase), Message: result.Message, Status: nullToNil(result.Status)}
		if result.RequeueAfter > 0 {
			s := result.RequeueAfter.Seconds()
			a.RequeueAfterSeconds = &s
		}
		return a, nil
	}
}

// nullToNil maps an absent or JSON null value to nil, as Argo Rollouts passes a status that was never written.
func nullToNil(m json.RawMessage) json.RawMessage {
	if len(m) == 0 || string(m) == "null" {
		return nil
	}
	return m
}

// ---- traffic-router plugins (docs/plugins.md "Traffic-router plugins") ----

type trafficRequest struct {
	Rollout                *v1alpha1.Rollout            `json:"rollout"`
	CanaryHash             string                       `json:"canaryHash"`
	StableHash             string                       `json:"stableHash"`
	DesiredWeight          int32                        `json:"desiredWeight"`
	AdditionalDestinations []v1alpha1.WeightDestination `json:"additionalDestinations"`
	HeaderRoute            *v1alpha1.SetHeaderRoute     `json:"headerRoute"`
	MirrorRoute            *v1alpha1.SetMirrorRoute     `json:"mirrorRoute"`
}

func trafficRoute(p trafficrpc.TrafficRouterPlugin, path string) routeFunc {
	call := strings.TrimPrefix(path, "trafficrouter/")
	if call == path {
		return nil
	}
	var do func(req *trafficRequest) (any, error)
	switch call {
	case "updateHash":
		do = func(q *trafficRequest) (any, error) {
			return rpcError(p.UpdateHash(q.Rollout, q.CanaryHash, q.StableHash, q.AdditionalDestinations))
		}
	case "setWeight":
		do = func(q *trafficRequest) (any, error) {
			return rpcError(p.SetWeight(q.Rollout, q.DesiredWeight, q.AdditionalDestinations))
		}
	case "setHeaderRoute":
		do = func(q *trafficRequest) (any, error) { return rpcError(p.SetHeaderRoute(q.Rollout, q.HeaderRoute)) }
	case "setMirrorRoute":
		do = func(q *trafficRequest) (any, error) { return rpcError(p.SetMirrorRoute(q.Rollout, q.MirrorRoute)) }
	case "removeManagedRoutes":
		do = func(q *trafficRequest) (any, error) { return rpcError(p.RemoveManagedRoutes(q.Rollout)) }
	case "verifyWeight":
		do = func(q *trafficRequest) (any, error) {
			v, rpcErr := p.VerifyWeight(q.Rollout, q.DesiredWeight, q.AdditionalDestinations)
			return map[string]any{"verified": v.IsVerified(), "error": rpcErr.ErrorString}, nil
		}
	default:
		return nil
	}
	return func(body json.RawMessage) (any, error) {
		var req trafficRequest
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		if req.Rollout == nil {
			return nil, fmt.Errorf("rollout: required")
		}
		if req.AdditionalDestinations == nil {
			req.AdditionalDestinations = []v1alpha1.WeightDestination{}
		}
		return do(&req)
	}
}

// ---- metric-provider plugins (docs/plugins.md "Metric-provider plugins") ----

type metricRequest struct {
	AnalysisRun *v1alpha1.AnalysisRun `json:"analysisRun"`
	Metric      *v1alpha1.Metric      `json:"metric"`
	Measurement *v1alpha1.Measurement `json:"measurement"`
	Limit       int                   `json:"limit"`
}

func metricRoute(p metricrpc.MetricProviderPlugin, path string) routeFunc {
	call := strings.TrimPrefix(path, "metricprovider/")
	if call == path {
		return nil
	}
	var do func(q *metricRequest) (any, error)
	switch call {
	case "run":
		do = func(q *metricRequest) (any, error) { return measurementAnswer(p.Run(q.AnalysisRun, *q.Metric)), nil }
	case "resume":
		do = func(q *metricRequest) (any, error) {
			if q.Measurement == nil {
				return nil, fmt.Errorf("measurement: required")
			}
			return measurementAnswer(p.Resume(q.AnalysisRun, *q.Metric, *q.Measurement)), nil
		}
	case "terminate":
		do = func(q *metricRequest) (any, error) {
			if q.Measurement == nil {
				return nil, fmt.Errorf("measurement: required")
			}
			return measurementAnswer(p.Terminate(q.AnalysisRun, *q.Metric, *q.Measurement)), nil
		}
	case "garbageCollect":
		do = func(q *metricRequest) (any, error) {
			return rpcError(p.GarbageCollect(q.AnalysisRun, *q.Metric, q.Limit))
		}
	case "metadata":
		do = func(q *metricRequest) (any, error) {
			return map[string]any{"metadata": p.GetMetadata(*q.Metric), "error": ""}, nil
		}
	default:
		return nil
	}
	return func(body json.RawMessage) (any, error) {
		var req metricRequest
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		if req.Metric == nil {
			return nil, fmt.Errorf("metric: required")
		}
		if req.AnalysisRun == nil && call != "metadata" {
			return nil, fmt.Errorf("analysisRun: required")
		}
		return do(&req)
	}
}

func measurementAnswer(m v1alpha1.Measurement) any {
	return map[string]any{"measurement": m, "error": ""}
}
