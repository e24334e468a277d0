package io.rollgate.controller.traffic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.controller.runtime.ReconcileContext;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Names, annotations and patterns the routers derive from the Rollout (docs/compatibility.md
 * §11.1).
 */
class RouterNamesTest {

  private static final String ROLLOUT =
      """
      metadata: {name: web, namespace: shop, uid: u-1}
      spec:
        strategy:
          canary:
            canaryService: web-canary
            stableService: web-stable
            trafficRouting:
              maxTrafficWeight: 1000
              nginx:
                stableIngress: web
                annotationPrefix: custom.nginx.org
                additionalIngressAnnotations: {canary-by-header: X-Canary, custom.nginx.org/canary-by-cookie: c}
                canaryIngressAnnotations: {example.com/x: y, custom.nginx.org/canary: "false"}
      """;

  private static final String INGRESS =
      """
      metadata: {name: web, namespace: shop, annotations: {kubernetes.io/ingress.class: nginx, other: kept-off}}
      spec:
        rules:
        - host: a.example.com
          http:
            paths:
            - {path: /, pathType: Prefix, backend: {service: {name: web-stable, port: {number: 80}}}}
            - {path: /x, pathType: Prefix, backend: {service: {name: x, port: {number: 80}}}}
        - host: b.example.com
          http:
            paths:
            - {path: /, pathType: Prefix, backend: {service: {name: x, port: {number: 80}}}}
      """;

  private static <T> T yaml(String text, Class<T> type) throws Exception {
    return ModelJson.fromJson(new YAMLMapper().readTree(text).toString(), type);
  }

  private static TrafficRequest request() throws Exception {
    Rollout r = yaml(ROLLOUT, Rollout.class);
    return new TrafficRequest(
        new ReconcileContext("Rollout", "shop", "web", 1, "test", Instant.EPOCH), r);
  }

  @Test
  void canaryIngressNameIsCutTo253Characters() {
    assertEquals("web-main-canary", NginxTrafficRouter.canaryIngressName("web", "main"));
    String long1 = "r".repeat(200);
    String long2 = "i".repeat(100);
    String name = NginxTrafficRouter.canaryIngressName(long1, long2);
    assertEquals(253, name.length());
    assertTrue(name.endsWith("-canary"));
  }

  @Test
  void canaryIngressCarriesOnlyStableRulesAndTheCanaryAnnotationsLast() throws Exception {
    TrafficRequest req = request();
    Ingress stable = yaml(INGRESS, Ingress.class);
    Ingress canary =
        NginxTrafficRouter.desiredCanary(
            req, req.trafficRouting().getNginx(), stable, "web-web-canary", 30);
    Map<String, String> a = canary.getMetadata().getAnnotations();
    assertEquals(
        "X-Canary", a.get("custom.nginx.org/canary-by-header"), "prefixed with annotationPrefix");
    assertEquals("c", a.get("custom.nginx.org/canary-by-cookie"), "already prefixed: kept as is");
    assertEquals("y", a.get("example.com/x"));
    assertEquals("true", a.get("custom.nginx.org/canary"), "canary: true always wins");
    assertEquals("30", a.get("custom.nginx.org/canary-weight"));
    assertEquals("1000", a.get("custom.nginx.org/canary-weight-total"));
    assertEquals("nginx", a.get("kubernetes.io/ingress.class"));
    assertTrue(!a.containsKey("other"));
    assertEquals(1, canary.getSpec().getRules().size(), "only rules with a stable backend");
    assertEquals(1, canary.getSpec().getRules().get(0).getHttp().getPaths().size());
    assertEquals(
        "web-canary",
        canary
            .getSpec()
            .getRules()
            .get(0)
            .getHttp()
            .getPaths()
            .get(0)
            .getBackend()
            .getService()
            .getName());
    assertEquals("u-1", canary.getMetadata().getOwnerReferences().get(0).getUid());
  }

  @Test
  void stableIngressWithoutAStableBackendIsAnError() throws Exception {
    TrafficRequest req = request();
    Ingress stable = yaml(INGRESS.replace("web-stable", "nope"), Ingress.class);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                NginxTrafficRouter.desiredCanary(
                    req, req.trafficRouting().getNginx(), stable, "c", 0));
    assertEquals("ingress `web` has no rules using service web-stable backend", e.getMessage());
  }

  @Test
  void virtualServiceReferenceMayNameItsNamespace() {
    assertArrayEquals(
        new String[] {"vs", "shop"}, IstioTrafficRouter.nameAndNamespace("vs", "shop"));
    assertArrayEquals(
        new String[] {"vs", "mesh"}, IstioTrafficRouter.nameAndNamespace("vs.mesh", "shop"));
    assertArrayEquals(
        new String[] {"vs", "mesh"},
        IstioTrafficRouter.nameAndNamespace("vs.mesh.svc.cluster.local", "shop"));
  }

  @Test
  void headerPrefixBecomesAnEscapedRegularExpression() {
    String re = "^" + GatewayApiTrafficRouter.escapeRegex("a.b+(c)") + ".*";
    assertTrue(Pattern.matches(re, "a.b+(c)-rest"));
    assertTrue(!Pattern.matches(re, "axb+(c)"));
  }
}
