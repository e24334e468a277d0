package io.rollgate.e2e.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressPath;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.client.KubernetesClient;
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
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Canary Rollouts routed through the AWS ALB router (annotations of plain Ingresses, read as the
 * AWS Load Balancer Controller reads them) and the APISIX router (ApisixRoute objects), driven the
 * way a user drives them. After each step the annotation values are compared as text, since tools
 * compare them that way.
 */
@ExtendWith(AlbApisixTrafficRoutingE2E.FailureTracker.class)
class AlbApisixTrafficRoutingE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final String HASH = "rollouts-pod-template-hash";
  static final String PREFIX = "alb.ingress.kubernetes.io";
  static final String MANAGED = "rollouts.argoproj.io/managed-alb-annotations";
  static final String APISIX = "apisix.apache.org/v2";
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
    ns = cluster.createNamespace("albapisix");
    rollouts = new Rollouts(client, ns);
    controller = ControllerProcess.start(cluster, "albapisix", "--namespace", ns);
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

  static void apply(String resource, Map<String, String> vars) {
    String yaml;
    try (InputStream in =
        AlbApisixTrafficRoutingE2E.class.getClassLoader().getResourceAsStream(resource)) {
      yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    for (Map.Entry<String, String> e : vars.entrySet()) {
      yaml = yaml.replace("${" + e.getKey() + "}", e.getValue());
    }
    for (HasMetadata item :
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(item).inNamespace(ns).create();
    }
  }

  static Map<String, String> vars(String name) {
    Map<String, String> v = new HashMap<>();
    v.put("NAME", name);
    return v;
  }

  /**
   * An ALB Ingress whose first path goes to the Service {@code <name>-root} with port {@code
   * use-annotation}.
   */
  static void ingress(String name, String ingress) {
    ingress(name, ingress, name + "-root");
  }

  static void ingress(String name, String ingress, String backend) {
    Map<String, String> v = vars(name);
    v.put("INGRESS", ingress);
    v.put("BACKEND", backend);
    apply("traffic/alb-ingress.yaml", v);
  }

  static Rollout create(String name, int replicas, String canaryJson) {
    Map<String, String> v = vars(name);
    v.put("REPLICAS", String.valueOf(replicas));
    v.put("CANARY", canaryJson);
    rollouts.create("traffic/rollout.yaml", v);
    return awaitHealthy(name);
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

  static <T> T await(String what, Supplier<T> read, Predicate<T> ok) {
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

  static Ingress getIngress(String name) {
    return client.network().v1().ingresses().inNamespace(ns).withName(name).get();
  }

  static String annotation(Ingress ing, String key) {
    return ing == null || ing.getMetadata().getAnnotations() == null
        ? null
        : ing.getMetadata().getAnnotations().get(key);
  }

  static String selected(String service) {
    var s = client.services().inNamespace(ns).withName(service).get();
    return s.getSpec().getSelector() == null ? null : s.getSpec().getSelector().get(HASH);
  }

  static TrafficWeights weights(Rollout r) {
    return r.getStatus() == null || r.getStatus().getCanary() == null
        ? null
        : r.getStatus().getCanary().getWeights();
  }

  /**
   * The forward action the AWS controller reads: target groups in order, each {@code
   * "<svc>","80",<weight>}.
   */
  static String action(String stickiness, String... serviceWeight) {
    StringBuilder b =
        new StringBuilder("{\"Type\":\"forward\",\"ForwardConfig\":{\"TargetGroups\":[");
    for (int i = 0; i < serviceWeight.length; i += 2) {
      b.append(i > 0 ? "," : "")
          .append("{\"ServiceName\":\"")
          .append(serviceWeight[i])
          .append("\",\"ServicePort\":\"80\",\"Weight\":")
          .append(serviceWeight[i + 1])
          .append('}');
    }
    b.append(']');
    if (stickiness != null) {
      b.append(",\"TargetGroupStickinessConfig\":{\"Enabled\":true,\"DurationSeconds\":")
          .append(stickiness)
          .append('}');
    }
    return b.append("}}").toString();
  }

  static Ingress awaitAction(String ingress, String key, String value) {
    return await(
        ingress + " " + key + " = " + value,
        () -> getIngress(ingress),
        i -> value.equals(annotation(i, key)));
  }

  static List<String> paths(Ingress ing) {
    List<String> out = new ArrayList<>();
    for (HTTPIngressPath p : ing.getSpec().getRules().get(0).getHttp().getPaths()) {
      String port =
          p.getBackend().getService().getPort().getName() != null
              ? p.getBackend().getService().getPort().getName()
              : String.valueOf(p.getBackend().getService().getPort().getNumber());
      out.add(
          p.getPath()
              + " "
              + p.getPathType()
              + " "
              + p.getBackend().getService().getName()
              + ":"
              + port);
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------------------------
  // AWS ALB

  @Test
  void albWeightsAndHeaderRouteOnEveryIngress_followTheSteps_andPromotionRemovesTheRoute() {
    String name = "albm";
    apply("traffic/services.yaml", vars(name));
    apply("traffic/alb-root-service.yaml", vars(name));
    ingress(name, "albm-a");
    ingress(name, "albm-b");
    String tr =
        "{\"managedRoutes\":[{\"name\":\"albm-hdr\"}],\"alb\":{\"ingresses\":[\"albm-a\",\"albm-b\"],"
            + "\"rootService\":\"albm-root\",\"servicePort\":80,\"stickinessConfig\":{\"enabled\":true,\"durationSeconds\":600}}}";
    String steps =
        "[{\"setCanaryScale\":{\"replicas\":1}},{\"setWeight\":20},{\"pause\":{}},"
            + "{\"setHeaderRoute\":{\"name\":\"albm-hdr\",\"match\":["
            + "{\"headerName\":\"X-Canary\",\"headerValue\":{\"exact\":\"yes\"}},"
            + "{\"headerName\":\"X-Canary\",\"headerValue\":{\"exact\":\"on\"}}]}},"
            + "{\"pause\":{}},{\"setWeight\":60},{\"pause\":{}}]";
    Rollout r =
        create(
            name,
            4,
            "{\"stableService\":\"albm-stable\",\"canaryService\":\"albm-canary\",\"trafficRouting\":"
                + tr
                + ",\"steps\":"
                + steps
                + "}");
    String v1 = r.getStatus().getStableRS();
    String rootKey = PREFIX + "/actions.albm-root";
    String hdrAction = PREFIX + "/actions.albm-hdr";
    String hdrCondition = PREFIX + "/conditions.albm-hdr";

    for (String ing : List.of("albm-a", "albm-b")) {
      Ingress i =
          awaitAction(ing, rootKey, action("600", "albm-canary", "0", "albm-stable", "100"));
      assertEquals("{\"albm\":[\"" + rootKey + "\"]}", annotation(i, MANAGED));
      assertEquals(
          "internet-facing", annotation(i, PREFIX + "/scheme"), "the user's annotations are kept");
      assertEquals(
          List.of("/ Prefix albm-root:use-annotation", "/static Prefix other-service:80"),
          paths(i));
    }
    r = rollouts.get(name);
    assertNull(r.getStatus().getAlb(), "no status.alb without target-group verification");
    assertNull(r.getStatus().getAlbs());

    rollouts.setImage(name, "registry.example/app:v2");
    r = awaitPausedAt(name, 2);
    String v2 = r.getStatus().getCurrentPodHash();
    assertNotEquals(v1, v2);
    for (String ing : List.of("albm-a", "albm-b")) {
      Ingress i =
          awaitAction(ing, rootKey, action("600", "albm-canary", "20", "albm-stable", "80"));
      assertNull(annotation(i, hdrAction));
    }
    assertEquals(
        1, rollouts.specReplicas(name, v2), "setCanaryScale replicas: 1 holds under setWeight 20");
    assertEquals(4, rollouts.specReplicas(name, v1));
    TrafficWeights w = weights(rollouts.get(name));
    assertEquals(20, w.getCanary().getWeight());
    assertEquals("albm-canary", w.getCanary().getServiceName());
    assertEquals(80, w.getStable().getWeight());
    assertNull(w.getVerified(), "weights are not verified against AWS");
    assertTrue(
        rollouts
            .eventMessages(name, "PatchingALBIngress")
            .contains("Updating Ingress `albm-a` to desiredWeight '20'"),
        rollouts.eventMessages(name, "PatchingALBIngress").toString());

    rollouts.promote(name);
    awaitPausedAt(name, 4);
    for (String ing : List.of("albm-a", "albm-b")) {
      Ingress i = awaitAction(ing, hdrAction, action("600", "albm-canary", "100"));
      assertEquals(
          "[{\"field\":\"http-header\",\"httpHeaderConfig\":{\"httpHeaderName\":\"X-Canary\",\"values\":[\"yes\",\"on\"]}}]",
          annotation(i, hdrCondition));
      assertEquals(
          "{\"albm\":[\"" + rootKey + "\",\"" + hdrAction + "\",\"" + hdrCondition + "\"]}",
          annotation(i, MANAGED));
      assertEquals(
          List.of(
              "/* ImplementationSpecific albm-hdr:use-annotation",
              "/ Prefix albm-root:use-annotation",
              "/static Prefix other-service:80"),
          paths(i),
          "the header route's path goes first");
      assertEquals(action("600", "albm-canary", "20", "albm-stable", "80"), annotation(i, rootKey));
    }

    rollouts.promote(name);
    awaitPausedAt(name, 6);
    for (String ing : List.of("albm-a", "albm-b")) {
      Ingress i =
          awaitAction(ing, rootKey, action("600", "albm-canary", "60", "albm-stable", "40"));
      assertEquals(
          action("600", "albm-canary", "100"), annotation(i, hdrAction), "the header route stays");
    }

    rollouts.promote(name);
    r = awaitHealthy(name);
    assertEquals(v2, r.getStatus().getStableRS());
    for (String ing : List.of("albm-a", "albm-b")) {
      Ingress i =
          await(
              ing + " header route removed, weight back to stable",
              () -> getIngress(ing),
              x ->
                  annotation(x, hdrAction) == null
                      && action("600", "albm-canary", "0", "albm-stable", "100")
                          .equals(annotation(x, rootKey)));
      assertNull(annotation(i, hdrCondition));
      assertEquals("{\"albm\":[\"" + rootKey + "\"]}", annotation(i, MANAGED));
      assertEquals(
          List.of("/ Prefix albm-root:use-annotation", "/static Prefix other-service:80"),
          paths(i));
    }
    await("stable Service on v2", () -> selected("albm-stable"), v2::equals);
  }

  @Test
  void albPingPongSwapsPingAndPongAtEachPromotion() {
    String name = "albpp";
    apply("traffic/alb-pingpong-services.yaml", vars(name));
    apply("traffic/alb-root-service.yaml", vars(name));
    ingress(name, "albpp-web");
    String canary =
        "{\"pingPong\":{\"pingService\":\"albpp-ping\",\"pongService\":\"albpp-pong\"},"
            + "\"trafficRouting\":{\"alb\":{\"ingress\":\"albpp-web\",\"rootService\":\"albpp-root\",\"servicePort\":80}},"
            + "\"steps\":[{\"setWeight\":25},{\"pause\":{}}]}";
    Rollout r = create(name, 2, canary);
    String v1 = r.getStatus().getStableRS();
    String key = PREFIX + "/actions.albpp-root";
    // The first deploy makes ping stable: the canary target group (pong) comes first.
    awaitAction("albpp-web", key, action(null, "albpp-pong", "0", "albpp-ping", "100"));
    assertEquals("ping", r.getStatus().getCanary().getStablePingPong());

    rollouts.setImage(name, "registry.example/app:v2");
    r = awaitPausedAt(name, 1);
    String v2 = r.getStatus().getCurrentPodHash();
    awaitAction("albpp-web", key, action(null, "albpp-pong", "25", "albpp-ping", "75"));
    assertEquals(v2, selected("albpp-pong"));
    assertEquals(v1, selected("albpp-ping"));

    rollouts.promote(name);
    r = awaitHealthy(name);
    r =
        rollouts.await(
            name,
            "pong stable",
            TIMEOUT,
            x -> "pong".equals(x.getStatus().getCanary().getStablePingPong()));
    // After the promotion pong is stable and gets everything; ping becomes the next canary.
    awaitAction("albpp-web", key, action(null, "albpp-ping", "0", "albpp-pong", "100"));

    rollouts.setImage(name, "registry.example/app:v3");
    r = awaitPausedAt(name, 1);
    String v3 = r.getStatus().getCurrentPodHash();
    awaitAction("albpp-web", key, action(null, "albpp-ping", "25", "albpp-pong", "75"));
    assertEquals(v3, selected("albpp-ping"));
    assertEquals(v2, selected("albpp-pong"));
  }

  @Test
  void albAbortSendsEverythingBackToStable() {
    String name = "albab";
    apply("traffic/services.yaml", vars(name));
    apply("traffic/alb-root-service.yaml", vars(name));
    ingress(name, "albab-web");
    Rollout r =
        create(
            name,
            2,
            "{\"stableService\":\"albab-stable\",\"canaryService\":\"albab-canary\","
                + "\"trafficRouting\":{\"alb\":{\"ingress\":\"albab-web\",\"rootService\":\"albab-root\",\"servicePort\":80}},"
                + "\"steps\":[{\"setWeight\":50},{\"pause\":{}}]}");
    String v1 = r.getStatus().getStableRS();
    String key = PREFIX + "/actions.albab-root";
    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAt(name, 1);
    awaitAction("albab-web", key, action(null, "albab-canary", "50", "albab-stable", "50"));

    rollouts.abort(name);
    awaitAction("albab-web", key, action(null, "albab-canary", "0", "albab-stable", "100"));
    r = rollouts.await(name, "Degraded", TIMEOUT, x -> "Degraded".equals(x.getStatus().getPhase()));
    assertEquals(0, weights(r).getCanary().getWeight());
    assertEquals(100, weights(r).getStable().getWeight());
    await("canary Service back on stable", () -> selected("albab-canary"), v1::equals);
    assertFalse(rollouts.eventMessages(name, "RolloutAborted").isEmpty());
  }

  @Test
  void albDeletedRolloutLeavesItsActionSendingEverythingToTheStableService() {
    String name = "albdel";
    apply("traffic/services.yaml", vars(name));
    ingress(name, "albdel-web", "albdel-stable");
    create(
        name,
        2,
        "{\"stableService\":\"albdel-stable\",\"canaryService\":\"albdel-canary\","
            + "\"trafficRouting\":{\"alb\":{\"ingress\":\"albdel-web\",\"servicePort\":80}},"
            + "\"steps\":[{\"setWeight\":30},{\"pause\":{}}]}");
    String key = PREFIX + "/actions.albdel-stable";
    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAt(name, 1);
    Ingress i =
        awaitAction("albdel-web", key, action(null, "albdel-canary", "30", "albdel-stable", "70"));
    assertEquals("{\"albdel\":[\"" + key + "\"]}", annotation(i, MANAGED));

    client.resources(Rollout.class).inNamespace(ns).withName(name).delete();
    i = awaitAction("albdel-web", key, action(null, "albdel-stable", "100"));
    assertNull(annotation(i, MANAGED), "the Rollout was the only one listed");
    assertEquals("alb", annotation(i, "kubernetes.io/ingress.class"));
  }

  @Test
  void albIngressWithoutTheActionServiceIsReportedAsTrafficRoutingError() {
    String name = "albno";
    apply("traffic/services.yaml", vars(name));
    ingress(name, "albno-web");
    Map<String, String> v = vars(name);
    v.put("REPLICAS", "1");
    v.put(
        "CANARY",
        "{\"stableService\":\"albno-stable\",\"canaryService\":\"albno-canary\","
            + "\"trafficRouting\":{\"alb\":{\"ingress\":\"albno-web\",\"servicePort\":80}},"
            + "\"steps\":[{\"setWeight\":50},{\"pause\":{}}]}");
    rollouts.create("traffic/rollout.yaml", v);
    await(
        "TrafficRoutingError",
        () -> rollouts.eventMessages(name, "TrafficRoutingError"),
        l ->
            l.stream()
                .anyMatch(
                    m ->
                        m.contains(
                            "ingress `albno-web` does not have service `albno-stable` in rules")));
    assertNull(annotation(getIngress("albno-web"), PREFIX + "/actions.albno-stable"));
  }

  // -------------------------------------------------------------------------------------------------------------
  // APISIX

  static JsonNode apisixRoute(String name) {
    GenericKubernetesResource r =
        client
            .genericKubernetesResources(APISIX, "ApisixRoute")
            .inNamespace(ns)
            .withName(name)
            .get();
    return r == null ? null : JSON.valueToTree(r);
  }

  static int backendWeight(JsonNode route, String rule, String service) {
    for (JsonNode r : route.path("spec").path("http")) {
      if (rule.equals(r.path("name").asText())) {
        for (JsonNode b : r.path("backends")) {
          if (service.equals(b.path("serviceName").asText())) {
            return b.path("weight").asInt(-1);
          }
        }
      }
    }
    return -2;
  }

  static JsonNode awaitApisixWeights(String name, int canary) {
    return await(
        name + "-route weights " + canary + "/" + (100 - canary),
        () -> apisixRoute(name + "-route"),
        x ->
            backendWeight(x, name + "-main", name + "-canary") == canary
                && backendWeight(x, name + "-main", name + "-stable") == 100 - canary);
  }

  @Test
  void apisixWeightsTheNamedRule_andTheHeaderRouteIsAnApisixRouteOfItsOwnUntilPromotion() {
    String name = "apx";
    apply("traffic/services.yaml", vars(name));
    apply("traffic/apisix-route.yaml", vars(name));
    String steps =
        "[{\"setWeight\":20},{\"pause\":{}},"
            + "{\"setHeaderRoute\":{\"name\":\"apx-hdr\",\"match\":[{\"headerName\":\"trace\",\"headerValue\":{\"exact\":\"debug\"}}]}},"
            + "{\"pause\":{}}]";
    Rollout r =
        create(
            name,
            2,
            "{\"stableService\":\"apx-stable\",\"canaryService\":\"apx-canary\","
                + "\"trafficRouting\":{\"managedRoutes\":[{\"name\":\"apx-hdr\"}],"
                + "\"apisix\":{\"route\":{\"name\":\"apx-route\",\"rules\":[\"apx-main\"]}}},\"steps\":"
                + steps
                + "}");
    awaitApisixWeights(name, 0);

    rollouts.setImage(name, "registry.example/app:v2");
    r = awaitPausedAt(name, 1);
    String v2 = r.getStatus().getCurrentPodHash();
    JsonNode route = awaitApisixWeights(name, 20);
    assertEquals(
        -1, backendWeight(route, "apx-static", "other-service"), "rules not named are left alone");
    assertEquals(20, weights(r).getCanary().getWeight());
    assertNull(apisixRoute("apx-hdr"));

    rollouts.promote(name);
    awaitPausedAt(name, 3);
    JsonNode hdr =
        await("header ApisixRoute apx-hdr", () -> apisixRoute("apx-hdr"), Objects::nonNull);
    JsonNode owner = hdr.path("metadata").path("ownerReferences").path(0);
    assertEquals("Rollout", owner.path("kind").asText());
    assertEquals(r.getMetadata().getUid(), owner.path("uid").asText());
    assertTrue(owner.path("controller").asBoolean());
    JsonNode main = null;
    for (JsonNode x : hdr.path("spec").path("http")) {
      if ("apx-main".equals(x.path("name").asText())) {
        main = x;
      }
    }
    assertEquals(1, main.path("backends").size(), hdr.toString());
    assertEquals("apx-canary", main.path("backends").path(0).path("serviceName").asText());
    assertEquals(100, main.path("backends").path(0).path("weight").asInt());
    assertEquals(2, main.path("priority").asInt(), "one above the weighted rule");
    JsonNode expr = main.path("match").path("exprs").path(0);
    assertEquals(1, main.path("match").path("exprs").size());
    assertEquals("Header", expr.path("subject").path("scope").asText());
    assertEquals("trace", expr.path("subject").path("name").asText());
    assertEquals("Equal", expr.path("op").asText());
    assertEquals("debug", expr.path("value").asText());
    assertEquals(
        "apx.example.com",
        main.path("match").path("hosts").path(0).asText(),
        "the rule's own match is kept");
    awaitApisixWeights(name, 20);

    rollouts.promote(name);
    r = awaitHealthy(name);
    assertEquals(v2, r.getStatus().getStableRS());
    await("header ApisixRoute deleted", () -> apisixRoute("apx-hdr"), Objects::isNull);
    awaitApisixWeights(name, 0);
  }

  /** Keeps the namespace of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
