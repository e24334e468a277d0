package io.rollgate.controller.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.controller.traffic.TrafficRouter;
import io.rollgate.plugin.PluginRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the plugin host tells a go-plugin binary from a protocol v1 plugin and starts the former
 * through the bridge (docs/plugins.md, "Go plugins of Argo Rollouts"). The go-plugin binary is a
 * script that prints a go-plugin handshake line when it gets Argo Rollouts' magic cookie (as a real
 * one does); the bridge is a script that records its command line and environment, then runs a
 * protocol v1 test plugin in its place. The real bridge against real go-plugin binaries is tested
 * by the bridge's Go tests and the e2e suite.
 */
@io.vertx.junit5.Timeout(value = 3, timeUnit = java.util.concurrent.TimeUnit.MINUTES)
@ExtendWith(VertxExtension.class)
class GoPluginDetectionTest {

  @TempDir Path dir;
  PluginHost host;
  Path goPlugin;
  Path bridge;
  Path probes;
  Path bridgeLog;
  Path calls;

  @BeforeEach
  void setUp() throws IOException {
    probes = dir.resolve("probes.log");
    bridgeLog = dir.resolve("bridge.log");
    calls = dir.resolve("calls.log");
    goPlugin =
        executable(
            "go-router",
            "#!/bin/sh\necho \"$ARGO_ROLLOUTS_RPC_PLUGIN $ROLLGATE_PLUGIN_KIND\" >> '"
                + probes
                + "'\n"
                + "if [ \"$ARGO_ROLLOUTS_RPC_PLUGIN\" != trafficrouter ]; then\n"
                + "  echo 'This binary is a plugin. These are not meant to be executed directly.' >&2\n  exit 1\nfi\n"
                + "echo '1|1|unix|"
                + dir.resolve("plugin-socket")
                + "|netrpc|'\nexec sleep 60\n");
    bridge =
        executable(
            "rollgate-plugin-bridge",
            "#!/bin/sh\necho \"$* cookie=${ARGO_ROLLOUTS_RPC_PLUGIN:-none} kind=$ROLLGATE_PLUGIN_KIND\" >> '"
                + bridgeLog
                + "'\nexec '"
                + Path.of(System.getProperty("java.home"), "bin", "java")
                + "' -cp '"
                + System.getProperty("java.class.path")
                + "' "
                + TestRouterPlugin.class.getName()
                + " '"
                + calls
                + "'\n");
  }

  @AfterEach
  void tearDown(VertxTestContext t) {
    (host == null ? Future.<Void>succeededFuture() : host.close())
        .onComplete(ar -> t.completeNow());
  }

  private Path executable(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return p;
  }

  private PluginHost host(Vertx vertx, Path bridgeFlag, String routers) {
    host =
        new PluginHost(
            vertx,
            dir.resolve("plugins"),
            Duration.ofSeconds(20),
            Duration.ofSeconds(30),
            "test/argo-rollouts-config",
            null,
            null,
            Clock.systemUTC(),
            new PluginBridge(bridgeFlag, Map.of(), null));
    host.update(PluginRegistry.fromConfigMapData(Map.of("trafficRouterPlugins", routers)));
    return host;
  }

  private static String entry(String name, Path exe, String args) {
    return "- name: " + name + "\n  location: file://" + exe + "\n  args: [" + args + "]\n";
  }

