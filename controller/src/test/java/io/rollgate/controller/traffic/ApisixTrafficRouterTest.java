package io.rollgate.controller.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.controller.runtime.ReconcileContext;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The ApisixRoute edits of the APISIX router (docs/traffic-routers.md, "APISIX"), on the objects'
 * JSON.
 */
class ApisixTrafficRouterTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  private static final String ROLLOUT =
      """
      metadata: {name: web, namespace: shop, uid: u-1}
      spec:
        strategy:
          canary:
            canaryService: web-canary
            stableService: web-stable
            trafficRouting:
              apisix:
                route: {name: web-route, rules: [main]}
      """;

  private static final String ROUTE =
      """
      apiVersion: apisix.apache.org/v2
      kind: ApisixRoute
      metadata: {name: web-route, namespace: shop, resourceVersion: "3", uid: r-1, labels: {team: a}}
      spec:
        http:
        - name: main
          priority: 2
          match: {paths: [/*], hosts: [web.example.com]}
          backends:
          - {serviceName: web-stable, servicePort: 80, weight: 100}
          - {serviceName: web-canary, servicePort: 80, weight: 0}
        - name: other
          match: {paths: [/other]}
          backends:
          - {serviceName: other, servicePort: 80}
      """;

  private static TrafficRequest request(String yaml) throws Exception {
    Rollout r = ModelJson.fromJson(YAML.readTree(yaml).toString(), Rollout.class);
    return new TrafficRequest(
        new ReconcileContext("Rollout", "shop", "web", 1, "test", Instant.EPOCH), r);
  }

  private static SetHeaderRoute route(String yaml) throws Exception {
    return ModelJson.fromJson(YAML.readTree(yaml).toString(), SetHeaderRoute.class);
  }

  @Test
  void weightsTheCanaryAndStableBackendsOfTheNamedRules() throws Exception {
    ArrayNode http = (ArrayNode) YAML.readTree(ROUTE).path("spec").path("http");
    ApisixTrafficRouter.setWeights(request(ROLLOUT), http, 30);
    assertEquals(70, http.path(0).path("backends").path(0).path("weight").asInt());
    assertEquals(30, http.path(0).path("backends").path(1).path("weight").asInt());
    assertEquals(
        false, http.path(1).path("backends").path(0).has("weight"), "other rules untouched");
  }

  @Test
  void defaultsTheRuleToTheRouteName_andNamesWhatIsMissing() throws Exception {
    TrafficRequest req = request(ROLLOUT.replace(", rules: [main]", ""));
    ArrayNode http = (ArrayNode) YAML.readTree(ROUTE).path("spec").path("http");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> ApisixTrafficRouter.setWeights(req, http, 30));
    assertEquals("Apisix http route rule web-route not found", e.getMessage());
    TrafficRequest noCanary =
        request(ROLLOUT.replace("canaryService: web-canary", "canaryService: nope"));
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ApisixTrafficRouter.setWeights(noCanary, http, 30));
    assertEquals("apisix route nope backend was not found", e.getMessage());
  }

  @Test
  void headerRouteIsACopyWithOnlyTheCanary_aHigherPriority_andTheHeaderExpressions()
      throws Exception {
    GenericKubernetesResource base =
        ModelJson.fromJson(YAML.readTree(ROUTE).toString(), GenericKubernetesResource.class);
    SetHeaderRoute hr =
        route(
            """
            name: set-header
            match:
            - {headerName: trace, headerValue: {exact: debug}}
            - {headerName: agent, headerValue: {prefix: Moz}}
            - {headerName: id, headerValue: {regex: "[0-9]+"}}
            """);
    JsonNode copy =
        ModelJson.mapper()
            .valueToTree(ApisixTrafficRouter.headerRouteCopy(request(ROLLOUT), base, hr));
    assertEquals("set-header", copy.path("metadata").path("name").asText());
    assertEquals("a", copy.path("metadata").path("labels").path("team").asText());
    assertEquals("", copy.path("metadata").path("resourceVersion").asText(), "a fresh object");
    JsonNode owner = copy.path("metadata").path("ownerReferences").path(0);
    assertEquals("Rollout", owner.path("kind").asText());
    assertEquals("u-1", owner.path("uid").asText());
    assertEquals(true, owner.path("controller").asBoolean());
    JsonNode main = copy.path("spec").path("http").path(0);
    assertEquals(1, main.path("backends").size());
    assertEquals("web-canary", main.path("backends").path(0).path("serviceName").asText());
    assertEquals(100, main.path("backends").path(0).path("weight").asInt());
    assertEquals(3, main.path("priority").asInt());
    assertEquals(
        "web.example.com",
        main.path("match").path("hosts").path(0).asText(),
        "other match fields kept");
    assertEquals(
        YAML.readTree(
            """
            - {subject: {scope: Header, name: trace}, op: Equal, value: debug}
            - {subject: {scope: Header, name: agent}, op: RegexMatch, value: ^Moz.*}
            - {subject: {scope: Header, name: id}, op: RegexMatch, value: "[0-9]+"}
            """),
        main.path("match").path("exprs"));
  }
}
