package io.rollgate.e2e.goplugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.GoPlugins;
import io.rollgate.e2e.support.RouterCrds;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The Gateway API traffic-router plugin of the Argo Rollouts ecosystem (argoproj-labs, v0.15.0, built against
 * argo-rollouts v1.6: an old go-plugin binary, unmodified, from {@code ../shared/plugins}) registered under its own
 * name {@code argoproj-labs/gatewayAPI}: the registration takes precedence over Rollgate's built-in router of that
 * name, the controller detects go-plugin and runs it through the bridge, and the plugin moves the HTTPRoute's
 * backendRef weights through a canary (docs/plugins.md, "Go plugins of Argo Rollouts", "Precedence").
 */
@ExtendWith(GoTrafficRouterE2E.FailureTracker.class)
class GoTrafficRouterE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(120);
  static final String PLUGIN = "argoproj-labs/gatewayAPI";
  static final String BINARY = "rollouts-plugin-trafficrouter-gatewayapi-v0.15.0-linux-amd64";
  static final ObjectMapper JSON = new ObjectMapper();

  static TestCluster cluster;
  static KubernetesClient client;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    client = cluster.client();
    RouterCrds.ensure(client);
    ns = cluster.createNamespace("gorouter");
    rollouts = new Rollouts(client, ns);
    Path binary = GoPlugins.shared(BINARY);
    String yaml = "- name: " + PLUGIN + "\n  location: file://" + binary + "\n  sha256: " + GoPlugins.sha256(binary) + "\n";
    client.configMaps().inNamespace(ns).resource(
            new ConfigMapBuilder()
                .withNewMetadata().withName("argo-rollouts-config").withNamespace(ns).endMetadata()
                .withData(Map.of("trafficRouterPlugins", yaml))
                .build())
        .serverSideApply();
    controller = ControllerProcess.start(
        cluster,
        "gorouter",
        "--namespace",
        ns,
        "--plugin-config-namespace",
        ns,
        "--plugin-dir",
        Path.of("target", "plugins-gorouter").toAbsolutePath().toString(),
        "--plugin-bridge",
        GoPlugins.bridge().toString());
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (!failed && ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  static void apply(String resource, String name) {
    String yaml;
    try (InputStream in = GoTrafficRouterE2E.class.getClassLoader().getResourceAsStream(resource)) {
      yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("${NAME}", name);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    for (HasMetadata item : client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(item).inNamespace(ns).create();
    }
  }

  static JsonNode route(String name) {
    GenericKubernetesResource r =
        client.genericKubernetesResources("gateway.networking.k8s.io/v1", "HTTPRoute").inNamespace(ns).withName(name).get();
    return r == null ? null : JSON.valueToTree(r);
  }

  static int weight(JsonNode route, String service) {
    for (JsonNode ref : route.path("spec").path("rules").path(0).path("backendRefs")) {
      if (service.equals(ref.path("name").asText())) {
        return ref.path("weight").asInt(-1);
      }
    }
    return -1;
  }

  /** Waits until the route sends {@code canary} percent to the canary Service and the rest to the stable one. */
  static void awaitWeights(String name, int canary) {
    List<String> seen = new ArrayList<>();
    Awaitility.await(name + "-route at " + canary + "/" + (100 - canary))
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .until(() -> {
          JsonNode r = route(name + "-route");
          int c = weight(r, name + "-canary");
          int s = weight(r, name + "-stable");
          seen.add(c + "/" + s);
          return c == canary && s == 100 - canary;
        });
  }

  static Rollout awaitPausedAt(String name, int step) {
    return rollouts.await(name, name + " paused at step " + step, TIMEOUT,
        r -> r.getStatus() != null
            && "Paused".equals(r.getStatus().getPhase())
            && Integer.valueOf(step).equals(r.getStatus().getCurrentStepIndex()));
  }

  static Rollout awaitHealthy(String name, String notHash) {
    return rollouts.await(name, name + " Healthy", TIMEOUT,
        r -> r.getStatus() != null
            && "Healthy".equals(r.getStatus().getPhase())
            && r.getStatus().getStableRS() != null
            && r.getStatus().getStableRS().equals(r.getStatus().getCurrentPodHash())
            && !r.getStatus().getStableRS().equals(notHash));
  }

  @Test
  void registeredGoPluginMovesTheHttpRouteWeightsThroughTheCanary() {
    String name = "gw";
    apply("traffic/services.yaml", name);
    apply("traffic/httproute.yaml", name);
    String canary = "{\"stableService\":\"" + name + "-stable\",\"canaryService\":\"" + name + "-canary\","
        + "\"trafficRouting\":{\"plugins\":{\"" + PLUGIN + "\":{\"httpRoute\":\"" + name + "-route\",\"namespace\":\""
        + ns + "\"}}},\"steps\":[{\"setWeight\":30},{\"pause\":{}},{\"setWeight\":70},{\"pause\":{}}]}";
    rollouts.create("traffic/rollout.yaml", Map.of("NAME", name, "REPLICAS", "2", "CANARY", canary));
    Rollout first = awaitHealthy(name, null);

    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAt(name, 1);
    awaitWeights(name, 30);
    rollouts.promote(name);
    awaitPausedAt(name, 3);
    awaitWeights(name, 70);
    rollouts.promote(name);
    awaitHealthy(name, first.getStatus().getStableRS());
    awaitWeights(name, 0);

    // The registered plugin ran (through the bridge), not the built-in router of the same name.
    ControllerLog log = ControllerLog.of(controller);
    assertEquals(1, log.linesContaining(0, "plugin " + PLUGIN + " (trafficrouter) speaks go-plugin").size(),
        "one go-plugin detection in the log");
    assertTrue(!log.linesContaining(0, "plugin=" + PLUGIN + " kind=trafficrouter call=trafficrouter/setWeight").isEmpty(),
        "no setWeight call to the plugin in the log");
    List<String> children = ProcessHandle.of(controller.pid()).stream()
        .flatMap(ProcessHandle::descendants)
        .map(p -> p.info().commandLine().orElse(""))
        .toList();
    // The plugin itself runs from its verified copy in the plugin folder, as a child of the bridge.
    assertTrue(children.stream().anyMatch(c -> c.startsWith(Path.of("target", "plugins-gorouter").toAbsolutePath()
        + "/trafficrouter/argoproj-labs/gatewayAPI")), children.toString());
    assertEquals(1, children.stream().filter(c -> c.contains("rollgate-plugin-bridge --kind trafficrouter")).count(),
        children.toString());
  }

  /** Keeps the namespace of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
