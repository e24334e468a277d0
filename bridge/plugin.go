package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	metricrpc "github.com/argoproj/argo-rollouts/metricproviders/plugin/rpc"
	steprpc "github.com/argoproj/argo-rollouts/rollout/steps/plugin/rpc"
	trafficrpc "github.com/argoproj/argo-rollouts/rollout/trafficrouting/plugin/rpc"
	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
)

// Kind is a plugin kind, spelled as Argo Rollouts spells the value of its go-plugin magic cookie
// (ARGO_ROLLOUTS_RPC_PLUGIN) and as Rollgate's protocol v1 spells ROLLGATE_PLUGIN_KIND.
type Kind string

const (
	KindStep           Kind = "step"
	KindTrafficRouter  Kind = "trafficrouter"
	KindMetricProvider Kind = "metricprovider"
)

// MagicCookieKey is the environment variable Argo Rollouts' plugins check before they serve (go-plugin's
// HandshakeConfig.MagicCookieKey); its value is the kind.
const MagicCookieKey = "ARGO_ROLLOUTS_RPC_PLUGIN"

// ProtocolVersion is the go-plugin application protocol version every Argo Rollouts plugin announces.
const ProtocolVersion = 1

// ParseKind checks a kind given on the command line.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(s); k {
	case KindStep, KindTrafficRouter, KindMetricProvider:
		return k, nil
	default:
		return "", fmt.Errorf("--kind must be step, trafficrouter or metricprovider, got %q", s)
	}
}

// dispenseName is the name under which an Argo Rollouts plugin of this kind serves its implementation, with the
// go-plugin adapter (from the argo-rollouts module) that turns it into a Go interface.
func (k Kind) dispense() (string, goplugin.Plugin) {
	switch k {
	case KindStep:
		return "RpcStepPlugin", &steprpc.RpcStepPlugin{}
	case KindTrafficRouter:
		return "RpcTrafficRouterPlugin", &trafficrpc.RpcTrafficRouterPlugin{}
	default:
		return "RpcMetricProviderPlugin", &metricrpc.RpcMetricProviderPlugin{}
	}
}

// Started is a go-plugin process and the implementation it dispensed: a steprpc.StepPlugin,
// trafficrpc.TrafficRouterPlugin or metricrpc.MetricProviderPlugin, depending on the kind.
type Started struct {
	Kind   Kind
	Client *goplugin.Client
	Impl   any
}

// Start runs one Argo Rollouts plugin binary as go-plugin's client does for Argo Rollouts' controller: with the
// magic cookie of its kind in its environment, waiting at most startTimeout for its handshake line, then connects
// (net/rpc over yamux) and dispenses it. Variables named ROLLGATE_PLUGIN_* are not passed on (the cookie in it is
// the bridge's own secret). The plugin's standard error goes to logOut; lines it prints on standard output after its
// handshake too. The error says what went wrong: the binary is not a go-plugin plugin, speaks another kind or
// protocol version, exited, or dispensed something unexpected.
func Start(kind Kind, path string, args []string, startTimeout time.Duration, logOut io.Writer) (*Started, error) {
	cmd := exec.Command(path, args...)
	cmd.Env = pluginEnv(os.Environ())
	configureChild(cmd)
	name, adapter := kind.dispense()
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig: goplugin.HandshakeConfig{
			ProtocolVersion:  ProtocolVersion,
			MagicCookieKey:   MagicCookieKey,
			MagicCookieValue: string(kind),
		},
		Plugins:          map[string]goplugin.Plugin{name: adapter},
		Cmd:              cmd,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolNetRPC},
		StartTimeout:     startTimeout,
		SyncStdout:       logOut,
		Logger: hclog.New(&hclog.LoggerOptions{
			Name:   "plugin",
			Output: logOut,
			Level:  hclog.Info,
		}),
	})
	rpcClient, err := client.Client()
	if err != nil {
		client.Kill()
		return nil, fmt.Errorf("cannot start %s as an Argo Rollouts %s plugin (go-plugin, net/rpc): %w", path, kind, err)
	}
	raw, err := rpcClient.Dispense(name)
	if err != nil {
		client.Kill()
		return nil, fmt.Errorf("%s did not dispense %s: %w", path, name, err)
	}
	var ok bool
	switch kind {
	case KindStep:
		_, ok = raw.(steprpc.StepPlugin)
	case KindTrafficRouter:
		_, ok = raw.(trafficrpc.TrafficRouterPlugin)
	default:
		_, ok = raw.(metricrpc.MetricProviderPlugin)
	}
	if !ok {
		client.Kill()
		return nil, fmt.Errorf("%s dispensed %T, not a %s plugin", path, raw, kind)
	}
	return &Started{Kind: kind, Client: client, Impl: raw}, nil
}

// pluginEnv is the bridge's environment without the ROLLGATE_PLUGIN_* variables.
func pluginEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, e := range env {
		if strings.HasPrefix(e, "ROLLGATE_PLUGIN_") {
			continue
		}
		out = append(out, e)
	}
	return out
}

// Exited reports whether the plugin process has ended.
func (s *Started) Exited() bool {
	return s.Client.Exited()
}

// Kill stops the plugin process (go-plugin asks it to stop, then kills it after two seconds).
func (s *Started) Kill() {
	s.Client.Kill()
}
