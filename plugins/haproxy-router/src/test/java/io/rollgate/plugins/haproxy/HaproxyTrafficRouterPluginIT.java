package io.rollgate.plugins.haproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.HeaderRoutingMatch;
import io.rollgate.api.Rollout;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.StringMatch;
import io.rollgate.api.WeightDestination;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.NetServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The plugin against a real HAProxy: two local HTTP servers answer {@code stable} and {@code
 * canary}, HAProxy balances between them, and the plugin moves the weights through the runtime API;
 * the split is observed with real HTTP requests through HAProxy's frontend.
 */
class HaproxyTrafficRouterPluginIT {

  static Vertx vertx;
  static HaproxyProcess haproxy;
  static HaproxyTrafficRouterPlugin plugin;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    Map<String, int[]> servers = new LinkedHashMap<>();
    servers.put("stable", new int[] {backend("stable"), 100});
    servers.put("canary", new int[] {backend("canary"), 0});
    servers.put("experiment", new int[] {backend("experiment"), 0});
    haproxy = HaproxyProcess.start("plugin-it", servers);
    plugin = new HaproxyTrafficRouterPlugin(vertx, TestRollouts.PLUGIN);
  }

  @AfterAll
  static void stop() throws Exception {
    if (plugin != null) {
      plugin.close();
    }
    if (haproxy != null) {
      haproxy.close();
    }
    if (vertx != null) {
      await(vertx.close());
    }
  }

  private static int backend(String answer) throws Exception {
    HttpServer server =
        await(
            vertx
                .createHttpServer()
                .requestHandler(
                    req -> req.response().putHeader("content-type", "text/plain").end(answer))
                .listen(HaproxyProcess.freePort(), "127.0.0.1"));
    return server.actualPort();
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  private static String failure(Future<?> future) throws InterruptedException, TimeoutException {
    try {
      future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause().getMessage();
    }
    throw new AssertionError("expected the call to fail");
  }

  private static Rollout rollout(String runtimeApi) {
    return TestRollouts.withConfig(
        TestRollouts.config(runtimeApi, HaproxyProcess.BACKEND, "stable", "canary"));
  }

  @Test
  void movesTheObservedSplitAtEachWeight_throughTheUnixSocket() throws Exception {
    Rollout rollout = rollout(haproxy.socketPath());
    for (int weight : new int[] {0, 10, 25, 50, 80, 100, 0}) {
      await(plugin.setWeight(rollout, weight, List.of()));
      assertEquals(
          Boolean.TRUE,
          await(plugin.verifyWeight(rollout, weight, List.of())),
          "verified at " + weight);
      assertEquals(
          (100 - weight) + " (initial 100)", haproxy.command("get weight web/stable").strip());
      assertEquals(weight + " (initial 0)", haproxy.command("get weight web/canary").strip());
      TrafficSplit.assertSplit(
          haproxy.frontendUrl(), Map.of("canary", weight, "stable", 100 - weight));
    }
  }

  @Test
  void movesTheObservedSplit_throughTheTcpAddress() throws Exception {
    Rollout rollout = rollout(haproxy.tcpAddress());
    await(plugin.setWeight(rollout, 30, List.of()));
    assertEquals(Boolean.TRUE, await(plugin.verifyWeight(rollout, 30, List.of())));
    TrafficSplit.assertSplit(haproxy.frontendUrl(), Map.of("canary", 30, "stable", 70));
    await(plugin.setWeight(rollout, 0, List.of()));
    TrafficSplit.assertSplit(haproxy.frontendUrl(), Map.of("stable", 100));
  }

  @Test
  void sendsAdditionalDestinationsToTheirServers() throws Exception {
    ObjectNode config =
        TestRollouts.config(haproxy.socketPath(), HaproxyProcess.BACKEND, "stable", "canary");
    config.putObject("additionalServers").put("web-experiment", "experiment");
    Rollout rollout = TestRollouts.withConfig(config);
    WeightDestination experiment = new WeightDestination();
    experiment.setServiceName("web-experiment");
    experiment.setPodTemplateHash("5d8f9c7b4");
    experiment.setWeight(10);

    await(plugin.setWeight(rollout, 20, List.of(experiment)));
    assertEquals(Boolean.TRUE, await(plugin.verifyWeight(rollout, 20, List.of(experiment))));
    TrafficSplit.assertSplit(
        haproxy.frontendUrl(), Map.of("stable", 70, "canary", 20, "experiment", 10));

    // The experiment ended: its server is back to 0.
    await(plugin.setWeight(rollout, 0, List.of()));
    assertEquals(Boolean.TRUE, await(plugin.verifyWeight(rollout, 0, List.of())));
    assertEquals("0 (initial 0)", haproxy.command("get weight web/experiment").strip());
    TrafficSplit.assertSplit(haproxy.frontendUrl(), Map.of("stable", 100));
  }

  @Test
  void verifyWeightIsFalse_whenHaproxyCarriesOtherWeights() throws Exception {
    Rollout rollout = rollout(haproxy.socketPath());
    await(plugin.setWeight(rollout, 40, List.of()));
    assertEquals(Boolean.TRUE, await(plugin.verifyWeight(rollout, 40, List.of())));
    assertEquals(Boolean.FALSE, await(plugin.verifyWeight(rollout, 50, List.of())));
    // Someone (or a reload) put HAProxy back on its configured weights.
    assertEquals("", haproxy.command("set weight web/canary 0; set weight web/stable 100").strip());
    assertFalse(await(plugin.verifyWeight(rollout, 40, List.of())));
    await(plugin.setWeight(rollout, 40, List.of()));
    assertTrue(await(plugin.verifyWeight(rollout, 40, List.of())));
    await(plugin.setWeight(rollout, 0, List.of()));
  }

  @Test
  void namesTheFieldOfAServerOrBackendHaproxyDoesNotHave() throws Exception {
    String field = "spec.strategy.canary.trafficRouting.plugins[\"rollgate/haproxy\"]";
    Rollout badServer =
        TestRollouts.withConfig(
            TestRollouts.config(
                haproxy.socketPath(), HaproxyProcess.BACKEND, "stable", "canary-v2"));
    assertEquals(
        "HAProxy backend \"web\" at "
            + haproxy.socketPath()
            + " has no server \"canary-v2\" ("
            + field
            + ".canaryServer)",
        failure(plugin.setWeight(badServer, 10, List.of())));
    assertEquals(
        "HAProxy backend \"web\" at "
            + haproxy.socketPath()
            + " has no server \"canary-v2\" ("
            + field
            + ".canaryServer)",
        failure(plugin.verifyWeight(badServer, 10, List.of())));

    Rollout badBackend =
        TestRollouts.withConfig(
            TestRollouts.config(haproxy.tcpAddress(), "webb", "stable", "canary"));
    assertEquals(
        "HAProxy at " + haproxy.tcpAddress() + " has no backend \"webb\" (" + field + ".backend)",
        failure(plugin.setWeight(badBackend, 10, List.of())));
  }

  @Test
  void namesTheAddress_whenTheRuntimeApiCannotBeReached() throws Exception {
    Rollout missingSocket = rollout(haproxy.socketPath() + ".missing");
    String message = failure(plugin.setWeight(missingSocket, 10, List.of()));
    assertTrue(
        message.startsWith(
            "HAProxy runtime API at "
                + haproxy.socketPath()
                + ".missing (set weight web/stable 90): "),
        message);

    int closedPort = HaproxyProcess.freePort();
    message = failure(plugin.verifyWeight(rollout("127.0.0.1:" + closedPort), 10, List.of()));
    assertTrue(
        message.startsWith("HAProxy runtime API at 127.0.0.1:" + closedPort + " (get weight web/"),
        message);
  }

  @Test
  void failsWithinTheTimeout_whenTheRuntimeApiNeverAnswers() throws Exception {
    NetServer silent =
        await(vertx.createNetServer().connectHandler(socket -> {}).listen(0, "127.0.0.1"));
    try {
      ObjectNode config =
          TestRollouts.config(
              "127.0.0.1:" + silent.actualPort(), HaproxyProcess.BACKEND, "stable", "canary");
      config.put("timeoutSeconds", 1);
      String message = failure(plugin.setWeight(TestRollouts.withConfig(config), 10, List.of()));
      assertTrue(
          message.startsWith(
              "HAProxy runtime API at 127.0.0.1:"
                  + silent.actualPort()
                  + " (set weight web/stable 90): "),
          message);
      assertTrue(message.endsWith(": no complete answer within 1 s (timeoutSeconds)"), message);
    } finally {
      await(silent.close());
    }
  }

  @Test
  void refusesHeaderAndMirrorRoutesButAcceptsTheirRemoval() throws Exception {
    Rollout rollout = rollout(haproxy.socketPath());
    SetHeaderRoute header = new SetHeaderRoute();
    header.setName("canary-by-header");
    HeaderRoutingMatch match = new HeaderRoutingMatch();
    match.setHeaderName("X-Canary");
    StringMatch value = new StringMatch();
    value.setExact("yes");
    match.setHeaderValue(value);
    header.setMatch(List.of(match));
    assertEquals(
        "the HAProxy traffic router does not support header routes (setHeaderRoute \"canary-by-header\"): HAProxy's "
            + "runtime API cannot add routing rules; remove the setHeaderRoute step or use a router that supports it",
        failure(plugin.setHeaderRoute(rollout, header)));
    header.setMatch(null);
    await(plugin.setHeaderRoute(rollout, header));

    SetMirrorRoute mirror = new SetMirrorRoute();
    mirror.setName("mirror-all");
    await(plugin.setMirrorRoute(rollout, mirror));

    await(plugin.removeManagedRoutes(rollout));
    await(plugin.updateHash(rollout, "6c54f9d8b7", "5d8f9c7b4", List.of()));
  }

  @Test
  void failsEveryCall_whenTheConfigurationIsInvalid() throws Exception {
    ObjectNode config =
        TestRollouts.config(haproxy.socketPath(), HaproxyProcess.BACKEND, "stable", "canary");
    config.remove("canaryServer");
    Rollout rollout = TestRollouts.withConfig(config);
    String expected =
        "spec.strategy.canary.trafficRouting.plugins[\"rollgate/haproxy\"].canaryServer: required";
    assertEquals(expected, failure(plugin.setWeight(rollout, 10, List.of())));
    assertEquals(expected, failure(plugin.verifyWeight(rollout, 10, List.of())));
    assertEquals(expected, failure(plugin.updateHash(rollout, "a", "b", List.of())));
    assertEquals(expected, failure(plugin.removeManagedRoutes(rollout)));
  }
}
