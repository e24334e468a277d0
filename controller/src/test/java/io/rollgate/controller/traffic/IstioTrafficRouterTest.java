package io.rollgate.controller.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rollgate.api.IstioDestinationRule;
import io.rollgate.api.IstioVirtualService;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.runtime.ReconcileContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The VirtualService and DestinationRule edits of the Istio router (docs/compatibility.md §11.1),
 * on the objects' JSON.
 */
class IstioTrafficRouterTest {

  private static final YAMLMapper YAML = new YAMLMapper();
  private static final String HASH = "rollouts-pod-template-hash";

  private static TrafficRequest request(String rolloutYaml) throws Exception {
    Rollout r = ModelJson.fromJson(YAML.readTree(rolloutYaml).toString(), Rollout.class);
    return new TrafficRequest(
        new ReconcileContext("Rollout", "shop", "web", 1, "test", Instant.EPOCH), r);
  }

  private static ObjectNode json(String yaml) throws Exception {
    return (ObjectNode) YAML.readTree(yaml);
  }

  private static IstioVirtualService vs(TrafficRequest req) {
    return req.trafficRouting().getIstio().getVirtualService();
  }

  private static List<String> hosts(JsonNode route) {
    List<String> out = new ArrayList<>();
    route
        .path("route")
        .forEach(
            d ->
                out.add(
                    d.path("destination").path("host").asText() + "=" + d.path("weight").asInt()));
    return out;
  }

  private static WeightDestination experiment(String service, int weight, String hash) {
    WeightDestination d = new WeightDestination();
    d.setServiceName(service);
    d.setWeight(weight);
    d.setPodTemplateHash(hash);
    return d;
  }

  private static final String TLS_ONLY_ROLLOUT =
      """
      metadata: {name: web, namespace: shop}
      spec:
        strategy:
          canary:
            canaryService: web-canary
            stableService: web-stable
            trafficRouting:
              istio:
                virtualService:
                  name: web-vsvc
                  routes: [primary]
                  tlsRoutes:
                  - port: 3000
                    sniHosts: [web]
      """;

  @Test
  void weightsTheTlsRoutes_whenTheVirtualServiceHasNoHttpSection() throws Exception {
    TrafficRequest req = request(TLS_ONLY_ROLLOUT);
    ObjectNode spec =
        json(
            """
        hosts: [web]
        tls:
        - match: [{port: 3000, sniHosts: [web]}]
          route:
          - {destination: {host: web-stable}, weight: 100}
          - {destination: {host: web-canary}, weight: 0}
        """);
    IstioTrafficRouter.applyWeight(req, vs(req), spec, 10, List.of());
    assertEquals(List.of("web-stable=90", "web-canary=10"), hosts(spec.path("tls").path(0)));
    assertFalse(spec.has("http"), "no http section is created");
  }

