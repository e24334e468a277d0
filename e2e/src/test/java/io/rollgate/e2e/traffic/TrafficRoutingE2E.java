package io.rollgate.e2e.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rollgate.api.Rollout;
import io.rollgate.api.TrafficWeights;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.RouterCrds;
import io.rollgate.e2e.support.TestCluster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Canary Rollouts that shift traffic through routers (NGINX Ingress, Gateway API HTTPRoute, SMI
 * TrafficSplit), driven the way a user drives them; after each step the router objects in the API
 * server are checked: weights, header and mirror rules and their order, ingress class, TLS and
 * annotations, and the stable/canary Service selectors.
 */
@ExtendWith(TrafficRoutingE2E.FailureTracker.class)
class TrafficRoutingE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final String HASH = "rollouts-pod-template-hash";
  static final String MANAGED_BY = "argo-rollouts.argoproj.io/managed-by-rollouts";
  static final String DEADLINE = "scale-down-deadline";
  static final String GATEWAY = "argoproj-labs/gatewayAPI";
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
    ns = cluster.createNamespace("traffic");
    rollouts = new Rollouts(client, ns);
    controller = ControllerProcess.start(cluster, "traffic", "--namespace", ns);
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

  // -------------------------------------------------------------------------------------------------------------
  // Fixtures

  static String read(String resource) {
    try (InputStream in = TrafficRoutingE2E.class.getClassLoader().getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static void apply(String resource, Map<String, String> vars) {
    String yaml = read(resource);
    for (Map.Entry<String, String> e : vars.entrySet()) {
      yaml = yaml.replace("${" + e.getKey() + "}", e.getValue());
    }
    for (HasMetadata item :
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(item).inNamespace(ns).create();
    }
  }

  /**
   * The canary strategy as JSON: Services {@code <name>-stable}/{@code <name>-canary} plus the
   * given fields.
   */
  static String canary(String name, String trafficRouting, String steps, String extra) {
    return "{\"stableService\":\""
        + name
        + "-stable\",\"canaryService\":\""
        + name
        + "-canary\""
        + (trafficRouting == null ? "" : ",\"trafficRouting\":" + trafficRouting)
        + ",\"steps\":"
        + steps
        + (extra == null || extra.isEmpty() ? "" : "," + extra)
        + "}";
  }

  static String gatewayApi(String name) {
    return "{\"plugins\":{\"" + GATEWAY + "\":{\"httpRoute\":\"" + name + "-route\"}}}";
  }

  static Rollout createRollout(String name, int replicas, String canaryJson) {
    Map<String, String> v = new HashMap<>();
    v.put("NAME", name);
    v.put("REPLICAS", String.valueOf(replicas));
    v.put("CANARY", canaryJson);
    rollouts.create("traffic/rollout.yaml", v);
    return awaitHealthy(name);
  }

  static Map<String, String> vars(String name) {
    Map<String, String> v = new HashMap<>();
    v.put("NAME", name);
    return v;
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

  static Rollout awaitPausedAt(String name, int step) {
    return rollouts.await(
        name,
        name + " paused at step " + step,
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Paused".equals(r.getStatus().getPhase())
                && Integer.valueOf(step).equals(r.getStatus().getCurrentStepIndex()));
  }

  static TrafficWeights weights(Rollout r) {
    return r.getStatus() == null || r.getStatus().getCanary() == null
        ? null
        : r.getStatus().getCanary().getWeights();
  }

  static Service service(String name) {
    return client.services().inNamespace(ns).withName(name).get();
  }

  static String selected(String service) {
    Service s = service(service);
    return s.getSpec().getSelector() == null ? null : s.getSpec().getSelector().get(HASH);
  }

  static JsonNode generic(String apiVersion, String kind, String name) {
    GenericKubernetesResource r =
        client.genericKubernetesResources(apiVersion, kind).inNamespace(ns).withName(name).get();
    return r == null ? null : JSON.valueToTree(r);
  }

  static JsonNode httpRoute(String name) {
    return generic("gateway.networking.k8s.io/v1", "HTTPRoute", name);
  }

  static <T> T await(String what, java.util.function.Supplier<T> read, Predicate<T> ok) {
    List<T> last = new ArrayList<>(1);
    last.add(null);
    try {
      Awaitility.await(what)
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(250))
          .ignoreExceptions()
          .until(
              () -> {
                T v = read.get();
                last.set(0, v);
                return ok.test(v);
              });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError("timed out waiting for " + what + "; last seen: " + last.get(0), e);
    }
    return last.get(0);
  }

  /**
   * The weight of the backendRef named {@code service} in the route's rule {@code rule} (-1 when
   * absent).
   */
  static int routeWeight(JsonNode route, int rule, String service) {
    for (JsonNode ref : route.path("spec").path("rules").path(rule).path("backendRefs")) {
      if (service.equals(ref.path("name").asText())) {
        return ref.path("weight").asInt(-1);
      }
    }
    return -1;
  }

  /**
   * A Rollout {@code <name>} with an HTTPRoute {@code <name>-route}, Services, and the given steps,
   * created Healthy.
   */
  static Rollout gatewayRollout(String name, int replicas, String steps, String extra) {
    apply("traffic/services.yaml", vars(name));
    apply("traffic/httproute.yaml", vars(name));
    return createRollout(name, replicas, canary(name, gatewayApi(name), steps, extra));
  }

  static void assertRouteWeights(String name, int canaryWeight) {
    JsonNode route =
        await(
            name + "-route weights " + canaryWeight + "/" + (100 - canaryWeight),
            () -> httpRoute(name + "-route"),
            r ->
                routeWeight(r, lastRule(r), name + "-canary") == canaryWeight
                    && routeWeight(r, lastRule(r), name + "-stable") == 100 - canaryWeight);
    assertNotNull(route);
  }

  static int lastRule(JsonNode route) {
    return route.path("spec").path("rules").size() - 1;
  }

  static int specReplicas(ReplicaSet rs) {
    return rs == null || rs.getSpec().getReplicas() == null ? 0 : rs.getSpec().getReplicas();
  }

  static String annotation(ReplicaSet rs, String key) {
    return rs.getMetadata().getAnnotations() == null
        ? null
        : rs.getMetadata().getAnnotations().get(key);
  }

  // -------------------------------------------------------------------------------------------------------------
  // NGINX

  @Test
  void nginxCanaryIngressFollowsTheStepsWithClassTlsAndAnnotations_andPromotionResetsIt() {
    String name = "ngx";
    apply("traffic/services.yaml", vars(name));
    Map<String, String> iv = vars(name);
    iv.put("INGRESS", "ngx-web");
    apply("traffic/ingress.yaml", iv);
    iv.put("INGRESS", "ngx-api");
    apply("traffic/ingress.yaml", iv);
    String tr =
        "{\"nginx\":{\"stableIngresses\":[\"ngx-web\",\"ngx-api\"],"
            + "\"additionalIngressAnnotations\":{\"canary-by-header\":\"X-Canary\"},"
            + "\"canaryIngressAnnotations\":{\"example.com/extra\":\"yes\"}}}";
    Rollout r =
        createRollout(
            name,
            4,
            canary(
                name,
                tr,
                "[{\"setWeight\":25},{\"pause\":{}},{\"setWeight\":50},{\"pause\":{}}]",
                "\"scaleDownDelaySeconds\":5"));
    String v1 = r.getStatus().getStableRS();

    for (String stable : List.of("ngx-web", "ngx-api")) {
      Ingress c = awaitCanaryIngressWeight("ngx-" + stable + "-canary", "0");
      Map<String, String> a = c.getMetadata().getAnnotations();
      assertEquals("true", a.get("nginx.ingress.kubernetes.io/canary"));
      assertEquals(
          "X-Canary",
          a.get("nginx.ingress.kubernetes.io/canary-by-header"),
          "additionalIngressAnnotations, prefixed");
      assertEquals("yes", a.get("example.com/extra"), "canaryIngressAnnotations, verbatim");
      assertEquals("nginx", a.get("kubernetes.io/ingress.class"), "class annotation copied");
      assertNull(a.get("example.com/owner"), "other stable annotations are not copied");
      assertNull(a.get("nginx.ingress.kubernetes.io/canary-weight-total"), "no maxTrafficWeight");
      assertEquals("nginx", c.getSpec().getIngressClassName(), "spec.ingressClassName copied");
      assertEquals(1, c.getSpec().getTls().size());
      assertEquals(
          List.of("ngx.example.com", "www.ngx.example.com"),
          c.getSpec().getTls().get(0).getHosts());
      assertEquals("ngx-tls", c.getSpec().getTls().get(0).getSecretName());
      assertEquals(2, c.getSpec().getRules().size(), "both hosts");
      for (var rule : c.getSpec().getRules()) {
        assertEquals(
            1,
            rule.getHttp().getPaths().size(),
            "only the paths routed to the stable Service: " + rule);
        assertEquals(
            "ngx-canary", rule.getHttp().getPaths().get(0).getBackend().getService().getName());
        assertEquals("/", rule.getHttp().getPaths().get(0).getPath());
      }
      assertEquals(
          List.of("ngx.example.com", "www.ngx.example.com"),
          c.getSpec().getRules().stream().map(x -> x.getHost()).toList());
      var owner = c.getMetadata().getOwnerReferences().get(0);
      assertEquals("Rollout", owner.getKind());
      assertEquals(r.getMetadata().getUid(), owner.getUid());
      assertTrue(owner.getController());
    }
    assertEquals(v1, selected("ngx-stable"));
    assertEquals(name, service("ngx-stable").getMetadata().getAnnotations().get(MANAGED_BY));
    TrafficWeights w0 =
        weights(rollouts.await(name, "weights recorded", TIMEOUT, x -> weights(x) != null));
    assertEquals(0, w0.getCanary().getWeight());
    assertEquals(100, w0.getStable().getWeight());

    // A user annotation on the canary Ingress survives the controller's updates.
    client
        .network()
        .v1()
        .ingresses()
        .inNamespace(ns)
        .withName("ngx-ngx-web-canary")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"user/keep\":\"1\"}}}");

    rollouts.setImage(name, "registry.example/app:v2");
    r = awaitPausedAt(name, 1);
    String v2 = r.getStatus().getCurrentPodHash();
    assertNotEquals(v1, v2);
    awaitCanaryIngressWeight("ngx-ngx-web-canary", "25");
    awaitCanaryIngressWeight("ngx-ngx-api-canary", "25");
    assertEquals(1, rollouts.specReplicas(name, v2), "ceil(25% of 4)");
    assertEquals(4, rollouts.specReplicas(name, v1), "stable stays fully scaled");
    TrafficWeights w = weights(r);
    assertEquals(25, w.getCanary().getWeight());
    assertEquals(v2, w.getCanary().getPodTemplateHash());
    assertEquals("ngx-canary", w.getCanary().getServiceName());
    assertEquals(75, w.getStable().getWeight());
    assertEquals(v1, w.getStable().getPodTemplateHash());
    assertEquals("ngx-stable", w.getStable().getServiceName());
    assertEquals(v2, selected("ngx-canary"));
    assertEquals(v1, selected("ngx-stable"));
    assertTrue(
        rollouts
            .eventMessages(name, "TrafficWeightUpdated")
            .contains("Traffic weight updated from 0 to 25"),
        rollouts.eventMessages(name, "TrafficWeightUpdated").toString());
    assertTrue(
        rollouts.eventMessages(name, "SwitchService").stream()
            .anyMatch(m -> m.contains("'ngx-canary' from '" + v1 + "' to '" + v2 + "'")));

    rollouts.promote(name);
    awaitPausedAt(name, 3);
    awaitCanaryIngressWeight("ngx-ngx-web-canary", "50");
    assertEquals(2, rollouts.specReplicas(name, v2));

    rollouts.promote(name);
    r = awaitHealthy(name);
    assertEquals(v2, r.getStatus().getStableRS());
    Ingress c = awaitCanaryIngressWeight("ngx-ngx-web-canary", "0");
    assertEquals("1", c.getMetadata().getAnnotations().get("user/keep"));
    await("stable Service on v2", () -> selected("ngx-stable"), v2::equals);
    // The last step sends 100% to the canary; the pass after the promotion gives it all back to
    // stable (now v2).
    TrafficWeights wEnd =
        weights(
            rollouts.await(
                name,
                "weights back to stable",
                TIMEOUT,
                x -> weights(x) != null && weights(x).getCanary().getWeight() == 0));
    assertEquals(0, wEnd.getCanary().getWeight());
    assertEquals(100, wEnd.getStable().getWeight());
    assertEquals(v2, wEnd.getStable().getPodTemplateHash());
    // The previous stable ReplicaSet gets a scale-down deadline (scaleDownDelaySeconds: 5) and is
    // scaled to 0 after it.
    ReplicaSet old =
        await(
            "v1 has a scale-down deadline or is down",
            () -> rollouts.replicaSet(name, v1),
            rs -> annotation(rs, DEADLINE) != null || specReplicas(rs) == 0);
    if (specReplicas(old) > 0) {
      assertEquals(4, specReplicas(old), "kept until the deadline");
    }
    await("v1 scaled to 0", () -> rollouts.replicaSet(name, v1), rs -> specReplicas(rs) == 0);
  }

  static Ingress awaitCanaryIngressWeight(String name, String weight) {
    return await(
        "canary Ingress " + name + " weight " + weight,
        () -> client.network().v1().ingresses().inNamespace(ns).withName(name).get(),
        i ->
            i != null
                && weight.equals(
                    i.getMetadata()
                        .getAnnotations()
                        .get("nginx.ingress.kubernetes.io/canary-weight")));
  }

  @Test
  void nginxCanaryIngressIsDeletedWhenTheRolloutStopsUsingNginx() {
    String name = "ngxoff";
    apply("traffic/services.yaml", vars(name));
    apply("traffic/httproute.yaml", vars(name));
    Map<String, String> iv = vars(name);
    iv.put("INGRESS", "ngxoff-web");
    apply("traffic/ingress.yaml", iv);
    createRollout(
        name,
        2,
        canary(
            name,
            "{\"nginx\":{\"stableIngress\":\"ngxoff-web\"},\"maxTrafficWeight\":1000}",
            "[{\"setWeight\":100},{\"pause\":{}}]",
            null));
    Ingress c = awaitCanaryIngressWeight("ngxoff-ngxoff-web-canary", "0");
    assertEquals(
        "1000",
        c.getMetadata().getAnnotations().get("nginx.ingress.kubernetes.io/canary-weight-total"),
        "maxTrafficWeight is written as canary-weight-total");

    rollouts.mergePatch(
        name,
        "{\"spec\":{\"strategy\":{\"canary\":{\"trafficRouting\":{\"nginx\":null,\"maxTrafficWeight\":null,"
            + "\"plugins\":{\""
            + GATEWAY
            + "\":{\"httpRoute\":\""
            + name
            + "-route\"}}}}}}}");
    await(
        "canary Ingress deleted",
        () ->
            client
                .network()
                .v1()
                .ingresses()
                .inNamespace(ns)
                .withName("ngxoff-ngxoff-web-canary")
                .get(),
        java.util.Objects::isNull);
    assertNotNull(
        client.network().v1().ingresses().inNamespace(ns).withName("ngxoff-web").get(),
        "stable Ingress kept");
    assertRouteWeights(name, 0);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Gateway API: abort

  @Test
  void abortSetsWeightZeroAtOnce_canaryScaledDownOnlyAfterTheAbortDelay() {
    String name = "gwabort";
    Rollout r =
        gatewayRollout(
            name, 4, "[{\"setWeight\":50},{\"pause\":{}}]", "\"abortScaleDownDelaySeconds\":5");
    String v1 = r.getStatus().getStableRS();
    assertRouteWeights(name, 0);
    rollouts.setImage(name, "registry.example/app:v2");
    r = awaitPausedAt(name, 1);
    String v2 = r.getStatus().getCurrentPodHash();
    assertRouteWeights(name, 50);
    assertEquals(2, rollouts.specReplicas(name, v2));
    assertEquals(v2, selected(name + "-canary"));

    rollouts.abort(name);
    assertRouteWeights(name, 0);
    await("canary Service back on stable", () -> selected(name + "-canary"), v1::equals);
    r = rollouts.await(name, "Degraded", TIMEOUT, x -> "Degraded".equals(x.getStatus().getPhase()));
    assertEquals(0, weights(r).getCanary().getWeight());
    // The stable ReplicaSet is fully available, so the canary gets a deadline now + 5s and keeps
    // its pods until then.
    ReplicaSet canaryRs =
        await(
            "canary has a scale-down deadline",
            () -> rollouts.replicaSet(name, v2),
            rs -> annotation(rs, DEADLINE) != null || specReplicas(rs) == 0);
    assertNotNull(
        annotation(canaryRs, DEADLINE),
        "deadline set before the scale-down: " + canaryRs.getMetadata());
    assertEquals(2, specReplicas(canaryRs), "canary keeps its pods until the deadline");
    await("canary scaled to 0", () -> rollouts.replicaSet(name, v2), rs -> specReplicas(rs) == 0);
    assertEquals(4, rollouts.specReplicas(name, v1));
  }

  @Test
  void abortWithZeroAbortDelayScalesTheCanaryDownWithoutADeadline() {
    String name = "gwzero";
    gatewayRollout(
        name, 4, "[{\"setWeight\":50},{\"pause\":{}}]", "\"abortScaleDownDelaySeconds\":0");
    rollouts.setImage(name, "registry.example/app:v2");
    Rollout r = awaitPausedAt(name, 1);
    String v2 = r.getStatus().getCurrentPodHash();
    assertRouteWeights(name, 50);
    rollouts.abort(name);
    ReplicaSet rs =
        await("canary scaled to 0", () -> rollouts.replicaSet(name, v2), x -> specReplicas(x) == 0);
    assertNull(annotation(rs, DEADLINE));
    assertRouteWeights(name, 0);
    assertTrue(
        rollouts.eventMessages(name, "ScalingReplicaSet").stream()
            .anyMatch(m -> m.contains(v2) && m.endsWith("from 2 to 0")));
  }

  @Test
  void dynamicStableScaleAbortDrainsStepByStepToZero() {
    String name = "gwdyn";
    Rollout r =
        gatewayRollout(
            name,
            4,
            "[{\"setWeight\":25},{\"setWeight\":50},{\"setWeight\":75},{\"pause\":{}}]",
            "\"dynamicStableScale\":true");
    String v1 = r.getStatus().getStableRS();
    rollouts.setImage(name, "registry.example/app:v2");
    r = awaitPausedAt(name, 3);
    String v2 = r.getStatus().getCurrentPodHash();
    assertRouteWeights(name, 75);
    assertEquals(3, rollouts.specReplicas(name, v2));
    rollouts.await(
        name, "stable scaled down to 1", TIMEOUT, x -> rollouts.specReplicas(name, v1) == 1);

    rollouts.abort(name);
    List<Integer> seen = new ArrayList<>();
    await(
        "weight drained to 0 with the canary at 0 and stable at 4",
        () -> {
          JsonNode route = httpRoute(name + "-route");
          int w = routeWeight(route, 0, name + "-canary");
          if (seen.isEmpty() || seen.get(seen.size() - 1) != w) {
            seen.add(w);
          }
          return w == 0
              && rollouts.specReplicas(name, v2) == 0
              && rollouts.specReplicas(name, v1) == 4;
        },
        Boolean::booleanValue);
    for (int i = 1; i < seen.size(); i++) {
      assertTrue(seen.get(i) < seen.get(i - 1), "weight only goes down while draining: " + seen);
    }
    assertEquals(0, seen.get(seen.size() - 1));
    List<String> updates = rollouts.eventMessages(name, "TrafficWeightUpdated");
    assertTrue(updates.stream().anyMatch(m -> m.endsWith(" to 0")), updates.toString());
    assertTrue(updates.size() >= 2, "drained through intermediate weights: " + updates);
    await("canary Service back on stable", () -> selected(name + "-canary"), v1::equals);
  }

  @Test
  void gatewayApiWeightsHttpGrpcAndTcpRoutesTogether() {
    String name = "gwall";
    apply("traffic/services.yaml", vars(name));
    apply("traffic/httproute.yaml", vars(name));
    apply("traffic/grpc-tcp-routes.yaml", vars(name));
    String tr =
        "{\"plugins\":{\""
            + GATEWAY
            + "\":{\"httpRoutes\":[{\"name\":\"gwall-route\",\"useHeaderRoutes\":true}],"
            + "\"grpcRoute\":\"gwall-grpc\",\"tcpRoute\":\"gwall-tcp\"}}}";
    createRollout(name, 4, canary(name, tr, "[{\"setWeight\":40},{\"pause\":{}}]", null));
    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAt(name, 1);
    assertRouteWeights(name, 40);
    JsonNode grpc =
        await(
            "GRPCRoute 40/60",
            () -> generic("gateway.networking.k8s.io/v1", "GRPCRoute", "gwall-grpc"),
            x ->
                routeWeight(x, 0, "gwall-canary") == 40 && routeWeight(x, 0, "gwall-stable") == 60);
    assertEquals(
        "example.Greeter",
        grpc.path("spec")
            .path("rules")
            .path(0)
            .path("matches")
            .path(0)
            .path("method")
            .path("service")
            .asText());
    await(
        "TCPRoute 40/60",
        () -> generic("gateway.networking.k8s.io/v1alpha2", "TCPRoute", "gwall-tcp"),
        x -> routeWeight(x, 0, "gwall-canary") == 40 && routeWeight(x, 0, "gwall-stable") == 60);
    rollouts.promoteFull(name);
    awaitHealthy(name);
    await(
        "TCPRoute 0/100",
        () -> generic("gateway.networking.k8s.io/v1alpha2", "TCPRoute", "gwall-tcp"),
        x -> routeWeight(x, 0, "gwall-canary") == 0 && routeWeight(x, 0, "gwall-stable") == 100);
  }

  @Test
  void missingHttpRouteIsReportedAsTrafficRoutingError() {
    String name = "gwmissing";
    apply("traffic/services.yaml", vars(name));
    Map<String, String> v = vars(name);
    v.put("REPLICAS", "1");
    v.put("CANARY", canary(name, gatewayApi(name), "[{\"setWeight\":40},{\"pause\":{}}]", null));
    rollouts.create("traffic/rollout.yaml", v);
    await(
        "TrafficRoutingError",
        () -> rollouts.eventMessages(name, "TrafficRoutingError"),
        l -> l.stream().anyMatch(m -> m.contains("HTTPRoute `gwmissing-route` not found")));
  }

  // -------------------------------------------------------------------------------------------------------------
  // Gateway API: header and mirror routes

  @Test
  void headerAndMirrorRoutesStayAcrossLaterStepsInManagedRoutesOrder_andAreRemovedOnPromotion() {
    String name = "gwhdr";
    String steps =
        "[{\"setCanaryScale\":{\"replicas\":1}},"
            + "{\"setMirrorRoute\":{\"name\":\"mirror\",\"match\":[{\"path\":{\"prefix\":\"/api\"}}],\"percentage\":50}},"
            + "{\"setHeaderRoute\":{\"name\":\"header\",\"match\":[{\"headerName\":\"X-Canary\",\"headerValue\":{\"exact\":\"yes\"}}]}},"
            + "{\"pause\":{}},"
            + "{\"setCanaryScale\":{\"replicas\":0}},"
            + "{\"pause\":{}}]";
    apply("traffic/services.yaml", vars(name));
    apply("traffic/httproute.yaml", vars(name));
    String tr =
        "{\"managedRoutes\":[{\"name\":\"header\"},{\"name\":\"mirror\"}],\"plugins\":{\""
            + GATEWAY
            + "\":{\"httpRoute\":\""
            + name
            + "-route\"}}}";
    createRollout(name, 4, canary(name, tr, steps, null));
    rollouts.setImage(name, "registry.example/app:v2");
    Rollout r = awaitPausedAt(name, 3);
    String v2 = r.getStatus().getCurrentPodHash();
    assertEquals(1, rollouts.specReplicas(name, v2));
    JsonNode route =
        await(
            "header and mirror rules",
            () -> httpRoute(name + "-route"),
            x -> x.path("spec").path("rules").size() == 3);
    assertManagedRules(name, route);

    // Regression shape: a later setCanaryScale scales the canary to 0; the header route must stay.
    rollouts.promote(name);
    awaitPausedAt(name, 5);
    rollouts.await(name, "canary at 0", TIMEOUT, x -> rollouts.specReplicas(name, v2) == 0);
    route = httpRoute(name + "-route");
    assertEquals(3, route.path("spec").path("rules").size(), route.toString());
    assertManagedRules(name, route);

    rollouts.promote(name);
    awaitHealthy(name);
    route =
        await(
            "managed rules removed and weights back",
            () -> httpRoute(name + "-route"),
            x ->
                x.path("spec").path("rules").size() == 1
                    && routeWeight(x, 0, name + "-canary") == 0);
    assertEquals(0, routeWeight(route, 0, name + "-canary"));
    assertEquals(100, routeWeight(route, 0, name + "-stable"));
    assertTrue(
        route
            .path("metadata")
            .path("annotations")
            .path("rollgate.io/managed-routes")
            .isMissingNode(),
        route.toString());
  }

  static void assertManagedRules(String name, JsonNode route) {
    JsonNode rules = route.path("spec").path("rules");
    JsonNode header = rules.get(0);
    assertEquals(
        "X-Canary",
        header.path("matches").path(0).path("headers").path(0).path("name").asText(),
        rules.toString());
    assertEquals(
        "Exact", header.path("matches").path(0).path("headers").path(0).path("type").asText());
    assertEquals(
        "yes", header.path("matches").path(0).path("headers").path(0).path("value").asText());
    assertEquals(
        "/",
        header.path("matches").path(0).path("path").path("value").asText(),
        "the user rule's match is kept");
    assertEquals(1, header.path("backendRefs").size());
    assertEquals(name + "-canary", header.path("backendRefs").path(0).path("name").asText());
    JsonNode mirror = rules.get(1);
    assertEquals(
        "PathPrefix",
        mirror.path("matches").path(0).path("path").path("type").asText(),
        rules.toString());
    assertEquals("/api", mirror.path("matches").path(0).path("path").path("value").asText());
    assertEquals("RequestMirror", mirror.path("filters").path(0).path("type").asText());
    assertEquals(
        name + "-canary",
        mirror
            .path("filters")
            .path(0)
            .path("requestMirror")
            .path("backendRef")
            .path("name")
            .asText());
    assertEquals(50, mirror.path("filters").path(0).path("requestMirror").path("percent").asInt());
    JsonNode user = rules.get(2);
    assertEquals(2, user.path("backendRefs").size(), "the user's rule is kept last");
    assertEquals(
        "{\"header\":1,\"mirror\":1}",
        route.path("metadata").path("annotations").path("rollgate.io/managed-routes").asText());
  }

  @Test
  void abortRemovesHeaderRoute() {
    String name = "gwhab";
    String steps =
        "[{\"setWeight\":25},"
            + "{\"setHeaderRoute\":{\"name\":\"header\",\"match\":[{\"headerName\":\"X-Canary\",\"headerValue\":{\"prefix\":\"be.ta\"}}]}},"
            + "{\"pause\":{}}]";
    apply("traffic/services.yaml", vars(name));
    apply("traffic/httproute.yaml", vars(name));
    String tr =
        "{\"managedRoutes\":[{\"name\":\"header\"}],\"plugins\":{\""
            + GATEWAY
            + "\":{\"httpRoute\":\""
            + name
            + "-route\"}}}";
    createRollout(name, 4, canary(name, tr, steps, null));
    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAt(name, 2);
    JsonNode route =
        await(
            "header rule",
            () -> httpRoute(name + "-route"),
            x -> x.path("spec").path("rules").size() == 2);
    JsonNode h =
        route.path("spec").path("rules").path(0).path("matches").path(0).path("headers").path(0);
    assertEquals("RegularExpression", h.path("type").asText());
    assertEquals(
        "^be\\.ta.*",
        h.path("value").asText(),
        "prefix as an anchored, escaped regular expression");
    assertEquals(25, routeWeight(route, 1, name + "-canary"));

    rollouts.abort(name);
    route =
        await(
            "header rule removed, weight 0",
            () -> httpRoute(name + "-route"),
            x ->
                x.path("spec").path("rules").size() == 1
                    && routeWeight(x, 0, name + "-canary") == 0);
    assertEquals(100, routeWeight(route, 0, name + "-stable"));
  }

  // -------------------------------------------------------------------------------------------------------------
  // Scale-down delay and rollback

  @Test
  void rollbackWithinScaleDownDelayBringsTheOldReplicaSetBackWithoutANewOne() {
    String name = "gwrb";
    Rollout r =
        gatewayRollout(
            name, 3, "[{\"setWeight\":50},{\"pause\":{}}]", "\"scaleDownDelaySeconds\":300");
    String v1 = r.getStatus().getStableRS();
    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAt(name, 1);
    rollouts.promoteFull(name);
    r = awaitHealthy(name);
    String v2 = r.getStatus().getStableRS();
    assertNotEquals(v1, v2);
    ReplicaSet old =
        await(
            "v1 under a scale-down deadline",
            () -> rollouts.replicaSet(name, v1),
            rs -> annotation(rs, DEADLINE) != null);
    assertEquals(3, specReplicas(old), "still scaled during the delay");
    assertEquals(2, rollouts.replicaSets(name).size());

    rollouts.undo(name, 0);
    r = awaitPausedAt(name, 1);
    assertEquals(v1, r.getStatus().getCurrentPodHash());
    assertEquals(2, rollouts.replicaSets(name).size(), "no new ReplicaSet");
    ReplicaSet back = rollouts.replicaSet(name, v1);
    assertNull(
        annotation(back, DEADLINE),
        "deadline removed from the ReplicaSet that is the canary again");
    assertRouteWeights(name, 50);
    rollouts.promoteFull(name);
    r = awaitHealthy(name);
    assertEquals(v1, r.getStatus().getStableRS());
    assertRouteWeights(name, 0);
    await(
        "v2 under a scale-down deadline",
        () -> rollouts.replicaSet(name, v2),
        rs -> annotation(rs, DEADLINE) != null);
  }

  @Test
  void scaleDownDelayRevisionLimitScalesOlderReplicaSetsAtOnce() {
    String name = "gwlim";
    Rollout r =
        gatewayRollout(
            name,
            2,
            "[{\"setWeight\":50},{\"pause\":{}}]",
            "\"scaleDownDelaySeconds\":300,\"scaleDownDelayRevisionLimit\":1");
    String v1 = r.getStatus().getStableRS();
    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAt(name, 1);
    rollouts.promoteFull(name);
    String v2 = awaitHealthy(name).getStatus().getStableRS();
    await(
        "v1 under a deadline",
        () -> rollouts.replicaSet(name, v1),
        rs -> annotation(rs, DEADLINE) != null && specReplicas(rs) == 2);
    rollouts.setImage(name, "registry.example/app:v3");
    awaitPausedAt(name, 1);
    rollouts.promoteFull(name);
    awaitHealthy(name);
    await(
        "v2 kept under a deadline",
        () -> rollouts.replicaSet(name, v2),
        rs -> annotation(rs, DEADLINE) != null && specReplicas(rs) == 2);
    await(
        "v1 beyond the limit scaled to 0",
        () -> rollouts.replicaSet(name, v1),
        rs -> specReplicas(rs) == 0);
  }

  @Test
  void intermediateReplicaSetIsScaledDownAtOnce() {
    String name = "gwmid";
    Rollout r =
        gatewayRollout(
            name, 2, "[{\"setWeight\":50},{\"pause\":{}}]", "\"scaleDownDelaySeconds\":300");
    String v1 = r.getStatus().getStableRS();
    rollouts.setImage(name, "registry.example/app:v2");
    String v2 = awaitPausedAt(name, 1).getStatus().getCurrentPodHash();
    assertEquals(1, rollouts.specReplicas(name, v2));
    rollouts.setImage(name, "registry.example/app:v3");
    awaitPausedAt(name, 1);
    ReplicaSet mid =
        await("v2 scaled to 0", () -> rollouts.replicaSet(name, v2), rs -> specReplicas(rs) == 0);
    assertNull(annotation(mid, DEADLINE));
    assertEquals(2, rollouts.specReplicas(name, v1), "stable untouched");
  }

  // -------------------------------------------------------------------------------------------------------------
  // SMI

  @Test
  void smiTrafficSplitIsCreatedOwnedAndFollowsTheSteps() {
    String name = "smi";
    apply("traffic/services.yaml", vars(name));
    Rollout r =
        createRollout(
            name, 4, canary(name, "{\"smi\":{}}", "[{\"setWeight\":30},{\"pause\":{}}]", null));
    JsonNode ts =
        await(
            "TrafficSplit created",
            () -> generic("split.smi-spec.io/v1alpha1", "TrafficSplit", name),
            x -> x != null);
    assertEquals(
        "smi-stable",
        ts.path("spec").path("service").asText(),
        "rootService defaults to stableService");
    assertSplit(ts, "0", "100");
    assertEquals(
        r.getMetadata().getUid(),
        ts.path("metadata").path("ownerReferences").path(0).path("uid").asText());
    assertTrue(ts.path("metadata").path("ownerReferences").path(0).path("controller").asBoolean());
    assertTrue(
        rollouts.eventMessages(name, "TrafficSplitCreated").contains("TrafficSplit `smi` created"));

    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAt(name, 1);
    ts =
        await(
            "TrafficSplit 30/70",
            () -> generic("split.smi-spec.io/v1alpha1", "TrafficSplit", name),
            x -> "30".equals(x.path("spec").path("backends").path(0).path("weight").asText()));
    assertSplit(ts, "30", "70");
    rollouts.promoteFull(name);
    awaitHealthy(name);
    ts =
        await(
            "TrafficSplit 0/100",
            () -> generic("split.smi-spec.io/v1alpha1", "TrafficSplit", name),
            x -> "0".equals(x.path("spec").path("backends").path(0).path("weight").asText()));
    assertSplit(ts, "0", "100");
  }

  static void assertSplit(JsonNode ts, String canary, String stable) {
    JsonNode b = ts.path("spec").path("backends");
    assertEquals(2, b.size(), ts.toString());
    assertEquals("smi-canary", b.path(0).path("service").asText());
    assertEquals(canary, b.path(0).path("weight").asText());
    assertEquals("smi-stable", b.path(1).path("service").asText());
    assertEquals(stable, b.path(1).path("weight").asText());
  }

  @Test
  void smiTrafficSplitOwnedBySomeoneElseIsReportedNotOverwritten() {
    String name = "smiforeign";
    apply("traffic/services.yaml", vars(name));
    GenericKubernetesResource ts = new GenericKubernetesResource();
    ts.setApiVersion("split.smi-spec.io/v1alpha1");
    ts.setKind("TrafficSplit");
    ts.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName(name)
            .withNamespace(ns)
            .build());
    ts.setAdditionalProperty("spec", Map.of("service", "someone-else", "backends", List.of()));
    client
        .genericKubernetesResources("split.smi-spec.io/v1alpha1", "TrafficSplit")
        .inNamespace(ns)
        .resource(ts)
        .create();
    Map<String, String> v = vars(name);
    v.put("REPLICAS", "1");
    v.put("CANARY", canary(name, "{\"smi\":{}}", "[{\"setWeight\":30},{\"pause\":{}}]", null));
    rollouts.create("traffic/rollout.yaml", v);
    await(
        "TrafficRoutingError",
        () -> rollouts.eventMessages(name, "TrafficRoutingError"),
        l ->
            l.stream()
                .anyMatch(m -> m.contains("Rollout does not own TrafficSplit `" + name + "`")));
    assertEquals(
        "someone-else",
        generic("split.smi-spec.io/v1alpha1", "TrafficSplit", name)
            .path("spec")
            .path("service")
            .asText());
  }

  // -------------------------------------------------------------------------------------------------------------
  // Istio

  static JsonNode virtualService(String name) {
    return generic("networking.istio.io/v1alpha3", "VirtualService", name);
  }

  /**
   * Weight of the destination whose host starts with {@code hostLabel} (or has that subset) in a
   * route (-1: none).
   */
  static int destWeight(JsonNode route, String hostOrSubset) {
    for (JsonNode d : route.path("route")) {
      String host = d.path("destination").path("host").asText("");
      String first = host.contains(".") ? host.substring(0, host.indexOf('.')) : host;
      if (hostOrSubset.equals(first)
          || hostOrSubset.equals(d.path("destination").path("subset").asText(null))) {
        return d.path("weight").asInt(-1);
      }
    }
    return -1;
  }

  static void assertSumsTo100(JsonNode route) {
    int sum = 0;
    for (JsonNode d : route.path("route")) {
      sum += d.path("weight").asInt();
    }
    assertEquals(100, sum, "weights of " + route);
  }

  static JsonNode httpByName(JsonNode vs, String name) {
    for (JsonNode r : vs.path("spec").path("http")) {
      if (name.equals(r.path("name").asText(null))) {
        return r;
      }
    }
    return null;
  }

  static JsonNode awaitIstioWeight(String name, int canaryWeight) {
    return await(
        name + "-vsvc weights " + canaryWeight,
        () -> virtualService(name + "-vsvc"),
        vs ->
            destWeight(httpByName(vs, "primary"), name + "-canary") == canaryWeight
                && destWeight(vs.path("spec").path("tls").path(0), name + "-canary") == canaryWeight
                && destWeight(vs.path("spec").path("tcp").path(0), name + "-canary")
                    == canaryWeight);
  }

  @Test
  void istioHostBasedHttpTlsTcpRoutesWithHeaderAndMirrorRoutes() {
    String name = "ist";
    apply("traffic/services.yaml", vars(name));
    Map<String, String> v = vars(name);
    v.put("NS", ns);
    apply("traffic/istio-host.yaml", v);
    String tr =
        "{\"managedRoutes\":[{\"name\":\"header\"},{\"name\":\"mirror\"}],"
            + "\"istio\":{\"virtualService\":{\"name\":\"ist-vsvc\",\"routes\":[\"primary\"],"
            + "\"tlsRoutes\":[{\"port\":443,\"sniHosts\":[\"ist.example.com\"]}],\"tcpRoutes\":[{\"port\":9000}]}}}";
    String steps =
        "[{\"setWeight\":20},"
            + "{\"setHeaderRoute\":{\"name\":\"header\",\"match\":[{\"headerName\":\"X-Canary\",\"headerValue\":{\"regex\":\"^yes$\"}}]}},"
            + "{\"setMirrorRoute\":{\"name\":\"mirror\",\"match\":[{\"method\":{\"exact\":\"GET\"},\"path\":{\"prefix\":\"/api\"}}],\"percentage\":30}},"
            + "{\"pause\":{}},{\"setWeight\":60},{\"pause\":{}}]";
    createRollout(name, 5, canary(name, tr, steps, null));
    JsonNode vs = awaitIstioWeight(name, 0);
    JsonNode primary = httpByName(vs, "primary");
    assertEquals(100, destWeight(primary, "ist-stable"));
    assertEquals(
        2,
        primary.path("route").size(),
        "destinations other than stable and canary are removed: " + primary);
    assertEquals(
        "ist-canary." + ns + ".svc.cluster.local",
        primary.path("route").path(1).path("destination").path("host").asText(),
        "hosts are kept as written");
    assertEquals(
        100, destWeight(httpByName(vs, "untouched"), "legacy"), "routes not listed are left alone");

    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAt(name, 3);
    vs = awaitIstioWeight(name, 20);
    JsonNode http = vs.path("spec").path("http");
    assertEquals(
        List.of("header", "mirror", "primary", "untouched"),
        List.of(
            http.path(0).path("name").asText(),
            http.path(1).path("name").asText(),
            http.path(2).path("name").asText(),
            http.path(3).path("name").asText()),
        "managed routes first, in managedRoutes order: " + http);
    JsonNode header = http.path(0);
    assertEquals(
        "^yes$",
        header.path("match").path(0).path("headers").path("X-Canary").path("regex").asText());
    assertEquals(1, header.path("route").size());
    assertEquals(
        "ist-canary." + ns + ".svc.cluster.local",
        header.path("route").path(0).path("destination").path("host").asText());
    assertEquals(
        80, header.path("route").path(0).path("destination").path("port").path("number").asInt());
    assertEquals(100, header.path("route").path(0).path("weight").asInt());
    JsonNode mirror = http.path(1);
    assertEquals("GET", mirror.path("match").path(0).path("method").path("exact").asText());
    assertEquals("/api", mirror.path("match").path(0).path("uri").path("prefix").asText());
    assertEquals(30, mirror.path("mirrorPercentage").path("value").asInt());
    assertEquals(
        "ist-canary." + ns + ".svc.cluster.local", mirror.path("mirror").path("host").asText());
    assertEquals(20, destWeight(mirror, "ist-canary"));
    for (JsonNode r :
        List.of(
            header,
            mirror,
            httpByName(vs, "primary"),
            vs.path("spec").path("tls").path(0),
            vs.path("spec").path("tcp").path(0))) {
      assertSumsTo100(r);
    }

    rollouts.promote(name);
    awaitPausedAt(name, 5);
    vs = awaitIstioWeight(name, 60);
    assertEquals(
        60,
        destWeight(httpByName(vs, "mirror"), "ist-canary"),
        "the managed mirror route follows the weight");
    assertNotNull(httpByName(vs, "header"), "header route kept across later steps");

    rollouts.promote(name);
    awaitHealthy(name);
    vs =
        await(
            "managed routes removed and weights back",
            () -> virtualService("ist-vsvc"),
            x ->
                x.path("spec").path("http").size() == 2
                    && destWeight(httpByName(x, "primary"), name + "-canary") == 0);
    assertIstioReset(name, vs);
    assertTrue(
        rollouts.eventMessages(name, "Updated VirtualService").stream()
            .anyMatch(m -> m.contains("desiredWeight '20'")));
  }

  static void assertIstioReset(String name, JsonNode vs) {
    assertEquals(0, destWeight(httpByName(vs, "primary"), name + "-canary"));
    assertEquals(100, destWeight(httpByName(vs, "primary"), name + "-stable"));
    assertNull(httpByName(vs, "header"));
    assertNull(httpByName(vs, "mirror"));
  }

  @Test
  void istioAbortResetsWeightAndRemovesManagedRoutesAtOnce() {
    String name = "istab";
    apply("traffic/services.yaml", vars(name));
    Map<String, String> v = vars(name);
    v.put("NS", ns);
    apply("traffic/istio-host.yaml", v);
    String tr =
        "{\"managedRoutes\":[{\"name\":\"header\"}],"
            + "\"istio\":{\"virtualService\":{\"name\":\"istab-vsvc\",\"routes\":[\"primary\"],"
            + "\"tlsRoutes\":[{\"port\":443,\"sniHosts\":[\"istab.example.com\"]}],\"tcpRoutes\":[{\"port\":9000}]}}}";
    String steps =
        "[{\"setWeight\":40},"
            + "{\"setHeaderRoute\":{\"name\":\"header\",\"match\":[{\"headerName\":\"X-Canary\",\"headerValue\":{\"exact\":\"1\"}}]}},"
            + "{\"pause\":{}}]";
    createRollout(name, 5, canary(name, tr, steps, null));
    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAt(name, 2);
    JsonNode vs = awaitIstioWeight(name, 40);
    assertNotNull(httpByName(vs, "header"));
    rollouts.abort(name);
    vs = awaitIstioWeight(name, 0);
    vs =
        await(
            "header route removed",
            () -> virtualService("istab-vsvc"),
            x -> httpByName(x, "header") == null);
    assertIstioReset(name, vs);
  }

  @Test
  void istioSubsetBasedWithDestinationRule() {
    String name = "istsub";
    apply("traffic/istio-subset.yaml", vars(name));
    String tr =
        "{\"istio\":{\"virtualService\":{\"name\":\"istsub-vsvc\"},"
            + "\"destinationRule\":{\"name\":\"istsub-destrule\",\"canarySubsetName\":\"canary\",\"stableSubsetName\":\"stable\"}}}";
    Map<String, String> v = vars(name);
    v.put("REPLICAS", "5");
    v.put(
        "CANARY", "{\"trafficRouting\":" + tr + ",\"steps\":[{\"setWeight\":40},{\"pause\":{}}]}");
    rollouts.create("traffic/rollout.yaml", v);
    String v1 = awaitHealthy(name).getStatus().getStableRS();
    JsonNode dr =
        await(
            "DestinationRule subsets on v1",
            () -> generic("networking.istio.io/v1alpha3", "DestinationRule", "istsub-destrule"),
            x ->
                v1.equals(
                    x.path("spec").path("subsets").path(1).path("labels").path(HASH).asText(null)));
    assertEquals(
        v1,
        dr.path("spec").path("subsets").path(0).path("labels").path(HASH).asText(),
        "canary subset on stable at first");
    assertEquals(
        name,
        dr.path("spec").path("subsets").path(0).path("labels").path("app").asText(),
        "other labels kept");
    assertEquals(name, dr.path("metadata").path("annotations").path(MANAGED_BY).asText());

    rollouts.setImage(name, "registry.example/app:v2");
    String v2 = awaitPausedAt(name, 1).getStatus().getCurrentPodHash();
    JsonNode vs =
        await(
            "subset weights 40/60",
            () -> virtualService("istsub-vsvc"),
            x -> destWeight(x.path("spec").path("http").path(0), "canary") == 40);
    assertEquals(60, destWeight(vs.path("spec").path("http").path(0), "stable"));
    dr = generic("networking.istio.io/v1alpha3", "DestinationRule", "istsub-destrule");
    assertEquals(v2, dr.path("spec").path("subsets").path(0).path("labels").path(HASH).asText());
    assertEquals(v1, dr.path("spec").path("subsets").path(1).path("labels").path(HASH).asText());

    rollouts.abort(name);
    await(
        "subset weights 0/100",
        () -> virtualService("istsub-vsvc"),
        x ->
            destWeight(x.path("spec").path("http").path(0), "canary") == 0
                && destWeight(x.path("spec").path("http").path(0), "stable") == 100);
  }

  @Test
  void istioTlsOnlyVirtualServiceIsWeighted_whenTheRolloutAlsoListsHttpRoutes() {
    String name = "isttls";
    apply("traffic/services.yaml", vars(name));
    apply("traffic/istio-tls-only.yaml", vars(name));
    String tr =
        "{\"istio\":{\"virtualService\":{\"name\":\"isttls-vsvc\",\"routes\":[\"primary\"],"
            + "\"tlsRoutes\":[{\"port\":3000,\"sniHosts\":[\"isttls\"]}]}}}";
    createRollout(name, 2, canary(name, tr, "[{\"setWeight\":10},{\"pause\":{}}]", null));
    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAt(name, 1);
    JsonNode vs =
        await(
            "tls weights 90/10",
            () -> virtualService(name + "-vsvc"),
            x ->
                x.path("spec").path("tls").path(0).path("route").path(1).path("weight").asInt()
                    == 10);
    assertEquals(
        90, vs.path("spec").path("tls").path(0).path("route").path(0).path("weight").asInt());
    assertFalse(vs.path("spec").has("http"), "no http section is added: " + vs.path("spec"));
    rollouts.promote(name);
    awaitHealthy(name);
    await(
        "tls weights 100/0",
        () -> virtualService(name + "-vsvc"),
        x ->
            x.path("spec").path("tls").path(0).path("route").path(0).path("weight").asInt() == 100
                && x.path("spec").path("tls").path(0).path("route").path(1).path("weight").asInt()
                    == 0);
  }

  static JsonNode destinationRule(String name) {
    return generic("networking.istio.io/v1alpha3", "DestinationRule", name);
  }

  static String subsetHash(JsonNode dr, String subset) {
    for (JsonNode s : dr.path("spec").path("subsets")) {
      if (subset.equals(s.path("name").asText())) {
        return s.path("labels").path(HASH).asText(null);
      }
    }
    return null;
  }

  static Rollout subsetRollout(String name, String steps) {
    apply("traffic/istio-subset.yaml", vars(name));
    String tr =
        "{\"istio\":{\"virtualService\":{\"name\":\""
            + name
            + "-vsvc\"},"
            + "\"destinationRule\":{\"name\":\""
            + name
            + "-destrule\",\"canarySubsetName\":\"canary\",\"stableSubsetName\":\"stable\"}}}";
    Map<String, String> v = vars(name);
    v.put("REPLICAS", "2");
    v.put("CANARY", "{\"trafficRouting\":" + tr + ",\"steps\":" + steps + "}");
    rollouts.create("traffic/rollout.yaml", v);
    return awaitHealthy(name);
  }

  @Test
  void istioDestinationRuleIsReleased_whenTrafficRoutingIsRemoved() {
    String name = "istrel";
    String v1 =
        subsetRollout(name, "[{\"setWeight\":10},{\"pause\":{}}]").getStatus().getStableRS();
    await(
        "DestinationRule managed",
        () -> destinationRule(name + "-destrule"),
        x ->
            v1.equals(subsetHash(x, "stable"))
                && name.equals(
                    x.path("metadata").path("annotations").path(MANAGED_BY).asText(null)));
    rollouts.mergePatch(name, "{\"spec\":{\"strategy\":{\"canary\":{\"trafficRouting\":null}}}}");
    JsonNode dr =
        await(
            "DestinationRule released",
            () -> destinationRule(name + "-destrule"),
            x -> !x.path("metadata").path("annotations").has(MANAGED_BY));
    assertNull(subsetHash(dr, "stable"));
    assertNull(subsetHash(dr, "canary"));
    assertEquals(
        name,
        dr.path("spec").path("subsets").path(0).path("labels").path("app").asText(),
        "other labels kept");
  }

  @Test
  void istioExperimentStepWithWeightGetsItsOwnSubset_removedAfterPromotion() {
    String name = "istexp";
    subsetRollout(
        name,
        "[{\"setWeight\":10},"
            + "{\"experiment\":{\"templates\":[{\"name\":\"exp\",\"specRef\":\"canary\",\"weight\":20}]}}]");
    rollouts.setImage(name, "registry.example/app:v2");
    JsonNode dr =
        await(
            "experiment subset",
            () -> destinationRule(name + "-destrule"),
            x ->
                x.path("spec").path("subsets").size() == 3
                    && x.path("spec").path("subsets").path(2).path("labels").has(HASH));
    String subset = dr.path("spec").path("subsets").path(2).path("name").asText();
    JsonNode vs =
        await(
            "experiment destination",
            () -> virtualService(name + "-vsvc"),
            x -> destWeight(x.path("spec").path("http").path(0), subset) == 20);
    assertEquals(70, destWeight(vs.path("spec").path("http").path(0), "stable"));
    assertEquals(10, destWeight(vs.path("spec").path("http").path(0), "canary"));
    rollouts.promote(name);
    awaitHealthy(name);
    await(
        "experiment subset removed",
        () -> destinationRule(name + "-destrule"),
        x -> x.path("spec").path("subsets").size() == 2);
    await(
        "experiment destination removed",
        () -> virtualService(name + "-vsvc"),
        x -> x.path("spec").path("http").path(0).path("route").size() == 2);
  }

  @Test
  void istioCanarySubsetSelectsStableAfterAbort() {
    String name = "istabsub";
    String v1 =
        subsetRollout(name, "[{\"setWeight\":40},{\"pause\":{}}]").getStatus().getStableRS();
    rollouts.setImage(name, "registry.example/app:v2");
    String v2 = awaitPausedAt(name, 1).getStatus().getCurrentPodHash();
    await(
        "canary subset on v2",
        () -> destinationRule(name + "-destrule"),
        x -> v2.equals(subsetHash(x, "canary")));
    rollouts.abort(name);
    JsonNode dr =
        await(
            "canary subset back on v1",
            () -> destinationRule(name + "-destrule"),
            x -> v1.equals(subsetHash(x, "canary")));
    assertEquals(v1, subsetHash(dr, "stable"));
    await(
        "subset weights 0/100",
        () -> virtualService(name + "-vsvc"),
        x ->
            destWeight(x.path("spec").path("http").path(0), "canary") == 0
                && destWeight(x.path("spec").path("http").path(0), "stable") == 100);
  }

  @Test
  void istioPingPongMovesAllTrafficToPongAtPromotion_keepingTheDestinationOrder() {
    String name = "istpp";
    apply("traffic/istio-pingpong.yaml", vars(name));
    Map<String, String> v = vars(name);
    v.put("REPLICAS", "2");
    v.put(
        "CANARY",
        "{\"pingPong\":{\"pingService\":\"istpp-ping\",\"pongService\":\"istpp-pong\"},"
            + "\"trafficRouting\":{\"istio\":{\"virtualService\":{\"name\":\"istpp-vsvc\",\"routes\":[\"primary\"]}}},"
            + "\"steps\":[{\"setWeight\":25},{\"pause\":{}}]}");
    rollouts.create("traffic/rollout.yaml", v);
    awaitHealthy(name);
    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAt(name, 1);
    await(
        "ping 75 / pong 25",
        () -> virtualService(name + "-vsvc"),
        x -> routeOrder(x).equals(List.of("istpp-ping=75", "istpp-pong=25")));
    rollouts.promote(name);
    awaitHealthy(name);
    await(
        "ping 0 / pong 100",
        () -> virtualService(name + "-vsvc"),
        x -> routeOrder(x).equals(List.of("istpp-ping=0", "istpp-pong=100")));
    rollouts.setImage(name, "registry.example/app:v3");
    awaitPausedAt(name, 1);
    await(
        "ping 25 / pong 75",
        () -> virtualService(name + "-vsvc"),
        x -> routeOrder(x).equals(List.of("istpp-ping=25", "istpp-pong=75")));
    rollouts.promote(name);
    awaitHealthy(name);
    await(
        "ping 100 / pong 0",
        () -> virtualService(name + "-vsvc"),
        x -> routeOrder(x).equals(List.of("istpp-ping=100", "istpp-pong=0")));
  }

  static List<String> routeOrder(JsonNode vs) {
    List<String> out = new ArrayList<>();
    for (JsonNode d : vs.path("spec").path("http").path(0).path("route")) {
      out.add(d.path("destination").path("host").asText() + "=" + d.path("weight").asInt());
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------------------------
  // pingPong

  @Test
  void pingPongSwapsTheRolesOfPingAndPongAtEachPromotionWithoutSwitchingSelectors() {
    String name = "pp";
    apply("traffic/pingpong.yaml", vars(name));
    Map<String, String> v = vars(name);
    v.put("REPLICAS", "4");
    v.put(
        "CANARY",
        "{\"pingPong\":{\"pingService\":\"pp-ping\",\"pongService\":\"pp-pong\"},\"trafficRouting\":"
            + gatewayApi(name)
            + ",\"steps\":[{\"setWeight\":30},{\"pause\":{}}]}");
    rollouts.create("traffic/rollout.yaml", v);
    Rollout r = awaitHealthy(name);
    String v1 = r.getStatus().getStableRS();
    r =
        rollouts.await(
            name,
            "ping stable",
            TIMEOUT,
            x ->
                x.getStatus().getCanary() != null
                    && "ping".equals(x.getStatus().getCanary().getStablePingPong()));
    await("ping selects v1", () -> selected("pp-ping"), v1::equals);
    await(
        "ping 100",
        () -> httpRoute("pp-route"),
        x -> routeWeight(x, 0, "pp-ping") == 100 && routeWeight(x, 0, "pp-pong") == 0);

    rollouts.setImage(name, "registry.example/app:v2");
    String v2 = awaitPausedAt(name, 1).getStatus().getCurrentPodHash();
    await("pong selects v2", () -> selected("pp-pong"), v2::equals);
    assertEquals(v1, selected("pp-ping"));
    await(
        "pong 30",
        () -> httpRoute("pp-route"),
        x -> routeWeight(x, 0, "pp-pong") == 30 && routeWeight(x, 0, "pp-ping") == 70);
    TrafficWeights w = weights(rollouts.get(name));
    assertEquals("pp-pong", w.getCanary().getServiceName());
    assertEquals("pp-ping", w.getStable().getServiceName());

    rollouts.promote(name);
    awaitHealthy(name);
    rollouts.await(
        name,
        "pong stable",
        TIMEOUT,
        x -> "pong".equals(x.getStatus().getCanary().getStablePingPong()));
    await(
        "pong 100",
        () -> httpRoute("pp-route"),
        x -> routeWeight(x, 0, "pp-pong") == 100 && routeWeight(x, 0, "pp-ping") == 0);
    assertEquals(v2, selected("pp-pong"), "pong keeps its selector: it becomes the stable Service");

    rollouts.setImage(name, "registry.example/app:v3");
    String v3 = awaitPausedAt(name, 1).getStatus().getCurrentPodHash();
    await("ping selects v3", () -> selected("pp-ping"), v3::equals);
    await(
        "ping 30",
        () -> httpRoute("pp-route"),
        x -> routeWeight(x, 0, "pp-ping") == 30 && routeWeight(x, 0, "pp-pong") == 70);
    assertEquals(v2, selected("pp-pong"));
  }

  // -------------------------------------------------------------------------------------------------------------
  // No router: Services only

  @Test
  void basicCanaryPointsItsServicesAtTheReplicaSetsAndAbortReturnsTheCanaryServiceToStable() {
    String name = "svconly";
    apply("traffic/services.yaml", vars(name));
    Rollout r =
        createRollout(name, 4, canary(name, null, "[{\"setWeight\":50},{\"pause\":{}}]", null));
    String v1 = r.getStatus().getStableRS();
    await("stable Service adopted", () -> selected(name + "-stable"), v1::equals);
    await("canary Service adopted", () -> selected(name + "-canary"), v1::equals);
    assertEquals(name, service(name + "-canary").getMetadata().getAnnotations().get(MANAGED_BY));
    assertNull(weights(r), "no router, no weights");
    rollouts.setImage(name, "registry.example/app:v2");
    String v2 = awaitPausedAt(name, 1).getStatus().getCurrentPodHash();
    await("canary Service on v2", () -> selected(name + "-canary"), v2::equals);
    assertEquals(v1, selected(name + "-stable"));
    rollouts.abort(name);
    await("canary Service back on v1", () -> selected(name + "-canary"), v1::equals);
    assertFalse(rollouts.eventMessages(name, "SwitchService").isEmpty());

    // The Rollout stops naming its canary Service: the Service is released (selector hash and
    // annotation removed).
    rollouts.mergePatch(name, "{\"spec\":{\"strategy\":{\"canary\":{\"canaryService\":null}}}}");
    Service released =
        await(
            "canary Service released",
            () -> service(name + "-canary"),
            x -> x.getSpec().getSelector().get(HASH) == null);
    assertEquals(name, released.getSpec().getSelector().get("app"), "the user's selector is kept");
    assertTrue(
        released.getMetadata().getAnnotations() == null
            || !released.getMetadata().getAnnotations().containsKey(MANAGED_BY));
    assertEquals(v1, selected(name + "-stable"), "the stable Service stays managed");
  }

  /** Keeps the namespace of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
