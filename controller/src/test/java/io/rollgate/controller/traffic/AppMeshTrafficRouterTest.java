package io.rollgate.controller.traffic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The VirtualRouter weights and VirtualNode selector values of the App Mesh router. */
class AppMeshTrafficRouterTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  private static final String ROUTER =
      """
      metadata: {name: web-vrouter, namespace: shop}
      spec:
        listeners: [{portMapping: {port: 80, protocol: http}}]
        routes:
        - name: primary
          httpRoute:
            match: {prefix: /}
            action:
              weightedTargets:
              - {virtualNodeRef: {name: web-canary-vn}, weight: 0}
              - {virtualNodeRef: {name: web-stable-vn, namespace: shop}, weight: 100, port: 80}
        - name: grpc
          grpcRoute:
            match: {serviceName: svc}
            action:
              weightedTargets:
              - {virtualNodeRef: {name: web-stable-vn}, weight: 100}
              - {virtualNodeRef: {name: web-canary-vn}, weight: 0}
        - name: other
          tcpRoute:
            action:
              weightedTargets:
              - {virtualNodeRef: {name: a}, weight: 50}
              - {virtualNodeRef: {name: b}, weight: 50}
      """;

  private static JsonNode json(String yaml) throws Exception {
    return YAML.readTree(yaml);
  }

  private static int weight(ArrayNode routes, int route, String type, int target) {
    return routes
        .get(route)
        .path(type)
        .path("action")
        .path("weightedTargets")
        .get(target)
        .path("weight")
        .asInt();
  }

  @Test
  void setsCanaryAndStableTargetsOfEveryRoute_leavingRoutesOfOtherNodes() throws Exception {
    ArrayNode routes =
        AppMeshTrafficRouter.weightedRoutes(
            json(ROUTER), "shop", null, "web-canary-vn", "web-stable-vn", 30);
    assertEquals(30, weight(routes, 0, "httpRoute", 0));
    assertEquals(70, weight(routes, 0, "httpRoute", 1));
    assertEquals(
        80,
        routes
            .get(0)
            .path("httpRoute")
            .path("action")
            .path("weightedTargets")
            .get(1)
            .path("port")
            .asInt());
    assertEquals("/", routes.get(0).path("httpRoute").path("match").path("prefix").asText());
    assertEquals(70, weight(routes, 1, "grpcRoute", 0));
    assertEquals(30, weight(routes, 1, "grpcRoute", 1));
    assertEquals(50, weight(routes, 2, "tcpRoute", 0), "a route of other nodes is left alone");
    assertEquals(50, weight(routes, 2, "tcpRoute", 1));
  }

  @Test
  void onlyTheListedRoutesAreWeighted() throws Exception {
    ArrayNode routes =
        AppMeshTrafficRouter.weightedRoutes(
            json(ROUTER), "shop", List.of("grpc"), "web-canary-vn", "web-stable-vn", 40);
    assertEquals(0, weight(routes, 0, "httpRoute", 0), "not listed");
    assertEquals(60, weight(routes, 1, "grpcRoute", 0));
    assertEquals(40, weight(routes, 1, "grpcRoute", 1));
  }

  @Test
  void targetsInAnotherNamespaceAreNotTheRolloutsNodes() throws Exception {
    JsonNode vr =
        json(
            """
        metadata: {name: web-vrouter}
        spec:
          routes:
          - name: primary
            httpRoute:
              action:
                weightedTargets:
                - {virtualNodeRef: {name: web-canary-vn, namespace: elsewhere}, weight: 0}
                - {virtualNodeRef: {name: web-stable-vn, namespace: shop}, weight: 100}
        """);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                AppMeshTrafficRouter.weightedRoutes(
                    vr, "shop", List.of("primary"), "web-canary-vn", "web-stable-vn", 10));
    assertEquals(
        "VirtualRouter `web-vrouter`: route `primary` has no weightedTarget for the canary VirtualNode"
            + " `web-canary-vn`",
        e.getMessage());
  }

  @Test
  void malformedRoutersAreRefusedNamingTheField() throws Exception {
    assertEquals(
        "VirtualRouter `vr` has no spec.routes",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    AppMeshTrafficRouter.weightedRoutes(
                        json("metadata: {name: vr}\nspec: {}"), "shop", null, "c", "s", 10))
            .getMessage());
    JsonNode three =
        json(
            """
        metadata: {name: vr}
        spec:
          routes:
          - name: r
            httpRoute:
              action:
                weightedTargets: [{virtualNodeRef: {name: c}, weight: 1}, {virtualNodeRef: {name: s}, weight: 1},
                                  {virtualNodeRef: {name: x}, weight: 1}]
        """);
    assertEquals(
        "VirtualRouter `vr`: spec.routes[0].httpRoute.action.weightedTargets has 3 targets (r), expected 2",
        assertThrows(
                IllegalArgumentException.class,
                () -> AppMeshTrafficRouter.weightedRoutes(three, "shop", null, "c", "s", 10))
            .getMessage());
    JsonNode noType = json("metadata: {name: vr}\nspec: {routes: [{name: r, httpsRoute: {}}]}");
    assertEquals(
        "VirtualRouter `vr`: spec.routes[0] (r) has none of [httpRoute, tcpRoute, http2Route, grpcRoute]",
        assertThrows(
                IllegalArgumentException.class,
                () -> AppMeshTrafficRouter.weightedRoutes(noType, "shop", null, "c", "s", 10))
            .getMessage());
    assertEquals(
        "VirtualRouter `web-vrouter`: route `missing` listed in appMesh.virtualService.routes not found",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    AppMeshTrafficRouter.weightedRoutes(
                        json(ROUTER),
                        "shop",
                        List.of("missing"),
                        "web-canary-vn",
                        "web-stable-vn",
                        10))
            .getMessage());
    assertEquals(
        "VirtualRouter `web-vrouter`: no route has weightedTargets for both the canary VirtualNode `x` and the"
            + " stable VirtualNode `web-stable-vn`",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    AppMeshTrafficRouter.weightedRoutes(
                        json(ROUTER), "shop", null, "x", "web-stable-vn", 10))
            .getMessage());
  }

  @Test
  void virtualNodesNeverSelectTheSamePods() {
    assertArrayEquals(new String[] {"s1", "c1"}, AppMeshTrafficRouter.selectorHashes("c1", "s1"));
    assertArrayEquals(
        new String[] {"s1", "canary-hash"},
        AppMeshTrafficRouter.selectorHashes("s1", "s1"),
        "fully promoted: the canary node selects no pods");
    assertArrayEquals(
        new String[] {"s1", "canary-hash"}, AppMeshTrafficRouter.selectorHashes(null, "s1"));
    assertArrayEquals(
        new String[] {"stable-hash", "c1"}, AppMeshTrafficRouter.selectorHashes("c1", null));
  }
}
