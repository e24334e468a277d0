package io.rollgate.e2e.haproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rollgate.api.Rollout;
import io.rollgate.api.TrafficWeights;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.TestHttpServer;
import io.rollgate.plugins.haproxy.HaproxyProcess;
import io.rollgate.plugins.haproxy.TrafficSplit;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The reference HAProxy traffic-router plugin driven by the controller the way a user sets it up:
 * the plugin's launcher registered in {@code argo-rollouts-config} ({@code file://} location), a
 * canary Rollout whose {@code trafficRouting.plugins["rollgate-e2e/haproxy"]} names a real
 * HAProxy's runtime API, backend and servers. HAProxy's two servers are local HTTP servers
 * answering {@code stable} and {@code canary} (they stand in for the stable and canary Services);
 * at each {@code setWeight} step real HTTP requests through HAProxy show the split, and an abort
 * sends everything back to stable.
 */
@ExtendWith(HaproxyRouterPluginE2E.FailureTracker.class)
class HaproxyRouterPluginE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(120);
  static final String PLUGIN = "rollgate-e2e/haproxy";

  static TestCluster cluster;
  static KubernetesClient client;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static TestHttpServer stableServer;
  static TestHttpServer canaryServer;
  static HaproxyProcess haproxy;
  static Path pluginDir;
  static boolean failed;

  @BeforeAll
  static void setUp() throws IOException {
    Path launcher =
        Path.of(
                System.getProperty(
                    "rollgate.haproxy.launcher", "../plugins/haproxy-router/target/haproxy-router"))
            .toAbsolutePath()
            .normalize();
    assertTrue(
        Files.isExecutable(launcher),
        "the plugin's launcher is built at " + launcher + " (mvn package)");
    stableServer =
        TestHttpServer.http().route("/", req -> TestHttpServer.Response.text(200, "stable"));
    canaryServer =
        TestHttpServer.http().route("/", req -> TestHttpServer.Response.text(200, "canary"));
    Map<String, int[]> servers = new LinkedHashMap<>();
    servers.put("stable", new int[] {stableServer.port(), 100});
    servers.put("canary", new int[] {canaryServer.port(), 0});
    haproxy = HaproxyProcess.start("plugin-e2e", servers);

    cluster = TestCluster.get();
    client = cluster.client();
    ns = cluster.createNamespace("haproxy");
    rollouts = new Rollouts(client, ns);
    client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("argo-rollouts-config")
                .endMetadata()
                .addToData(
                    "trafficRouterPlugins",
                    "- name: " + PLUGIN + "\n  location: file://" + launcher + "\n")
                .build())
        .create();
    pluginDir = Files.createTempDirectory("rollgate-e2e-plugins-");
    controller =
        ControllerProcess.start(
            cluster,
            "haproxy",
            "--namespace",
            ns,
            "--plugin-config-namespace",
            ns,
            "--plugin-dir",
            pluginDir.toString());
  }

  @AfterAll
  static void tearDown() throws IOException {
    if (controller != null) {
      controller.close();
    }
    if (haproxy != null) {
      haproxy.close();
    }
    if (stableServer != null) {
      stableServer.close();
    }
    if (canaryServer != null) {
      canaryServer.close();
    }
    if (pluginDir != null) {
      try (var files = Files.walk(pluginDir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    if (!failed && ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Fixtures

  static void applyServices(String name) {
    String yaml = read("traffic/services.yaml").replace("${NAME}", name);
    for (HasMetadata item :
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(item).inNamespace(ns).create();
    }
  }

  static String read(String resource) {
    try (InputStream in =
        HaproxyRouterPluginE2E.class.getClassLoader().getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The plugin entry of {@code trafficRouting.plugins}, pointing at the test's HAProxy. */
  static String pluginConfig(String backend) {
    return "{\"runtimeApi\":\""
        + haproxy.socketPath()
        + "\",\"backend\":\""
        + backend
        + "\","
        + "\"stableServer\":\"stable\",\"canaryServer\":\"canary\"}";
  }

  static Rollout createRollout(String name, int replicas, String pluginConfig, String steps) {
    applyServices(name);
    Map<String, String> v = new HashMap<>();
    v.put("NAME", name);
    v.put("REPLICAS", String.valueOf(replicas));
    v.put(
        "CANARY",
        "{\"stableService\":\""
            + name
            + "-stable\",\"canaryService\":\""
            + name
            + "-canary\","
            + "\"trafficRouting\":{\"plugins\":{\""
            + PLUGIN
            + "\":"
            + pluginConfig
            + "}},\"steps\":"
            + steps
            + "}");
    return rollouts.create("traffic/rollout.yaml", v);
  }

  static Rollout awaitHealthy(String name) {
    return rollouts.await(
        name,
        name + " Healthy",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && r.getStatus().getCurrentPodHash() != null
                && r.getStatus().getCurrentPodHash().equals(r.getStatus().getStableRS())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration()));
  }

  static TrafficWeights weights(Rollout r) {
    return r.getStatus() == null || r.getStatus().getCanary() == null
        ? null
        : r.getStatus().getCanary().getWeights();
  }

  static boolean verifiedAt(Rollout r, int canaryWeight) {
    TrafficWeights w = weights(r);
    return w != null
        && w.getCanary() != null
        && w.getCanary().getWeight() != null
        && w.getCanary().getWeight() == canaryWeight
        && Boolean.TRUE.equals(w.getVerified());
  }

  static Rollout awaitPausedAtWeight(String name, int step, int canaryWeight) {
    return rollouts.await(
        name,
        name + " paused at step " + step + " with canary weight " + canaryWeight + " verified",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Paused".equals(r.getStatus().getPhase())
                && Integer.valueOf(step).equals(r.getStatus().getCurrentStepIndex())
                && verifiedAt(r, canaryWeight));
  }

  static void assertHaproxyWeights(int stable, int canary) {
    assertEquals(stable + " (initial 100)", haproxy.command("get weight web/stable").strip());
    assertEquals(canary + " (initial 0)", haproxy.command("get weight web/canary").strip());
  }

  static void assertSplit(int canaryPercent) throws Exception {
    TrafficSplit.assertSplit(
        haproxy.frontendUrl(),
        canaryPercent == 0
            ? Map.of("stable", 100)
            : canaryPercent == 100
                ? Map.of("canary", 100)
                : Map.of("stable", 100 - canaryPercent, "canary", canaryPercent));
  }

  // -------------------------------------------------------------------------------------------------------------
  // Scenarios

  @Test
  void shiftsRealTrafficAtEachStep_andAbortReturnsItToStable() throws Exception {
    String name = "web";
    createRollout(
        name,
        5,
        pluginConfig(HaproxyProcess.BACKEND),
        "[{\"setWeight\":20},{\"pause\":{}},{\"setWeight\":50},{\"pause\":{}},{\"setWeight\":80},{\"pause\":{}}]");
    awaitHealthy(name);
    assertSplit(0);

    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAtWeight(name, 1, 20);
    assertHaproxyWeights(80, 20);
    assertSplit(20);

    rollouts.promote(name);
    awaitPausedAtWeight(name, 3, 50);
    assertHaproxyWeights(50, 50);
    assertSplit(50);

    rollouts.promote(name);
    awaitPausedAtWeight(name, 5, 80);
    assertHaproxyWeights(20, 80);
    assertSplit(80);

    rollouts.abort(name);
    Rollout aborted =
        rollouts.await(
            name,
            name + " aborted with canary weight 0 verified",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && Boolean.TRUE.equals(r.getStatus().getAbort())
                    && verifiedAt(r, 0));
    assertEquals("Degraded", aborted.getStatus().getPhase());
    assertHaproxyWeights(100, 0);
    assertSplit(0);

    List<String> updates = rollouts.eventMessages(name, "TrafficWeightUpdated");
    assertTrue(
        updates.stream().anyMatch(m -> m.contains("from 80 to 0")), "weight events: " + updates);
  }

  @Test
  void reportsTheMisconfiguredFieldOnTheRollout() {
    String name = "misconfigured";
    // A backend HAProxy does not have: no server of the shared backend is touched by this Rollout.
    createRollout(name, 2, pluginConfig("web-v2"), "[{\"setWeight\":20},{\"pause\":{}}]");
    String field = "trafficRouting.plugins[\"" + PLUGIN + "\"].backend";
    Rollout r =
        rollouts.await(
            name,
            "an event naming " + field,
            TIMEOUT,
            x ->
                rollouts.events(name).stream()
                    .map(Event::getMessage)
                    .anyMatch(m -> m != null && m.contains(field)));
    List<String> messages =
        rollouts.events(name).stream()
            .filter(e -> e.getMessage() != null && e.getMessage().contains(field))
            .map(e -> e.getType() + " " + e.getReason() + ": " + e.getMessage())
            .collect(Collectors.toList());
    assertTrue(
        messages.stream()
            .anyMatch(
                m ->
                    m.startsWith("Warning ")
                        && m.contains(
                            "via plugin: plugin "
                                + PLUGIN
                                + ": HAProxy at "
                                + haproxy.socketPath()
                                + " has no backend \"web-v2\"")),
        "events of " + r.getMetadata().getName() + ": " + messages);
    client.resources(Rollout.class).inNamespace(ns).withName(name).delete();
  }

  /** Keeps the namespace of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