  @Test
  void reportsTheMissingHttpRoute_whenTheVirtualServiceHasAnHttpSectionWithoutIt()
      throws Exception {
    TrafficRequest req = request(TLS_ONLY_ROLLOUT);
    ObjectNode spec =
        json(
            """
        http:
        - name: other
          route: [{destination: {host: web-stable}, weight: 100}]
        tls:
        - match: [{port: 3000, sniHosts: [web]}]
          route:
          - {destination: {host: web-stable}, weight: 100}
          - {destination: {host: web-canary}, weight: 0}
        """);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> IstioTrafficRouter.applyWeight(req, vs(req), spec, 10, List.of()));
    assertTrue(e.getMessage().contains("HTTP Route 'primary' is not found"), e.getMessage());
  }

  private static final String PING_PONG_ROLLOUT =
      """
      metadata: {name: web, namespace: shop}
      spec:
        strategy:
          canary:
            pingPong: {pingService: ping, pongService: pong}
            trafficRouting:
              istio:
                virtualService: {name: web-vsvc, routes: [primary]}
      status:
        canary: {stablePingPong: %s}
      """;

  @Test
  void keepsTheOrderOfTheDestinations_whenPingAndPongSwapRoles() throws Exception {
    ObjectNode spec =
        json(
            """
        http:
        - name: primary
          route:
          - {destination: {host: ping}, weight: 75}
          - {destination: {host: pong}, weight: 25}
        """);
    TrafficRequest pingStable = request(PING_PONG_ROLLOUT.formatted("ping"));
    IstioTrafficRouter.applyWeight(pingStable, vs(pingStable), spec, 100, List.of());
    assertEquals(List.of("ping=0", "pong=100"), hosts(spec.path("http").path(0)));

    TrafficRequest pongStable = request(PING_PONG_ROLLOUT.formatted("pong"));
    IstioTrafficRouter.applyWeight(pongStable, vs(pongStable), spec, 0, List.of());
    assertEquals(
        List.of("ping=0", "pong=100"),
        hosts(spec.path("http").path(0)),
        "pong stable: all traffic on pong");

    IstioTrafficRouter.applyWeight(pongStable, vs(pongStable), spec, 25, List.of());
    assertEquals(List.of("ping=25", "pong=75"), hosts(spec.path("http").path(0)));
  }

  private static final String SUBSET_ROLLOUT =
      """
      metadata: {name: web, namespace: shop}
      spec:
        strategy:
          canary:
            trafficRouting:
              istio:
                virtualService: {name: web-vsvc, routes: [primary]}
                destinationRule:
                  name: web-destrule
                  canarySubsetName: canary
                  stableSubsetName: stable
                  additionalSubsetNames: [extra]
      """;

  @Test
  void appendsAndThenUpdatesTheExperimentDestination_whenAnExperimentStepHasAWeight()
      throws Exception {
    TrafficRequest req = request(SUBSET_ROLLOUT);
    ObjectNode spec =
        json(
            """
        http:
        - name: primary
          route:
          - {destination: {host: web, subset: stable}, weight: 90}
          - {destination: {host: web, subset: canary}, weight: 10}
          - {destination: {host: web, subset: extra}, weight: 0}
        """);
    IstioTrafficRouter.applyWeight(
        req, vs(req), spec, 10, List.of(experiment("web-exp", 20, "h3")));
    assertEquals(
        List.of("web=70", "web=10", "web=0", "web-exp=20"), hosts(spec.path("http").path(0)));
    IstioTrafficRouter.applyWeight(
        req, vs(req), spec, 10, List.of(experiment("web-exp", 30, "h3")));
    assertEquals(
        List.of("web=60", "web=10", "web=0", "web-exp=30"), hosts(spec.path("http").path(0)));
    IstioTrafficRouter.applyWeight(req, vs(req), spec, 0, List.of());
    assertEquals(
        List.of("web=100", "web=0", "web=0"),
        hosts(spec.path("http").path(0)),
        "experiment destination removed");
  }

  private static final String SUBSETS =
      """
      - name: stable
        labels: {app: web, rollouts-pod-template-hash: h1}
      - name: canary
        labels: {app: web, rollouts-pod-template-hash: h1}
      - name: extra
        labels: {app: web, rollouts-pod-template-hash: hx}
      - name: user
        labels: {version: v9}
      """;

  private static IstioDestinationRule destinationRule(TrafficRequest req) {
    return req.trafficRouting().getIstio().getDestinationRule();
  }

  @Test
  void addsOneSubsetPerWeightedExperimentTemplate_andRemovesItWhenTheExperimentIsOver()
      throws Exception {
    TrafficRequest req = request(SUBSET_ROLLOUT);
    IstioDestinationRule dr = destinationRule(req);
    ArrayNode during =
        IstioTrafficRouter.desiredSubsets(
            dr,
            YAML.readTree(SUBSETS),
            "h2",
            "h1",
            List.of(experiment("web-exp-a", 20, "h3"), experiment("web-exp-b", 10, "h4")));
    assertEquals(6, during.size(), during.toString());
    assertEquals("h1", during.path(0).path("labels").path(HASH).asText());
    assertEquals("h2", during.path(1).path("labels").path(HASH).asText());
    assertEquals(
        "hx",
        during.path(2).path("labels").path(HASH).asText(),
        "additionalSubsetNames are left alone");
    assertEquals(
        "v9",
        during.path(3).path("labels").path("version").asText(),
        "the user's subsets are kept");
    assertEquals("web-exp-a", during.path(4).path("name").asText());
    assertEquals("h3", during.path(4).path("labels").path(HASH).asText());
    assertEquals("web-exp-b", during.path(5).path("name").asText());
    assertEquals("h4", during.path(5).path("labels").path(HASH).asText());

    ArrayNode again =
        IstioTrafficRouter.desiredSubsets(
            dr,
            during,
            "h2",
            "h1",
            List.of(experiment("web-exp-a", 20, "h3"), experiment("web-exp-b", 10, "h4")));
    assertEquals(during, again, "nothing changes on the next pass");

    ArrayNode after = IstioTrafficRouter.desiredSubsets(dr, during, "h2", "h2", List.of());
    assertEquals(4, after.size(), after.toString());
    assertEquals(
        List.of("stable", "canary", "extra", "user"),
        List.of(
            after.path(0).path("name").asText(),
            after.path(1).path("name").asText(),
            after.path(2).path("name").asText(),
            after.path(3).path("name").asText()));
  }

  @Test
  void failsNamingTheSubsets_whenTheCanarySubsetIsMissing() throws Exception {
    TrafficRequest req = request(SUBSET_ROLLOUT);
    JsonNode subsets = YAML.readTree("- {name: stable, labels: {app: web}}");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                IstioTrafficRouter.desiredSubsets(
                    destinationRule(req), subsets, "h2", "h1", List.of()));
    assertTrue(e.getMessage().contains("`canary`"), e.getMessage());
  }

  @Test
  void releaseRemovesTheAnnotationAndTheSubsetHashes_butKeepsTheOtherLabels() throws Exception {
    ObjectNode dr =
        json(
            """
        metadata:
          name: web-destrule
          resourceVersion: "42"
          annotations: {argo-rollouts.argoproj.io/managed-by-rollouts: web, other: kept}
        spec:
          host: web
          subsets:
          - name: stable
            labels: {app: web, rollouts-pod-template-hash: h1}
          - name: canary
            labels: {app: web, rollouts-pod-template-hash: h2}
          - name: plain
        """);
    ObjectNode patch = IstioTrafficRouter.releasePatch(dr);
    assertEquals("42", patch.path("metadata").path("resourceVersion").asText());
    assertTrue(
        patch
            .path("metadata")
            .path("annotations")
            .path("argo-rollouts.argoproj.io/managed-by-rollouts")
            .isNull());
    assertFalse(
        patch.path("metadata").path("annotations").has("other"),
        "other annotations are not touched");
    JsonNode subsets = patch.path("spec").path("subsets");
    assertEquals(3, subsets.size());
    assertFalse(subsets.path(0).path("labels").has(HASH));
    assertFalse(subsets.path(1).path("labels").has(HASH));
    assertEquals("web", subsets.path(1).path("labels").path("app").asText());
    assertFalse(subsets.path(2).has("labels"), "a subset without labels stays without");
  }

  @Test
  void asksForTheStableHashAsCanaryAfterAnAbort() {
    assertTrue(new IstioTrafficRouter(null, null, "v1alpha3").canaryFollowsStableOnAbort());
  }
}
