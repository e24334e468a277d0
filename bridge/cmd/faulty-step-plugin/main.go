// Command faulty-step-plugin is an Argo Rollouts step plugin (HashiCorp go-plugin over net/rpc, Argo's RPC types)
// that misbehaves on request, for the tests of what a broken plugin does to a Rollout (docs/plugins.md, "A plugin
// that is not one"). It is a test tool, not something to deploy.
//
// The step's config picks what Run does:
//
//	{"do": "succeed"}  answers Successful
//	{"do": "panic"}    panics inside the call: go-plugin's server dies with it, so the call fails and the process ends
//	{"do": "hang"}     never answers
//
// Terminate and Abort always answer Successful.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	steprpc "github.com/argoproj/argo-rollouts/rollout/steps/plugin/rpc"
	"github.com/argoproj/argo-rollouts/utils/plugin/types"
	goplugin "github.com/hashicorp/go-plugin"
)

type faultyStep struct{}

func (faultyStep) InitPlugin() types.RpcError { return types.RpcError{} }

func (faultyStep) Type() string { return "faulty-step" }

func (faultyStep) Run(ro *v1alpha1.Rollout, ctx *types.RpcStepContext) (types.RpcStepResult, types.RpcError) {
	var cfg struct {
		Do string `json:"do"`
	}
	if len(ctx.Config) > 0 {
		if err := json.Unmarshal(ctx.Config, &cfg); err != nil {
			return types.RpcStepResult{}, types.RpcError{ErrorString: "config: " + err.Error()}
		}
	}
	switch cfg.Do {
	case "panic":
		panic(fmt.Sprintf("faulty-step-plugin: asked to panic while running %s/%s", ro.Namespace, ro.Name))
	case "hang":
		select {}
	case "succeed", "":
		return types.RpcStepResult{Phase: types.PhaseSuccessful, Message: "ran " + ro.Name}, types.RpcError{}
	default:
		return types.RpcStepResult{}, types.RpcError{ErrorString: fmt.Sprintf("config.do: unknown value %q", cfg.Do)}
	}
}

func (faultyStep) Terminate(ro *v1alpha1.Rollout, _ *types.RpcStepContext) (types.RpcStepResult, types.RpcError) {
	return types.RpcStepResult{Phase: types.PhaseSuccessful, Message: "terminated " + ro.Name}, types.RpcError{}
}

func (faultyStep) Abort(ro *v1alpha1.Rollout, _ *types.RpcStepContext) (types.RpcStepResult, types.RpcError) {
	return types.RpcStepResult{Phase: types.PhaseSuccessful, Message: "aborted " + ro.Name}, types.RpcError{}
}

func main() {
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: goplugin.HandshakeConfig{
			ProtocolVersion:  1,
			MagicCookieKey:   "ARGO_ROLLOUTS_RPC_PLUGIN",
			MagicCookieValue: "step",
		},
		Plugins: map[string]goplugin.Plugin{"RpcStepPlugin": &steprpc.RpcStepPlugin{Impl: faultyStep{}}},
	})
	os.Exit(0)
}
