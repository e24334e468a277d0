package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	metricrpc "github.com/argoproj/argo-rollouts/metricproviders/plugin/rpc"
	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	steprpc "github.com/argoproj/argo-rollouts/rollout/steps/plugin/rpc"
	trafficrpc "github.com/argoproj/argo-rollouts/rollout/trafficrouting/plugin/rpc"
	"github.com/argoproj/argo-rollouts/utils/plugin/types"
	goplugin "github.com/hashicorp/go-plugin"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// fakeEnv makes the test binary serve a small go-plugin plugin instead of running the tests, so the bridge can start
// a real plugin process: "step", "trafficrouter", "metricprovider", "exit-after-start" (a step plugin whose process
// ends one second after its handshake) or "hang" (a step plugin whose Run never answers).
const fakeEnv = "BRIDGE_TEST_FAKE_PLUGIN"

func serveFake(mode string) {
	kind := mode
	switch mode {
	case "exit-after-start", "hang":
		kind = "step"
		if mode == "exit-after-start" {
			go func() {
				time.Sleep(time.Second)
				os.Exit(7)
			}()
		}
	}
	var plugins map[string]goplugin.Plugin
	switch kind {
	case "step":
		plugins = map[string]goplugin.Plugin{"RpcStepPlugin": &steprpc.RpcStepPlugin{Impl: &fakeStep{hang: mode == "hang"}}}
	case "trafficrouter":
		plugins = map[string]goplugin.Plugin{"RpcTrafficRouterPlugin": &trafficrpc.RpcTrafficRouterPlugin{Impl: &fakeRouter{}}}
	case "metricprovider":
		plugins = map[string]goplugin.Plugin{"RpcMetricProviderPlugin": &metricrpc.RpcMetricProviderPlugin{Impl: &fakeMetric{}}}
	default:
		fmt.Fprintln(os.Stderr, "unknown fake plugin", mode)
		os.Exit(9)
	}
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: goplugin.HandshakeConfig{ProtocolVersion: 1, MagicCookieKey: MagicCookieKey, MagicCookieValue: kind},
		Plugins:         plugins,
	})
	os.Exit(0)
}

// fakeStep answers with the phase named by config "return", echoing the Rollout's name, the plugin name and the
// previous status, and counting its runs in its status.
type fakeStep struct{ hang bool }

func (f *fakeStep) InitPlugin() types.RpcError { return types.RpcError{} }
func (f *fakeStep) Type() string               { return "fake-step" }

func (f *fakeStep) Run(ro *v1alpha1.Rollout, ctx *types.RpcStepContext) (types.RpcStepResult, types.RpcError) {
	if f.hang {
		select {}
	}
	var cfg struct {
		Return  string `json:"return"`
		Requeue string `json:"requeue"`
		Error   string `json:"error"`
	}
	if len(ctx.Config) > 0 {
		if err := json.Unmarshal(ctx.Config, &cfg); err != nil {
			return types.RpcStepResult{}, types.RpcError{ErrorString: "bad config: " + err.Error()}
		}
	}
	if cfg.Error != "" {
		return types.RpcStepResult{}, types.RpcError{ErrorString: cfg.Error}
	}
	var st struct {
		Runs int `json:"runs"`
	}
	if ctx.Status != nil {
		_ = json.Unmarshal(ctx.Status, &st)
	}
	st.Runs++
	status, _ := json.Marshal(st)
	d, _ := time.ParseDuration(cfg.Requeue)
	return types.RpcStepResult{
		Phase:        types.StepPhase(cfg.Return),
		Message:      fmt.Sprintf("%s ran %s (status was %s)", ctx.PluginName, ro.Name, string(ctx.Status)),
		RequeueAfter: d,
		Status:       status,
	}, types.RpcError{}
}

func (f *fakeStep) Terminate(ro *v1alpha1.Rollout, _ *types.RpcStepContext) (types.RpcStepResult, types.RpcError) {
	return types.RpcStepResult{Phase: types.PhaseSuccessful, Message: "terminated " + ro.Name}, types.RpcError{}
}

