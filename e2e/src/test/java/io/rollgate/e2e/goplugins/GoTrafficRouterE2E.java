package io.rollgate.e2e.goplugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.GoPlugins;
import io.rollgate.e2e.support.RouterCrds;
import io.rollgate.e2e.support.TestCluster;
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
 * The Gateway API traffic-router plugin of the Argo Rollouts ecosystem (argoproj-labs, v0.15.0,
 * built against argo-rollouts v1.6: an old go-plugin binary, unmodified, see {@link
 * GoPlugins#shared}) registered under its own name {@code argoproj-labs/gatewayAPI}: the
 * registration takes precedence over Rollgate's built-in router of that name, the controller
 * detects go-plugin and runs it through the bridge, and the plugin moves the HTTPRoute's backendRef
 * weights through a canary (docs/plugins.md, "Go plugins of Argo Rollouts", "Precedence").
 */
@ExtendWith(GoTrafficRouterE2E.FailureTracker.class)
class GoTrafficRouterE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(120);
  static final String PLUGIN = "argoproj-labs/gatewayAPI";
  static final String BINARY = "rollouts-plugin-trafficrouter-gatewayapi-v0.15.0-linux-amd64";
  static final ObjectMapper JSON = new ObjectMapper();

  static GoPluginNamespace fx;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    RouterCrds.ensure(TestCluster.get().client());
    fx =
        GoPluginNamespace.start(
            "gorouter",
            Map.of(
                "trafficRouterPlugins",
                GoPluginNamespace.registration(PLUGIN, GoPlugins.shared(BINARY))));
  }

  @AfterAll
  static void tearDown() {
    GoPluginNamespace.close(fx, failed);
  }

  static JsonNode route(String name) {
    GenericKubernetesResource r =
        fx.client
            .genericKubernetesResources("gateway.networking.k8s.io/v1", "HTTPRoute")
            .inNamespace(fx.ns)
            .withName(name)
            .get();
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

  /**
   * Waits until the route sends {@code canary} percent to the canary Service and the rest to the
   * stable one.
   */
  static void awaitWeights(String name, int canary) {
    List<String> seen = new ArrayList<>();
    Awaitility.await(name + "-route at " + canary + "/" + (100 - canary))
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              JsonNode r = route(name + "-route");
              int c = weight(r, name + "-canary");
              int s = weight(r, name + "-stable");
              seen.add(c + "/" + s);
              return c == canary && s == 100 - canary;
            });
  }

  @Test
  void registeredGoPluginMovesTheHttpRouteWeightsThroughTheCanary() {
    String name = "gw";
    fx.apply("traffic/services.yaml", name);
    fx.apply("traffic/httproute.yaml", name);
    String canary =
        "{\"stableService\":\""
            + name
            + "-stable\",\"canaryService\":\""
            + name
            + "-canary\","
            + "\"trafficRouting\":{\"plugins\":{\""
            + PLUGIN
            + "\":{\"httpRoute\":\""
            + name
            + "-route\",\"namespace\":\""
            + fx.ns
            + "\"}}},\"steps\":[{\"setWeight\":30},{\"pause\":{}},{\"setWeight\":70},{\"pause\":{}}]}";
    fx.rollouts.create(
        "traffic/rollout.yaml", Map.of("NAME", name, "REPLICAS", "2", "CANARY", canary));
    Rollout first = fx.awaitHealthy(name, null);

    fx.rollouts.setImage(name, "registry.example/app:v2");
    fx.awaitPausedAt(name, 1);
    awaitWeights(name, 30);
    fx.rollouts.promote(name);
    fx.awaitPausedAt(name, 3);
    awaitWeights(name, 70);
    fx.rollouts.promote(name);
    fx.awaitHealthy(name, first.getStatus().getStableRS());
    awaitWeights(name, 0);

    // The registered plugin ran (through the bridge), not the built-in router of the same name.
    ControllerLog log = ControllerLog.of(fx.controller);
    assertEquals(
        1,
        log.linesContaining(0, "plugin " + PLUGIN + " (trafficrouter) speaks go-plugin").size(),
        "one go-plugin detection in the log");
    assertTrue(
        !log.linesContaining(
                0, "plugin=" + PLUGIN + " kind=trafficrouter call=trafficrouter/setWeight")
            .isEmpty(),
        "no setWeight call to the plugin in the log");
    List<String> children =
        ProcessHandle.of(fx.controller.pid()).stream()
            .flatMap(ProcessHandle::descendants)
            .map(p -> p.info().commandLine().orElse(""))
            .toList();
    // The plugin itself runs from its verified copy in the plugin folder, as a child of the bridge.
    assertTrue(
        children.stream()
            .anyMatch(
                c ->
                    c.startsWith(
                        GoPluginNamespace.pluginDir("gorouter")
                            + "/trafficrouter/argoproj-labs/gatewayAPI")),
        children.toString());
    assertEquals(
        1,
        children.stream()
            .filter(c -> c.contains("rollgate-plugin-bridge --kind trafficrouter"))
            .count(),
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
