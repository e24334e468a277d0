package io.rollgate.controller.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.controller.runtime.ReconcileContext;
import io.rollgate.controller.traffic.TrafficRequest;
import io.rollgate.controller.traffic.TrafficRouter;
import io.rollgate.controller.traffic.WeightVerification;
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
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin host against real plugin processes (a Java plugin served by the SDK's PluginServer),
 * without a cluster.
 */
// Plugin processes are JVMs: on a busy machine a start takes far longer than the default 30 s
// budget.
@io.vertx.junit5.Timeout(value = 3, timeUnit = java.util.concurrent.TimeUnit.MINUTES)
@ExtendWith(VertxExtension.class)
class PluginHostTest {

  @TempDir Path dir;
  PluginHost host;
  Path script;
  Path calls;
  Path hang;

  @BeforeEach
  void setUp(Vertx vertx) throws IOException {
    calls = dir.resolve("calls.log");
    hang = dir.resolve("hang");
    script =
        executable(
            "router.sh",
            "#!/bin/sh\nexec '"
                + Path.of(System.getProperty("java.home"), "bin", "java")
                + "' -cp '"
                + System.getProperty("java.class.path")
                + "' "
                + TestRouterPlugin.class.getName()
                + " \"$@\"\n");
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

  private PluginHost host(Vertx vertx, Duration timeout, String routers) {
    return host(vertx, timeout, routers, Duration.ofSeconds(30));
  }

  private PluginHost host(Vertx vertx, Duration timeout, String routers, Duration handshake) {
    host =
        new PluginHost(
            vertx,
            dir.resolve("plugins"),
            timeout,
            handshake,
            "test/argo-rollouts-config",
            null,
            null,
            Clock.systemUTC());
    host.update(PluginRegistry.fromConfigMapData(Map.of("trafficRouterPlugins", routers)));
    return host;
  }

  private String entry(String name, String extra) {
    return "- name: "
        + name
        + "\n  location: file://"
        + script
        + "\n  args: ['"
        + calls
        + "', '"
        + hang
        + "']\n"
        + extra;
  }

  static TrafficRequest request(String name) {
    Rollout r =
        ModelJson.mapper()
            .convertValue(
                Map.of(
                    "apiVersion",
                    "argoproj.io/v1alpha1",
                    "kind",
                    "Rollout",
                    "metadata",
                    Map.of("namespace", "shop", "name", name)),
                Rollout.class);
    return new TrafficRequest(
        new ReconcileContext("Rollout", "shop", name, 1, "test", Instant.now()), r);
  }

  private List<String> calls() throws IOException {
    return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
  }

  private static void check(VertxTestContext t, Runnable r) {
    t.verify(r::run);
  }

  @Test
  void startsAnExecutablePluginAndCallsIt(Vertx vertx, VertxTestContext t) {
    TrafficRouter router =
        host(vertx, Duration.ofSeconds(10), entry("test/router", "")).router("test/router");
    router
        .setWeight(request("web"), 30, List.of())
        .compose(v -> router.verifyWeight(request("web"), 30, List.of()))
        .compose(
            v1 -> router.verifyWeight(request("web"), 13, List.of()).map(v2 -> List.of(v1, v2)))
        .onComplete(
            t.succeeding(
                v ->
                    check(
                        t,
                        () -> {
                          assertEquals(
                              List.of(WeightVerification.VERIFIED, WeightVerification.NOT_VERIFIED),
                              v);
                          try {
                            List<String> lines = calls();
                            assertTrue(lines.get(0).startsWith("started "), lines.toString());
                            assertEquals(
                                List.of("setWeight web 30", "verifyWeight 30", "verifyWeight 13"),
                                lines.subList(1, 4));
                          } catch (IOException e) {
                            throw new AssertionError(e);
                          }
                          t.completeNow();
                        })));
  }

  @Test
  void pluginErrorBecomesFailedToCallViaPlugin(Vertx vertx, VertxTestContext t) {
    TrafficRouter router =
        host(vertx, Duration.ofSeconds(10), entry("test/router", "")).router("test/router");
    router
        .removeManagedRoutes(request("broken"))
        .onComplete(
            t.failing(
                err ->
                    check(
                        t,
                        () -> {
                          assertEquals(
                              "failed to remove managed routes via plugin: plugin test/router: route table is locked",
                              err.getMessage());
                          t.completeNow();
                        })));
  }

  @Test
  void checksumMismatchIsNamedAndTheProcessNeverRuns(Vertx vertx, VertxTestContext t) {
    String zeros = "0".repeat(64);
    TrafficRouter router =
        host(vertx, Duration.ofSeconds(10), entry("test/router", "  sha256: \"" + zeros + "\"\n"))
            .router("test/router");
    router
        .setWeight(request("web"), 30, List.of())
        .onComplete(
            t.failing(
                err ->
                    check(
                        t,
                        () -> {
                          String m = err.getMessage();
                          assertTrue(
                              m.startsWith(
                                  "failed to set weight via plugin: plugin test/router is not running: cannot be"
                                      + " fetched: sha256 mismatch for file://"
                                      + script
                                      + ": expected "
                                      + zeros
                                      + ", got "),
                              m);
                          assertTrue(
                              PluginCallException.reasonOf(err.getCause())
                                  == PluginCallException.Reason.UNAVAILABLE);
                          try {
                            assertEquals(List.of(), calls());
                          } catch (IOException e) {
                            throw new AssertionError(e);
                          }
                          t.completeNow();
                        })));
  }

  @Test
  void rightChecksumRuns(Vertx vertx, VertxTestContext t) throws IOException {
    String sha = PluginFetcher.sha256(script);
    TrafficRouter router =
        host(
                vertx,
                Duration.ofSeconds(10),
                entry("test/router", "  sha256: " + sha.toUpperCase() + "\n"))
            .router("test/router");
    router.setWeight(request("web"), 5, List.of()).onComplete(t.succeedingThenComplete());
  }

  @Test
  void noHandshakeIsAClearErrorWithTheLastOutput(Vertx vertx, VertxTestContext t)
      throws IOException {
    script = executable("garbage.sh", "#!/bin/sh\necho 'hello there'\nexec sleep 30\n");
    TrafficRouter router =
        host(vertx, Duration.ofSeconds(10), entry("test/garbage", ""), Duration.ofSeconds(2))
            .router("test/garbage");
    router
        .setWeight(request("web"), 30, List.of())
        .onComplete(
            t.failing(
                err ->
                    check(
                        t,
                        () -> {
                          assertEquals(
                              "failed to set weight via plugin: plugin test/garbage is not running: no handshake line within"
                                  + " 2s (last output: 'hello there')",
                              err.getMessage());
                          t.completeNow();
                        })));
  }

  @Test
  void badHandshakeLineIsNamed(Vertx vertx, VertxTestContext t) throws IOException {
    script =
        executable(
            "v2.sh", "#!/bin/sh\necho 'rollgate-plugin 2 http://127.0.0.1:1'\nexec sleep 30\n");
    TrafficRouter router =
        host(vertx, Duration.ofSeconds(10), entry("test/v2", "")).router("test/v2");
    router
        .setWeight(request("web"), 30, List.of())
        .onComplete(
            t.failing(
                err ->
                    check(
                        t,
                        () -> {
                          assertEquals(
                              "failed to set weight via plugin: plugin test/v2 is not running: speaks protocol 2, the"
                                  + " controller speaks 1",
                              err.getMessage());
                          t.completeNow();
                        })));
  }

  @Test
  void outputBeforeTheHandshakeIsTolerated(Vertx vertx, VertxTestContext t) throws IOException {
    String original = Files.readString(script);
    script =
        executable(
            "chatty.sh", original.replace("exec ", "echo 'starting up, logging to stdout'\nexec "));
    TrafficRouter router =
        host(vertx, Duration.ofSeconds(10), entry("test/chatty", "")).router("test/chatty");
    router.setWeight(request("web"), 30, List.of()).onComplete(t.succeedingThenComplete());
  }

  @Test
  void processThatExitsAtOnceIsReported(Vertx vertx, VertxTestContext t) throws IOException {
    script = executable("exit.sh", "#!/bin/sh\necho 'no config' >&2\nexit 3\n");
    TrafficRouter router =
        host(vertx, Duration.ofSeconds(10), entry("test/exit", "")).router("test/exit");
    router
        .setWeight(request("web"), 30, List.of())
        .onComplete(
            t.failing(
                err ->
                    check(
                        t,
                        () -> {
                          String m = err.getMessage();
                          assertTrue(
                              m.contains("plugin test/exit is not running: ")
                                  && (m.contains("exited with code 3 before its handshake line")
                                      || m.contains(
                                          "closed its standard output before its handshake line")),
                              m);
                          t.completeNow();
                        })));
  }

  @Test
  void unregisteredPluginIsNamed(Vertx vertx, VertxTestContext t) {
    host(vertx, Duration.ofSeconds(10), entry("test/router", ""))
        .router("test/other")
        .setWeight(request("web"), 30, List.of())
        .onComplete(
            t.failing(
                err ->
                    check(
                        t,
                        () -> {
                          assertEquals(
                              "failed to set weight via plugin: plugin test/other is not available: not registered in"
                                  + " test/argo-rollouts-config (trafficRouterPlugins)",
                              err.getMessage());
                          t.completeNow();
                        })));
  }

  @Test
  void hangingCallTimesOut(Vertx vertx, VertxTestContext t) throws IOException {
    TrafficRouter router =
        host(vertx, Duration.ofSeconds(1), entry("test/router", "")).router("test/router");
    router
        .setWeight(request("web"), 1, List.of())
        .compose(
            v -> {
              try {
                Files.writeString(hang, "");
              } catch (IOException e) {
                return Future.failedFuture(e);
              }
              return router.setWeight(request("web"), 2, List.of());
            })
        .onComplete(
            t.failing(
                err ->
                    check(
                        t,
                        () -> {
                          assertEquals(
                              "failed to set weight via plugin: plugin test/router: trafficrouter/setWeight timed out after 1s",
                              err.getMessage());
                          t.completeNow();
                        })));
  }

  @Test
  void killedProcessIsStartedAgainAfterBackoff(Vertx vertx, VertxTestContext t) {
    TrafficRouter router =
        host(vertx, Duration.ofSeconds(10), entry("test/router", "")).router("test/router");
    router
        .setWeight(request("web"), 1, List.of())
        .compose(
            v -> {
              long pid = pidOf(0);
              ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
              return Future.fromCompletionStage(
                  ProcessHandle.of(pid)
                      .map(ProcessHandle::onExit)
                      .orElse(java.util.concurrent.CompletableFuture.completedFuture(null)),
                  vertx.getOrCreateContext());
            })
        .compose(v -> retry(vertx, () -> router.setWeight(request("web"), 2, List.of()), 480))
        .onComplete(
            t.succeeding(
                v ->
                    check(
                        t,
                        () -> {
                          assertTrue(pidOf(1) != pidOf(0));
                          t.completeNow();
                        })));
  }

  private long pidOf(int nth) {
    try {
      return calls().stream()
          .filter(l -> l.startsWith("started "))
          .skip(nth)
          .findFirst()
          .map(l -> Long.parseLong(l.substring(8)))
          .orElse(-1L);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Retries a call on a 250 ms timer until it succeeds (at most {@code left} times). */
  private static Future<Void> retry(Vertx vertx, Supplier<Future<Void>> call, int left) {
    return call.get()
        .recover(
            err ->
                left <= 0
                    ? Future.failedFuture(err)
                    : Future.<Void>future(p -> vertx.setTimer(250, x -> p.complete()))
                        .compose(v -> retry(vertx, call, left - 1)));
  }

  @Test
  void registrationChangeStopsTheProcess(Vertx vertx, VertxTestContext t) {
    PluginHost h = host(vertx, Duration.ofSeconds(10), entry("test/router", ""));
    h.router("test/router")
        .setWeight(request("web"), 1, List.of())
        .onComplete(
            t.succeeding(
                v -> {
                  long pid = pidOf(0);
                  h.update(PluginRegistry.fromConfigMapData(Map.of()));
                  ProcessHandle.of(pid)
                      .map(ProcessHandle::onExit)
                      .ifPresentOrElse(
                          exit ->
                              Future.fromCompletionStage(exit)
                                  .timeout(10, TimeUnit.SECONDS)
                                  .compose(
                                      x ->
                                          h.router("test/router")
                                              .setWeight(request("web"), 2, List.of()))
                                  .onComplete(
                                      t.failing(
                                          err ->
                                              check(
                                                  t,
                                                  () -> {
                                                    assertTrue(
                                                        err.getMessage().contains("not registered"),
                                                        err.getMessage());
                                                    t.completeNow();
                                                  }))),
                          t::completeNow);
                }));
  }

  @Test
  void registryChangesAfterTheFirstRunTheListenerOnce(Vertx vertx, VertxTestContext t) {
    java.util.concurrent.atomic.AtomicInteger changes =
        new java.util.concurrent.atomic.AtomicInteger();
    host =
        new PluginHost(
            vertx,
            dir.resolve("plugins"),
            Duration.ofSeconds(10),
            Duration.ofSeconds(30),
            "test/argo-rollouts-config",
            null,
            null,
            Clock.systemUTC());
    host.onRegistryChange(changes::incrementAndGet);
    host.update(
        PluginRegistry.fromConfigMapData(Map.of("trafficRouterPlugins", entry("test/router", ""))));
    host.update(PluginRegistry.fromConfigMapData(Map.of()));
    host.update(
        PluginRegistry.fromConfigMapData(Map.of("trafficRouterPlugins", entry("test/router", ""))));
    // The listener runs on the host's context after each update's own work: wait until both have
    // run (the test times out if they never do), then the count must be exactly 2 (the first load
    // does not count).
    vertx.setPeriodic(
        20,
        id -> {
          if (changes.get() >= 2) {
            vertx.cancelTimer(id);
            check(
                t,
                () -> {
                  assertEquals(2, changes.get());
                  t.completeNow();
                });
          }
        });
  }
}
