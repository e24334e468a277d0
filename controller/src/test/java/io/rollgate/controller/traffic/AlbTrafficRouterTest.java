package io.rollgate.controller.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.runtime.ReconcileContext;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The annotation values the ALB router writes and reads (docs/traffic-routers.md, "AWS ALB"). */
class AlbTrafficRouterTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  private static final String ROLLOUT =
      """
      metadata: {name: web, namespace: shop}
      spec:
        strategy:
          canary:
            canaryService: web-canary
            stableService: web-stable
            trafficRouting:
              managedRoutes: [{name: second}, {name: first}]
              alb:
                ingress: web
                rootService: web-root
                servicePort: 80
      """;

  private static final String INGRESS =
      """
      metadata: {name: web, namespace: shop, resourceVersion: "7", annotations: {kubernetes.io/ingress.class: alb}}
      spec:
        rules:
        - host: a.example.com
          http:
            paths:
            - {path: /, pathType: Prefix, backend: {service: {name: web-root, port: {name: use-annotation}}}}
        - host: b.example.com
          http:
            paths:
            - {path: /, pathType: Prefix, backend: {service: {name: other, port: {number: 80}}}}
      """;

  private static <T> T yaml(String text, Class<T> type) throws Exception {
    return ModelJson.fromJson(YAML.readTree(text).toString(), type);
  }

  private static TrafficRequest request(String rolloutYaml) throws Exception {
    return new TrafficRequest(
        new ReconcileContext("Rollout", "shop", "web", 1, "test", Instant.EPOCH),
        yaml(rolloutYaml, Rollout.class));
  }

  private static WeightDestination experiment(String service, int weight) {
    WeightDestination d = new WeightDestination();
    d.setServiceName(service);
    d.setWeight(weight);
    return d;
  }

  @Test
  void writesTheForwardActionByteForByte_withExperimentServicesBetweenCanaryAndStable()
      throws Exception {
    TrafficRequest req = request(ROLLOUT);
    assertEquals(
        "{\"Type\":\"forward\",\"ForwardConfig\":{\"TargetGroups\":["
            + "{\"ServiceName\":\"web-canary\",\"ServicePort\":\"80\",\"Weight\":10},"
            + "{\"ServiceName\":\"web-ex-1\",\"ServicePort\":\"80\",\"Weight\":20},"
            + "{\"ServiceName\":\"web-stable\",\"ServicePort\":\"80\",\"Weight\":70}]}}",
        AlbTrafficRouter.weightAction(req, 10, List.of(experiment("web-ex-1", 20))));
    assertEquals(
        "{\"Type\":\"forward\",\"ForwardConfig\":{\"TargetGroups\":["
            + "{\"ServiceName\":\"web-canary\",\"ServicePort\":\"80\",\"Weight\":0},"
            + "{\"ServiceName\":\"web-stable\",\"ServicePort\":\"80\",\"Weight\":100}]}}",
        AlbTrafficRouter.weightAction(req, 0, List.of()));
  }

  @Test
  void addsTargetGroupStickiness_whenEnabled() throws Exception {
    TrafficRequest req =
        request(
            ROLLOUT.replace(
                "servicePort: 80",
                "servicePort: 80\n          stickinessConfig: {enabled: true, durationSeconds: 300}"));
    assertEquals(
        "{\"Type\":\"forward\",\"ForwardConfig\":{\"TargetGroups\":["
            + "{\"ServiceName\":\"web-canary\",\"ServicePort\":\"80\",\"Weight\":25},"
            + "{\"ServiceName\":\"web-stable\",\"ServicePort\":\"80\",\"Weight\":75}],"
            + "\"TargetGroupStickinessConfig\":{\"Enabled\":true,\"DurationSeconds\":300}}}",
        AlbTrafficRouter.weightAction(req, 25, List.of()));
    TrafficRequest off =
        request(
            ROLLOUT.replace(
                "servicePort: 80",
                "servicePort: 80\n          stickinessConfig: {enabled: false, durationSeconds: 0}"));
    assertFalse(AlbTrafficRouter.weightAction(off, 25, List.of()).contains("Stickiness"));
  }

  @Test
  void refusesAStickinessDurationOutsideTheAwsRange() throws Exception {
    TrafficRequest req =
        request(
            ROLLOUT.replace(
                "servicePort: 80",
                "servicePort: 80\n          stickinessConfig: {enabled: true, durationSeconds: 604801}"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> AlbTrafficRouter.weightAction(req, 25, List.of()));
    assertTrue(
        e.getMessage().contains("stickinessConfig.durationSeconds must be between 1 and 604800"),
        e.getMessage());
  }

  @Test
  void usesPingAndPongAsStableAndCanary_andSwapsThemWithStablePingPong() throws Exception {
    String pingPong =
        ROLLOUT.replace(
            "canaryService: web-canary\n      stableService: web-stable\n",
            "pingPong: {pingService: ping, pongService: pong}\n");
    TrafficRequest ping = request(pingPong + "status: {canary: {stablePingPong: ping}}\n");
    assertEquals(
        List.of("pong=30", "ping=70"), groups(AlbTrafficRouter.weightAction(ping, 30, List.of())));
    TrafficRequest pong = request(pingPong + "status: {canary: {stablePingPong: pong}}\n");
    assertEquals(
        List.of("ping=30", "pong=70"), groups(AlbTrafficRouter.weightAction(pong, 30, List.of())));
  }

  private static List<String> groups(String action) {
    return AlbActions.parseTargetGroups(action).stream()
        .map(g -> g.serviceName() + "=" + g.weight())
        .toList();
  }

  @Test
  void mergesExactMatchesOnOneHeader_andRefusesPrefixMatches() throws Exception {
    SetHeaderRoute route =
        yaml(
            """
            name: first
            match:
            - {headerName: X-Canary, headerValue: {exact: "a<b"}}
            - {headerName: User-Agent, headerValue: {exact: "Mozilla*"}}
            - {headerName: X-Canary, headerValue: {exact: c}}
            """,
            SetHeaderRoute.class);
    assertEquals(
        "[{\"field\":\"http-header\",\"httpHeaderConfig\":{\"httpHeaderName\":\"X-Canary\",\"values\":[\"a\\u003cb\",\"c\"]}},"
            + "{\"field\":\"http-header\",\"httpHeaderConfig\":{\"httpHeaderName\":\"User-Agent\",\"values\":[\"Mozilla*\"]}}]",
        AlbTrafficRouter.headerConditions(route));
    SetHeaderRoute prefix =
        yaml(
            "name: first\nmatch:\n- {headerName: X-Canary, headerValue: {prefix: a}}\n",
            SetHeaderRoute.class);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> AlbTrafficRouter.headerConditions(prefix));
    assertEquals(
        "setHeaderRoute `first` match[0].headerValue: the ALB router supports only `exact` (with the ALB wildcards * and ?)",
        e.getMessage());
  }

  @Test
  void headerActionSendsEverythingToTheCanary() throws Exception {
    assertEquals(
        "{\"Type\":\"forward\",\"ForwardConfig\":{\"TargetGroups\":[{\"ServiceName\":\"web-canary\",\"ServicePort\":\"80\",\"Weight\":100}]}}",
        AlbTrafficRouter.headerAction(request(ROLLOUT)));
  }

  @Test
  void bookkeepingIsSortedByRolloutAndKeepsKeyOrder() {
    Map<String, String> ann = new LinkedHashMap<>();
    ann.put(AlbActions.MANAGED_ANNOTATIONS, "{\"zeta\":[\"k\"]}");
    AlbTrafficRouter.manage(ann, "alpha", true, List.of("p/actions.r", "p/conditions.r"));
    AlbTrafficRouter.manage(ann, "alpha", true, List.of("p/actions.r"));
    assertEquals(
        "{\"alpha\":[\"p/actions.r\",\"p/conditions.r\"],\"zeta\":[\"k\"]}",
        ann.get(AlbActions.MANAGED_ANNOTATIONS));
    AlbTrafficRouter.manage(ann, "alpha", false, List.of("p/actions.r", "p/conditions.r"));
    assertEquals("{\"alpha\":[],\"zeta\":[\"k\"]}", ann.get(AlbActions.MANAGED_ANNOTATIONS));
    assertEquals(
        Map.of("alpha", List.of(), "zeta", List.of("k")),
        AlbActions.parseManaged(ann.get(AlbActions.MANAGED_ANNOTATIONS)));
  }

  @Test
  void refusesABookkeepingAnnotationThatIsNotAMapOfLists() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> AlbActions.parseManaged("web:alb.ingress.kubernetes.io/actions.x"));
    assertTrue(
        e.getMessage()
            .startsWith(
                "annotation rollouts.argoproj.io/managed-alb-annotations is not valid JSON"),
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> AlbActions.parseManaged("{\"web\":\"x\"}"));
  }

  @Test
  void escapesStringsAsGoDoes() {
    StringBuilder b = new StringBuilder();
    AlbActions.string(b, "q\"\\\n\t\u0001&>\u2028é");
    assertEquals("\"q\\\"\\\\\\n\\t\\u0001\\u0026\\u003e\\u2028é\"", b.toString());
  }

  @Test
  void patchesOnlyChangedAnnotations_withTheResourceVersion() throws Exception {
    Ingress ing = yaml(INGRESS, Ingress.class);
    Map<String, String> want = new LinkedHashMap<>(ing.getMetadata().getAnnotations());
    assertNull(AlbTrafficRouter.patch(ing, want, null));
    want.put("alb.ingress.kubernetes.io/actions.web-root", "{}");
    want.remove("kubernetes.io/ingress.class");
    JsonNode patch = YAML.readTree(AlbTrafficRouter.patch(ing, want, null));
    assertEquals("7", patch.path("metadata").path("resourceVersion").asText());
    assertEquals(
        "{}",
        patch
            .path("metadata")
            .path("annotations")
            .path("alb.ingress.kubernetes.io/actions.web-root")
            .asText());
    assertTrue(
        patch.path("metadata").path("annotations").path("kubernetes.io/ingress.class").isNull());
    assertFalse(patch.has("spec"));
  }

  @Test
  void headerPathUsesTheAnnotationPort() throws Exception {
    Ingress ing = yaml(INGRESS, Ingress.class);
    assertTrue(AlbTrafficRouter.hasRuleWithService(ing, "web-root"));
    assertFalse(AlbTrafficRouter.hasRuleWithService(ing, "first"));
    var p = AlbTrafficRouter.headerPath("first");
    assertEquals("/*", p.getPath());
    assertEquals("ImplementationSpecific", p.getPathType());
    assertEquals("first", p.getBackend().getService().getName());
    assertEquals("use-annotation", p.getBackend().getService().getPort().getName());
  }

  @Test
  void ingressesPreferTheListOverTheSingleName() throws Exception {
    TrafficRequest req =
        request(ROLLOUT.replace("ingress: web", "ingress: web\n          ingresses: [a, b]"));
    assertEquals(List.of("a", "b"), AlbTrafficRouter.ingresses(req.trafficRouting().getAlb()));
    assertEquals(
        List.of("web"), AlbTrafficRouter.ingresses(request(ROLLOUT).trafficRouting().getAlb()));
    assertEquals(
        "alb.ingress.kubernetes.io", AlbTrafficRouter.prefix(req.trafficRouting().getAlb()));
    assertEquals("web-root", AlbTrafficRouter.actionService(req));
  }

  @Test
  void releasingADeletedRolloutResetsItsActionsToTheirOwnService() throws Exception {
    Ingress ing = yaml(INGRESS, Ingress.class);
    Map<String, String> ann = ing.getMetadata().getAnnotations();
    ann.put(
        "alb.ingress.kubernetes.io/actions.web-stable",
        "{\"Type\":\"forward\",\"ForwardConfig\":{\"TargetGroups\":[{\"ServiceName\":\"web-canary\",\"ServicePort\":\"8080\",\"Weight\":30},"
            + "{\"ServiceName\":\"web-stable\",\"ServicePort\":\"8080\",\"Weight\":70}],"
            + "\"TargetGroupStickinessConfig\":{\"Enabled\":true,\"DurationSeconds\":60}}}");
    ann.put(
        "alb.ingress.kubernetes.io/actions.hdr",
        "{\"Type\":\"forward\",\"ForwardConfig\":{\"TargetGroups\":[]}}");
    ann.put(AlbActions.MANAGED_ACTIONS_LEGACY, "web:alb.ingress.kubernetes.io/actions.web-stable");
    ann.put(
        AlbActions.MANAGED_ANNOTATIONS,
        "{\"other\":[\"x\"],\"web\":[\"alb.ingress.kubernetes.io/actions.web-stable\",\"alb.ingress.kubernetes.io/actions.hdr\"]}");
    Map<String, String> out = AlbTrafficRouter.released(ing, "web");
    assertEquals(
        "{\"Type\":\"forward\",\"ForwardConfig\":{\"TargetGroups\":[{\"ServiceName\":\"web-stable\",\"ServicePort\":\"8080\",\"Weight\":100}],"
            + "\"TargetGroupStickinessConfig\":{\"Enabled\":true,\"DurationSeconds\":60}}}",
        out.get("alb.ingress.kubernetes.io/actions.web-stable"));
    assertEquals(
        ann.get("alb.ingress.kubernetes.io/actions.hdr"),
        out.get("alb.ingress.kubernetes.io/actions.hdr"),
        "no Service of the header route's name among its target groups: left as it is");
    assertEquals("{\"other\":[\"x\"]}", out.get(AlbActions.MANAGED_ANNOTATIONS));
    assertFalse(out.containsKey(AlbActions.MANAGED_ACTIONS_LEGACY));
    ann.put(AlbActions.MANAGED_ANNOTATIONS, "{\"web\":[]}");
    assertFalse(
        AlbTrafficRouter.released(ing, "web").containsKey(AlbActions.MANAGED_ANNOTATIONS),
        "last entry: annotation removed");
  }
}
