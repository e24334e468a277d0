// Command rollgate-plugin-bridge runs one Argo Rollouts plugin binary (HashiCorp go-plugin over net/rpc) and serves
// it to the Rollgate controller over Rollgate's plugin protocol v1 (JSON over HTTP on the loopback interface, see
// docs/plugins.md, "Go plugins of Argo Rollouts"):
//
//	rollgate-plugin-bridge --kind step|trafficrouter|metricprovider [--start-timeout 9s] -- <plugin> [args...]
//	rollgate-plugin-bridge notifications [--send-attempts 3] [--send-backoff 1s] [--send-timeout 30s]
//
// The second form hosts Argo's notification engine for the controller instead (notify.go, docs/notifications.md).
//
// The controller starts it as it starts any executable plugin, with ROLLGATE_PLUGIN_PROTOCOL, ROLLGATE_PLUGIN_KIND,
// ROLLGATE_PLUGIN_NAME and ROLLGATE_PLUGIN_COOKIE in its environment. The bridge starts the plugin with go-plugin's
// client and Argo Rollouts' handshake (magic cookie ARGO_ROLLOUTS_RPC_PLUGIN=<kind>, protocol version 1), dispenses
// it, then prints its own handshake line "rollgate-plugin 1 http://127.0.0.1:<port>". It exits with status 3 when
// the plugin process ends, and stops the plugin and exits 0 when its standard input reaches its end (the controller
// is gone) or it receives SIGTERM or SIGINT. A plugin that cannot be started is reported on standard error and the
// bridge exits with status 2 before any handshake line.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Exit statuses.
const (
	exitStopped      = 0
	exitUsage        = 1
	exitStartFailed  = 2
	exitPluginExited = 3
)

// version is set at build time (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "notifications" {
		return runNotifications(args[1:], stdin, stdout, stderr)
	}
	fs := flag.NewFlagSet("rollgate-plugin-bridge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kindFlag := fs.String("kind", os.Getenv("ROLLGATE_PLUGIN_KIND"), "plugin kind: step, trafficrouter or metricprovider")
	startTimeout := fs.Duration("start-timeout", 9*time.Second, "how long the plugin has to print its go-plugin handshake")
	showVersion := fs.Bool("version", false, "print the version and exit")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rollgate-plugin-bridge --kind step|trafficrouter|metricprovider [--start-timeout 9s] -- <plugin> [args...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *showVersion {
		fmt.Fprintln(stdout, "rollgate-plugin-bridge", version)
		return exitStopped
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "rollgate-plugin-bridge: "+format+"\n", a...)
		return code
	}
	kind, err := ParseKind(*kindFlag)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if fs.NArg() == 0 {
		return fail(exitUsage, "the plugin executable is missing (usage: --kind <kind> -- <plugin> [args...])")
	}
	cookie := os.Getenv("ROLLGATE_PLUGIN_COOKIE")
	if cookie == "" {
		return fail(exitUsage, "ROLLGATE_PLUGIN_COOKIE is not set: the bridge is started by the Rollgate controller")
	}
	if v := os.Getenv("ROLLGATE_PLUGIN_PROTOCOL"); v != "" && v != "1" {
		return fail(exitUsage, "the controller speaks plugin protocol %s, this bridge speaks 1", v)
	}
	if *startTimeout <= 0 {
		return fail(exitUsage, "--start-timeout must be positive, got %s", *startTimeout)
	}

	started, err := Start(kind, fs.Arg(0), fs.Args()[1:], *startTimeout, stderr)
	if err != nil {
		return fail(exitStartFailed, "%v", err)
	}
	defer started.Kill()

	pluginExited := watchExit(started, 200*time.Millisecond)
	code, exited := serveUntilStopped(&Handler{Started: started, Cookie: cookie}, pluginExited, stdin, stdout, stderr)
	if exited {
		return fail(exitPluginExited, "plugin %s exited", fs.Arg(0))
	}
	return code
}

// serveUntilStopped listens on a loopback port, prints the protocol v1 handshake line
// "rollgate-plugin 1 http://127.0.0.1:<port>" on stdout and serves handler until stdin reaches its end (the controller
// is gone), SIGTERM or SIGINT arrives, or ended is closed; it then returns the exit status, and whether ended was the
// cause.
func serveUntilStopped(handler http.Handler, ended <-chan struct{}, stdin io.Reader, stdout, stderr io.Writer) (int, bool) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintf(stderr, "rollgate-plugin-bridge: cannot listen on the loopback interface: %v\n", err)
		return exitStartFailed, false
	}
	server := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- server.Serve(ln) }()
	fmt.Fprintf(stdout, "rollgate-plugin 1 http://%s\n", ln.Addr())

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	stdinClosed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, stdin)
		close(stdinClosed)
	}()

	select {
	case <-ended:
		_ = server.Close()
		return exitPluginExited, true
	case <-stdinClosed:
		_ = server.Close()
		return exitStopped, false
	case sig := <-signals:
		_ = server.Close()
		fmt.Fprintf(stderr, "rollgate-plugin-bridge: %s: stopping\n", sig)
		return exitStopped, false
	case err := <-served:
		if errors.Is(err, http.ErrServerClosed) {
			return exitStopped, false
		}
		fmt.Fprintf(stderr, "rollgate-plugin-bridge: serving failed: %v\n", err)
		return exitStartFailed, false
	}
}

// watchExit closes the returned channel once the plugin process has ended (go-plugin offers no notification, so
// its state is looked at every period).
func watchExit(s *Started, period time.Duration) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(period)
		defer t.Stop()
		for range t.C {
			if s.Exited() {
				close(done)
				return
			}
		}
	}()
	return done
}