func (f *fakeStep) Abort(ro *v1alpha1.Rollout, _ *types.RpcStepContext) (types.RpcStepResult, types.RpcError) {
	return types.RpcStepResult{Phase: types.PhaseSuccessful, Message: "aborted " + ro.Name}, types.RpcError{}
}

// fakeRouter keeps the last weight it was set to; a weight over 100 is an error; verification compares with the
// kept weight, and a weight of 42 cannot be verified.
type fakeRouter struct{ weight int32 }

func (f *fakeRouter) InitPlugin() types.RpcError { return types.RpcError{} }
func (f *fakeRouter) Type() string               { return "fake-router" }
func (f *fakeRouter) UpdateHash(ro *v1alpha1.Rollout, canary, stable string, _ []v1alpha1.WeightDestination) types.RpcError {
	if canary == stable {
		return types.RpcError{ErrorString: "same hash " + canary + " for " + ro.Name}
	}
	return types.RpcError{}
}
func (f *fakeRouter) SetWeight(ro *v1alpha1.Rollout, w int32, add []v1alpha1.WeightDestination) types.RpcError {
	if w > 100 {
		return types.RpcError{ErrorString: fmt.Sprintf("weight %d over 100 for %s", w, ro.Name)}
	}
	f.weight = w + int32(len(add))
	return types.RpcError{}
}
func (f *fakeRouter) SetHeaderRoute(_ *v1alpha1.Rollout, r *v1alpha1.SetHeaderRoute) types.RpcError {
	if r == nil || r.Name == "" {
		return types.RpcError{ErrorString: "header route without a name"}
	}
	return types.RpcError{}
}
func (f *fakeRouter) SetMirrorRoute(_ *v1alpha1.Rollout, r *v1alpha1.SetMirrorRoute) types.RpcError {
	return types.RpcError{ErrorString: "mirror " + r.Name + " not supported"}
}
func (f *fakeRouter) VerifyWeight(_ *v1alpha1.Rollout, w int32, _ []v1alpha1.WeightDestination) (types.RpcVerified, types.RpcError) {
	switch {
	case w == 42:
		return types.NotImplemented, types.RpcError{}
	case w == f.weight:
		return types.Verified, types.RpcError{}
	default:
		return types.NotVerified, types.RpcError{}
	}
}
func (f *fakeRouter) RemoveManagedRoutes(*v1alpha1.Rollout) types.RpcError { return types.RpcError{} }

// fakeMetric measures the metric's name: Successful with the AnalysisRun's name as value.
type fakeMetric struct{}

func (f *fakeMetric) InitPlugin() types.RpcError { return types.RpcError{} }
func (f *fakeMetric) Type() string               { return "fake-metric" }
func (f *fakeMetric) Run(ar *v1alpha1.AnalysisRun, m v1alpha1.Metric) v1alpha1.Measurement {
	now := metav1.Now()
	return v1alpha1.Measurement{Phase: v1alpha1.AnalysisPhaseSuccessful, Value: ar.Name + "/" + m.Name, StartedAt: &now, FinishedAt: &now}
}
func (f *fakeMetric) Resume(_ *v1alpha1.AnalysisRun, _ v1alpha1.Metric, m v1alpha1.Measurement) v1alpha1.Measurement {
	return m
}
func (f *fakeMetric) Terminate(_ *v1alpha1.AnalysisRun, _ v1alpha1.Metric, m v1alpha1.Measurement) v1alpha1.Measurement {
	m.Phase = v1alpha1.AnalysisPhaseSuccessful
	return m
}
func (f *fakeMetric) GarbageCollect(*v1alpha1.AnalysisRun, v1alpha1.Metric, int) types.RpcError {
	return types.RpcError{}
}
func (f *fakeMetric) GetMetadata(m v1alpha1.Metric) map[string]string {
	return map[string]string{"metric": m.Name}
}
