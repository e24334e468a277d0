package io.rollgate.e2e.goplugins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.rollgate.api.Rollout;
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
 * The Gloo Platform traffic-router plugin of the Argo Rollouts ecosystem (argoproj-labs, unmodified
 * go-plugin binary from {@link GoPlugins#shared}), registered as {@code solo-io/glooplatform} and
 * run through the plugin bridge (docs/plugins.md, "Go plugins of Argo Rollouts"): its {@code
 * routeTableSelector} (labels, namespace) picks RouteTables and its {@code routeSelector} (labels)
 * picks routes, whose stable and canary {@code forwardTo} destinations it weights through a canary
 * with a manual promotion, and back to the stable Service on abort. Routes and RouteTables the
 * selectors leave out keep their destinations.
 */
@ExtendWith(GoGlooPlatformE2E.FailureTracker.class)
class GoGlooPlatformE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(120);
  static final String PLUGIN = "solo-io/glooplatform";
  static final String BINARY = "rollouts-plugin-trafficrouter-glooplatform-2a3a827-linux-amd64";
  static final ObjectMapper JSON = new ObjectMapper();

  static GoPluginNamespace fx;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    RouterCrds.ensure(TestCluster.get().client());
    fx =
        GoPluginNamespace.start(
            "gogloo",
            Map.of(
                "trafficRouterPlugins",
                GoPluginNamespace.registration(PLUGIN, GoPlugins.shared(BINARY))));
  }

  @AfterAll
  static void tearDown() {
    GoPluginNamespace.close(fx, failed);
  }

  static JsonNode routeTable(String name) {
    GenericKubernetesResource r =
        fx.client
            .genericKubernetesResources("networking.gloo.solo.io/v2", "RouteTable")
            .inNamespace(fx.ns)
            .withName(name)
            .get();
    return JSON.valueToTree(r);
  }

  /**
   * The destinations of one route as {@code service=weight} in order; a destination without a
   * weight (proto3 leaves out a zero) counts 0.
   */
  static List<String> destinations(String table, String route) {
    List<String> out = new ArrayList<>();
    for (JsonNode r : routeTable(table).path("spec").path("http")) {
      if (route.equals(r.path("name").asText())) {
        for (JsonNode d : r.path("forwardTo").path("destinations")) {
          out.add(d.path("ref").path("name").asText() + "=" + d.path("weight").asInt(0));
        }
      }
    }
    return out;
  }

  /**
   * Waits until the selected routes send {@code canary} percent to the canary Service, and checks
   * the others.
   */
  static void awaitWeights(String name, int canary) {
    List<String> expected = List.of(name + "-stable=" + (100 - canary), name + "-canary=" + canary);
    Awaitility.await(name + " RouteTables at " + canary + "/" + (100 - canary))
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                expected.equals(destinations(name + "-rt", "main"))
                    && expected.equals(destinations(name + "-rt-derived", "main")));
    List<String> untouched = List.of(name + "-stable=100");
    assertEquals(
        untouched,
        destinations(name + "-rt", "other"),
        "a route the routeSelector leaves out changed");
    assertEquals(
        untouched,
        destinations(name + "-unrelated", "main"),
        "a RouteTable the routeTableSelector leaves out changed");
  }

  @Test
  void selectedRoutesFollowTheCanary_throughPromotionAndAbort() {
    String name = "gloo";
    fx.apply("traffic/services.yaml", name);
    fx.apply("gloo/routetables.yaml", name);
    String canary =
        "{\"stableService\":\""
            + name
            + "-stable\",\"canaryService\":\""
            + name
            + "-canary\","
            + "\"trafficRouting\":{\"plugins\":{\""
            + PLUGIN
            + "\":{"
            + "\"routeTableSelector\":{\"labels\":{\"app\":\""
            + name
            + "\"},\"namespace\":\""
            + fx.ns
            + "\"},"
            + "\"routeSelector\":{\"labels\":{\"route\":\"main\"}}}}},"
            + "\"steps\":[{\"setWeight\":10},{\"pause\":{}},{\"setWeight\":50},{\"pause\":{}}]}";
    fx.rollouts.create(
        "traffic/rollout.yaml", Map.of("NAME", name, "REPLICAS", "2", "CANARY", canary));
    Rollout first = fx.awaitHealthy(name, null);

    // Revision 2: 10% to the canary, a manual promotion, 50%, a full promotion; everything back on
    // the stable Service.
    fx.rollouts.setImage(name, "registry.example/app:v2");
    fx.awaitPausedAt(name, 1);
    awaitWeights(name, 10);
    fx.rollouts.promote(name);
    fx.awaitPausedAt(name, 3);
    awaitWeights(name, 50);
    fx.rollouts.promote(name);
    Rollout second = fx.awaitHealthy(name, first.getStatus().getStableRS());
    awaitWeights(name, 0);

    // Revision 3: aborted at 10%, the routes go back to the stable Service.
    fx.rollouts.setImage(name, "registry.example/app:v3");
    fx.awaitPausedAt(name, 1);
    awaitWeights(name, 10);
    fx.rollouts.abort(name);
    fx.rollouts.await(
        name,
        name + " Degraded after abort",
        TIMEOUT,
        r -> r.getStatus() != null && "Degraded".equals(r.getStatus().getPhase()));
    awaitWeights(name, 0);
    assertEquals(second.getStatus().getStableRS(), fx.rollouts.get(name).getStatus().getStableRS());
  }

  /** Keeps the namespace of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
