package io.rollgate.plugins.haproxy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;

/**
 * Rollouts for the plugin's tests: a canary Rollout whose traffic is routed by the given plugin
 * entries.
 */
final class TestRollouts {

  static final String PLUGIN = "rollgate/haproxy";

  private TestRollouts() {}

  /**
   * A Rollout with {@code trafficRouting.plugins} set to the given JSON object, and optionally a
   * maxTrafficWeight.
   */
  static Rollout withPlugins(String pluginsJson, Integer maxTrafficWeight) {
    String routing =
        "{\"plugins\":"
            + pluginsJson
            + (maxTrafficWeight == null ? "" : ",\"maxTrafficWeight\":" + maxTrafficWeight)
            + "}";
    String json =
        "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"Rollout\","
            + "\"metadata\":{\"name\":\"web\",\"namespace\":\"shop\"},"
            + "\"spec\":{\"replicas\":2,\"strategy\":{\"canary\":{\"canaryService\":\"web-canary\","
            + "\"stableService\":\"web-stable\",\"trafficRouting\":"
            + routing
            + ",\"steps\":[{\"setWeight\":20}]}}}}";
    return ModelJson.fromJson(json, Rollout.class);
  }

  /** A Rollout whose {@code rollgate/haproxy} entry is the given object. */
  static Rollout withConfig(ObjectNode config) {
    return withPlugins("{\"" + PLUGIN + "\":" + config + "}", null);
  }

  /** A configuration object for {@code rollgate/haproxy}. */
  static ObjectNode config(String runtimeApi, String backend, String stable, String canary) {
    ObjectNode node = ModelJson.mapper().createObjectNode();
    node.put("runtimeApi", runtimeApi);
    node.put("backend", backend);
    node.put("stableServer", stable);
    node.put("canaryServer", canary);
    return node;
  }
}