  private static List<String> lines(Path p) {
    try {
      return Files.exists(p) ? Files.readAllLines(p) : List.of();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void goPluginBinaryRunsThroughTheBridge_andIsKnownByItsDigestAfterwards(
      Vertx vertx, VertxTestContext t) {
    host(
        vertx,
        bridge,
        entry("org/a", goPlugin, "'--level', 'debug'") + entry("org/b", goPlugin, ""));
    TrafficRouter a = host.router("org/a");
    TrafficRouter b = host.router("org/b");
    a.setWeight(PluginHostTest.request("web"), 30, List.of())
        .compose(v -> b.setWeight(PluginHostTest.request("api"), 40, List.of()))
        .onComplete(
            t.succeeding(
                v ->
                    t.verify(
                        () -> {
                          // One probe start, with the magic cookie; the second plugin of the same
                          // binary goes to the bridge at once.
                          assertEquals(List.of("trafficrouter trafficrouter"), lines(probes));
                          Path installedA = dir.resolve("plugins/trafficrouter/org/a");
                          Path installedB = dir.resolve("plugins/trafficrouter/org/b");
                          assertEquals(
                              List.of(
                                  "--kind trafficrouter --start-timeout 29000ms -- "
                                      + installedA
                                      + " --level debug cookie=none"
                                      + " kind=trafficrouter",
                                  "--kind trafficrouter --start-timeout 29000ms -- "
                                      + installedB
                                      + " cookie=none kind=trafficrouter"),
                              lines(bridgeLog));
                          assertTrue(
                              lines(calls)
                                  .containsAll(List.of("setWeight web 30", "setWeight api 40")),
                              lines(calls).toString());
                          t.completeNow();
                        })));
  }

  @Test
  void goPluginWithoutABridgeIsUnavailableWithTheReason(Vertx vertx, VertxTestContext t) {
    Path missing = dir.resolve("nowhere/rollgate-plugin-bridge");
    host(vertx, missing, entry("org/a", goPlugin, ""));
    host.router("org/a")
        .setWeight(PluginHostTest.request("web"), 30, List.of())
        .onComplete(
            t.failing(
                err ->
                    t.verify(
                        () -> {
                          assertEquals(
                              "failed to set weight via plugin: plugin org/a is not running: speaks go-plugin (Argo Rollouts' plugin"
                                  + " protocol), but rollgate-plugin-bridge was not found (looked at ["
                                  + missing
                                  + "]; set"
                                  + " --plugin-bridge or ROLLGATE_PLUGIN_BRIDGE)",
                              err.getMessage());
                          t.completeNow();
                        })));
  }

  @Test
  void goPluginOfAnotherKindExitsWithItsOwnMessage(Vertx vertx, VertxTestContext t) {
    host =
        new PluginHost(
            vertx,
            dir.resolve("plugins"),
            Duration.ofSeconds(20),
            Duration.ofSeconds(30),
            "test/argo-rollouts-config",
            null,
            null,
            Clock.systemUTC(),
            new PluginBridge(bridge, Map.of(), null));
    host.update(
        PluginRegistry.fromConfigMapData(
            Map.of(
                "stepPlugins",
                "- name: org/router-as-step\n  location: file://" + goPlugin + "\n")));
    host.stepPlugins()
        .call(
            "org/router-as-step",
            StepOperation.RUN,
            PluginHostTest.request("web").rollout(),
            new io.rollgate.plugin.sdk.StepContext("org/router-as-step", 0, null, null))
        .onComplete(
            t.failing(
                err ->
                    t.verify(
                        () -> {
                          assertEquals(
                              "plugin org/router-as-step is not running: exited with code 1 before its handshake line (last output:"
                                  + " 'This binary is a plugin. These are not meant to be executed directly.')",
                              err.getMessage());
                          assertEquals(List.of("step step"), lines(probes));
                          assertEquals(List.of(), lines(bridgeLog));
                          t.completeNow();
                        })));
  }

  @Test
  void handshakeLinesAreRecognised() {
    assertTrue(PluginBridge.isGoPluginHandshake("1|1|unix|/tmp/plugin123|netrpc|"));
    assertTrue(PluginBridge.isGoPluginHandshake("1|1|tcp|127.0.0.1:1234|netrpc"));
    assertTrue(PluginBridge.isGoPluginHandshake("1|2|tcp|127.0.0.1:1234|grpc|MIIB"));
    assertTrue(!PluginBridge.isGoPluginHandshake("rollgate-plugin 1 http://127.0.0.1:1"));
    assertTrue(!PluginBridge.isGoPluginHandshake("1|1|udp|x|netrpc|"));
    assertTrue(!PluginBridge.isGoPluginHandshake(null));
  }

  @Test
  void bridgeIsLookedForAtTheFlagOnly_orAtTheVariableTheJarFolderAndPath() {
    Path flag = Path.of("/opt/b/rollgate-plugin-bridge");
    assertEquals(
        List.of(flag),
        new PluginBridge(flag, Map.of("PATH", "/usr/bin"), Path.of("/app")).candidates());
    assertEquals(
        List.of(
            Path.of("/env/bridge"),
            Path.of("/app/rollgate-plugin-bridge"),
            Path.of("/usr/bin/rollgate-plugin-bridge"),
            Path.of("/bin/rollgate-plugin-bridge")),
        new PluginBridge(
                null,
                Map.of("ROLLGATE_PLUGIN_BRIDGE", "/env/bridge", "PATH", "/usr/bin:/bin"),
                Path.of("/app"))
            .candidates());
  }
}
