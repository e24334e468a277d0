package io.rollgate.e2e.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutCondition;
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
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Canary Rollouts routed through Traefik (TraefikService), Ambassador (canary Mappings) and App
 * Mesh (VirtualRouter and VirtualNodes), driven the way a user drives them; after each step the
 * router objects in the API server, the Rollout's {@code status.canary.weights} and its events are
 * checked.
 *
 * <p>Two controllers run: one with the default router API versions in one namespace, and one
 * started with {@code --traefik-api-group traefik.containo.us --traefik-api-version
 * traefik.containo.us/v1alpha1 --ambassador-api-version getambassador.io/v3alpha1} in another.
 */
@ExtendWith(TraefikAmbassadorAppMeshE2E.FailureTracker.class)
class TraefikAmbassadorAppMeshE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final String HASH = "rollouts-pod-template-hash";
  static final String TRAEFIK = "traefik.io/v1alpha1";
  static final String TRAEFIK_V2 = "traefik.containo.us/v1alpha1";
  static final String MAPPING_V2 = "getambassador.io/v2";
  static final String MAPPING_V3 = "getambassador.io/v3alpha1";
  static final String APPMESH = "appmesh.k8s.aws/v1beta2";
  static final String DIR = "traefik-ambassador-appmesh/";
  static final ObjectMapper JSON = new ObjectMapper();

  static TestCluster cluster;
  static KubernetesClient client;
  static Env main;
  static Env alt;
  static boolean failed;

  /** One namespace with its controller. */
  record Env(String ns, Rollouts rollouts, ControllerProcess controller) {}

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    client = cluster.client();
    RouterCrds.ensure(client);
    String ns = cluster.createNamespace("routers");
    main =
        new Env(
            ns,
            new Rollouts(client, ns),
            ControllerProcess.start(cluster, "routers", "--namespace", ns));
    String altNs = cluster.createNamespace("routers-alt");
    alt =
        new Env(
            altNs,
            new Rollouts(client, altNs),
            ControllerProcess.start(
                cluster,
                "routers-alt",
                "--namespace",
                altNs,
                "--traefik-api-group",
                "traefik.containo.us",
                "--traefik-api-version",
                TRAEFIK_V2,
                "--ambassador-api-version",
                MAPPING_V3));
  }

  @AfterAll
  static void tearDown() {
    for (Env e : new Env[] {main, alt}) {
      if (e == null) {
        continue;
      }
      e.controller().close();
      if (!failed) {
        cluster.deleteNamespace(e.ns());
      }
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Fixtures and observations

  static String read(String resource) {
    try (InputStream in =
        TraefikAmbassadorAppMeshE2E.class.getClassLoader().getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static void apply(Env env, String resource, Map<String, String> vars) {
    String yaml = read(DIR + resource);
    for (Map.Entry<String, String> e : vars.entrySet()) {
      yaml = yaml.replace("${" + e.getKey() + "}", e.getValue());
    }
    for (HasMetadata item :
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(item).inNamespace(env.ns()).create();
    }
  }

  static Map<String, String> vars(String name, String... more) {
    Map<String, String> v = new HashMap<>();
    v.put("NAME", name);
    for (int i = 0; i + 1 < more.length; i += 2) {
      v.put(more[i], more[i + 1]);
    }
    return v;
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
        + ",\"trafficRouting\":"
        + trafficRouting
        + ",\"steps\":"
        + steps
        + (extra == null || extra.isEmpty() ? "" : "," + extra)
        + "}";
  }

  static void createRollout(Env env, String name, int replicas, String canaryJson) {
    Map<String, String> v = vars(name, "REPLICAS", String.valueOf(replicas), "CANARY", canaryJson);
    env.rollouts().create(DIR + "rollout.yaml", v);
  }

  static Rollout awaitHealthy(Env env, String name) {
    return env.rollouts()
        .await(
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

  static Rollout awaitPausedAt(Env env, String name, int step) {
    return env.rollouts()
        .await(
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

  /** Waits until {@code status.canary.weights} has this canary weight, and returns the Rollout. */
  static Rollout awaitStatusWeight(Env env, String name, int canaryWeight) {
    return env.rollouts()
        .await(
            name,
            name + " status weight " + canaryWeight,
            TIMEOUT,
            r -> weights(r) != null && weights(r).getCanary().getWeight() == canaryWeight);
  }

  static void assertStatusWeights(
      Rollout r, int canary, String canaryHash, int stable, String stableHash) {
    TrafficWeights w = weights(r);
    assertNotNull(w, "status.canary.weights");
    assertEquals(canary, w.getCanary().getWeight(), "canary weight");
    assertEquals(canaryHash, w.getCanary().getPodTemplateHash(), "canary hash");
    assertEquals(r.getMetadata().getName() + "-canary", w.getCanary().getServiceName());
    assertEquals(stable, w.getStable().getWeight(), "stable weight");
    assertEquals(stableHash, w.getStable().getPodTemplateHash(), "stable hash");
    assertEquals(r.getMetadata().getName() + "-stable", w.getStable().getServiceName());
  }

  static String selected(Env env, String service) {
    Service s = client.services().inNamespace(env.ns()).withName(service).get();
    return s.getSpec().getSelector() == null ? null : s.getSpec().getSelector().get(HASH);
  }

  static JsonNode generic(Env env, String apiVersion, String kind, String name) {
    GenericKubernetesResource r =
        client
            .genericKubernetesResources(apiVersion, kind)
            .inNamespace(env.ns())
            .withName(name)
            .get();
    return r == null ? null : JSON.valueToTree(r);
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

  static List<String> events(Env env, String name, String reason) {
    return env.rollouts().eventMessages(name, reason);
  }

  static RolloutCondition condition(Rollout r, String type) {
    if (r.getStatus() == null || r.getStatus().getConditions() == null) {
      return null;
    }
    return r.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()))
        .findFirst()
        .orElse(null);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Traefik

  static String traefik(String name) {
    return "{\"traefik\":{\"weightedTraefikServiceName\":\"" + name + "-ts\"}}";
  }

  /**
   * The weight of the {@code spec.weighted.services} entry named {@code service} (-1 when absent).
   */
  static int traefikWeight(JsonNode ts, String service) {
    for (JsonNode s : ts.path("spec").path("weighted").path("services")) {
      if (service.equals(s.path("name").asText())) {
        return s.path("weight").asInt(-1);
      }
    }
    return -1;
  }

  static JsonNode awaitTraefikWeights(Env env, String apiVersion, String name, int canaryWeight) {
    return await(
        name + "-ts (" + apiVersion + ") weights " + canaryWeight + "/" + (100 - canaryWeight),
        () -> generic(env, apiVersion, "TraefikService", name + "-ts"),
        ts ->
            traefikWeight(ts, name + "-canary") == canaryWeight
                && traefikWeight(ts, name + "-stable") == 100 - canaryWeight);
  }

  static void assertTraefikUntouchedFields(JsonNode ts, String name) {
    assertEquals(
        5, traefikWeight(ts, name + "-legacy"), "an entry of another Service keeps its weight");
    assertEquals(
        "lb",
        ts.path("spec").path("weighted").path("sticky").path("cookie").path("name").asText(),
        "other fields of spec.weighted are kept");
    assertEquals(3, ts.path("spec").path("weighted").path("services").size());
    assertEquals(
        name + "-stable",
        ts.path("spec").path("weighted").path("services").path(0).path("name").asText(),
        "entries keep their order");
  }

  @Test
  void traefikWeightsFollowTheSteps_withSetCanaryScale_andAbortReturnsThemToStable() {
    String name = "trf";
    apply(main, "services.yaml", vars(name));
    apply(main, "traefikservice.yaml", vars(name, "APIVERSION", TRAEFIK));
    createRollout(
        main,
        name,
        4,
        canary(
            name,
            traefik(name),
            "[{\"setCanaryScale\":{\"replicas\":1}},{\"setWeight\":40},{\"pause\":{}},{\"setWeight\":60},{\"pause\":{}}]",
            "\"abortScaleDownDelaySeconds\":0"));
    Rollout r = awaitHealthy(main, name);
    String v1 = r.getStatus().getStableRS();
    assertStatusWeights(awaitStatusWeight(main, name, 0), 0, v1, 100, v1);
    assertTraefikUntouchedFields(awaitTraefikWeights(main, TRAEFIK, name, 0), name);

    main.rollouts().setImage(name, "registry.example/app:v2");
    r = awaitPausedAt(main, name, 2);
    String v2 = r.getStatus().getCurrentPodHash();
    assertNotEquals(v1, v2);
    JsonNode ts = awaitTraefikWeights(main, TRAEFIK, name, 40);
    assertTraefikUntouchedFields(ts, name);
    assertEquals(
        1,
        main.rollouts().specReplicas(name, v2),
        "setCanaryScale: 1 canary pod whatever the weight");
    assertEquals(4, main.rollouts().specReplicas(name, v1));
    assertStatusWeights(awaitStatusWeight(main, name, 40), 40, v2, 60, v1);
    assertEquals(v2, selected(main, name + "-canary"));
    assertEquals(v1, selected(main, name + "-stable"));
    assertTrue(
        events(main, name, "TrafficWeightUpdated").contains("Traffic weight updated from 0 to 40"),
        events(main, name, "TrafficWeightUpdated").toString());

    main.rollouts().promote(name);
    awaitPausedAt(main, name, 4);
    awaitTraefikWeights(main, TRAEFIK, name, 60);
    assertEquals(
        1,
        main.rollouts().specReplicas(name, v2),
        "the canary scale stays until another setCanaryScale");

    main.rollouts().abort(name);
    ts = awaitTraefikWeights(main, TRAEFIK, name, 0);
    assertTraefikUntouchedFields(ts, name);
    r =
        main.rollouts()
            .await(name, "Degraded", TIMEOUT, x -> "Degraded".equals(x.getStatus().getPhase()));
    assertStatusWeights(awaitStatusWeight(main, name, 0), 0, v2, 100, v1);
    await("canary Service back on stable", () -> selected(main, name + "-canary"), v1::equals);
    // setCanaryScale with abortScaleDownDelaySeconds: 0 leaves the canary scaled up after the
    // abort, as in Argo.
    assertEquals(
        1, main.rollouts().specReplicas(name, v2), "the canary keeps its setCanaryScale pod");
    assertEquals(4, main.rollouts().specReplicas(name, v1));
    assertTrue(
        events(main, name, "TrafficWeightUpdated").contains("Traffic weight updated from 60 to 0"),
        events(main, name, "TrafficWeightUpdated").toString());
  }

  @Test
  void traefikPromoteFullWithDynamicStableScaleEndsWithEverythingOnTheNewStable() {
    String name = "trfdyn";
    apply(main, "services.yaml", vars(name));
    apply(main, "traefikservice.yaml", vars(name, "APIVERSION", TRAEFIK));
    createRollout(
        main,
        name,
        4,
        canary(
            name,
            traefik(name),
            "[{\"setWeight\":50},{\"pause\":{}}]",
            "\"dynamicStableScale\":true"));
    String v1 = awaitHealthy(main, name).getStatus().getStableRS();
    main.rollouts().setImage(name, "registry.example/app:v2");
    String v2 = awaitPausedAt(main, name, 1).getStatus().getCurrentPodHash();
    awaitTraefikWeights(main, TRAEFIK, name, 50);
    await(
        "dynamicStableScale: stable scaled down to 2",
        () -> main.rollouts().specReplicas(name, v1),
        n -> n == 2);
    assertEquals(2, main.rollouts().specReplicas(name, v2));

    main.rollouts().promoteFull(name);
    Rollout r = awaitHealthy(main, name);
    assertEquals(v2, r.getStatus().getStableRS());
    awaitTraefikWeights(main, TRAEFIK, name, 0);
    assertStatusWeights(awaitStatusWeight(main, name, 0), 0, v2, 100, v2);
    await("stable Service on v2", () -> selected(main, name + "-stable"), v2::equals);
    await("old stable scaled to 0", () -> main.rollouts().specReplicas(name, v1), n -> n == 0);
    List<String> updates = events(main, name, "TrafficWeightUpdated");
    assertTrue(
        updates.stream().anyMatch(m -> m.endsWith(" to 100")),
        "promote --full moved all traffic: " + updates);
  }

  @Test
  void traefikOlderApiGroupIsWrittenWhenTheControllerIsStartedWithItsFlags() {
    String name = "trfold";
    apply(alt, "services.yaml", vars(name));
    apply(alt, "traefikservice.yaml", vars(name, "APIVERSION", TRAEFIK_V2));
    // A TraefikService of the same name in the newer group, which this controller must not touch.
    apply(alt, "traefikservice.yaml", vars(name, "APIVERSION", TRAEFIK));
    createRollout(
        alt, name, 2, canary(name, traefik(name), "[{\"setWeight\":30},{\"pause\":{}}]", null));
    String v1 = awaitHealthy(alt, name).getStatus().getStableRS();
    alt.rollouts().setImage(name, "registry.example/app:v2");
    String v2 = awaitPausedAt(alt, name, 1).getStatus().getCurrentPodHash();
    assertTraefikUntouchedFields(awaitTraefikWeights(alt, TRAEFIK_V2, name, 30), name);
    assertStatusWeights(awaitStatusWeight(alt, name, 30), 30, v2, 70, v1);
    JsonNode decoy = generic(alt, TRAEFIK, "TraefikService", name + "-ts");
    assertEquals(
        0, traefikWeight(decoy, name + "-canary"), "traefik.io object left alone: " + decoy);
    assertEquals(
        1,
        decoy.path("metadata").path("generation").asInt(),
        "traefik.io object never written: " + decoy);

    alt.rollouts().promote(name);
    awaitHealthy(alt, name);
    awaitTraefikWeights(alt, TRAEFIK_V2, name, 0);
    assertStatusWeights(awaitStatusWeight(alt, name, 0), 0, v2, 100, v2);
  }

  @Test
  void traefikServiceWithoutTheCanaryEntryIsReportedAsTrafficRoutingError() {
    String name = "trfbad";
    apply(main, "services.yaml", vars(name));
    apply(main, "traefikservice.yaml", vars(name, "APIVERSION", TRAEFIK));
    client
        .genericKubernetesResources(TRAEFIK, "TraefikService")
        .inNamespace(main.ns())
        .withName(name + "-ts")
        .edit(
            ts -> {
              @SuppressWarnings("unchecked")
              Map<String, Object> weighted =
                  (Map<String, Object>)
                      ((Map<String, Object>) ts.getAdditionalProperties().get("spec"))
                          .get("weighted");
              weighted.put(
                  "services", List.of(Map.of("name", name + "-stable", "port", 80, "weight", 100)));
              return ts;
            });
    createRollout(
        main, name, 1, canary(name, traefik(name), "[{\"setWeight\":30},{\"pause\":{}}]", null));
    List<String> errors =
        await(
            "TrafficRoutingError",
            () -> events(main, name, "TrafficRoutingError"),
            l -> !l.isEmpty());
    assertTrue(
        errors.stream()
            .anyMatch(
                m ->
                    m.equals(
                        "Traefik: failed to set weight: TraefikService `trfbad-ts`:"
                            + " canary Service `trfbad-canary` not found in spec.weighted.services")),
        errors.toString());
  }

  // -------------------------------------------------------------------------------------------------------------
  // Ambassador

  static String ambassador(String... mappings) {
    return "{\"ambassador\":{\"mappings\":[\"" + String.join("\",\"", mappings) + "\"]}}";
  }

  static void applyMapping(Env env, String name, String mapping, String apiVersion) {
    apply(env, "mapping.yaml", vars(name, "MAPPING", mapping, "APIVERSION", apiVersion));
  }

  static JsonNode awaitCanaryMappingWeight(Env env, String apiVersion, String mapping, int weight) {
    return await(
        mapping + "-canary weight " + weight,
        () -> generic(env, apiVersion, "Mapping", mapping + "-canary"),
        m -> m != null && m.path("spec").path("weight").asInt(-1) == weight);
  }

  /**
   * Waits until a canary Mapping is gone and returns the weights it was seen with on the way (it is
   * set to 0 and deleted 5 s later).
   */
  static List<Integer> awaitCanaryMappingDeleted(Env env, String apiVersion, String mapping) {
    List<Integer> seen = new ArrayList<>();
    await(
        mapping + "-canary deleted",
        () -> {
          JsonNode m = generic(env, apiVersion, "Mapping", mapping + "-canary");
          if (m != null) {
            int w = m.path("spec").path("weight").asInt(-1);
            if (seen.isEmpty() || seen.get(seen.size() - 1) != w) {
              seen.add(w);
            }
          }
          return m == null;
        },
        Boolean::booleanValue);
    return seen;
  }

  static void assertCanaryMapping(JsonNode canary, Rollout r, String name, String mapping) {
    assertEquals(
        name + "-canary:80",
        canary.path("spec").path("service").asText(),
        "points at the canary Service");
    assertEquals(
        "/" + mapping + "/", canary.path("spec").path("prefix").asText(), "stable spec copied");
    assertEquals("/", canary.path("spec").path("rewrite").asText());
    assertEquals(name + ".example.com", canary.path("spec").path("hostname").asText());
    assertEquals(3000, canary.path("spec").path("timeout_ms").asInt());
    assertTrue(
        canary.path("metadata").path("labels").path("team").isMissingNode(),
        "labels are not copied");
    JsonNode owner = canary.path("metadata").path("ownerReferences").path(0);
    assertEquals("Rollout", owner.path("kind").asText());
    assertEquals(r.getMetadata().getUid(), owner.path("uid").asText());
    assertTrue(owner.path("controller").asBoolean());
  }

  static void assertStableMappingUntouched(
      Env env, String apiVersion, String name, String mapping) {
    JsonNode stable = generic(env, apiVersion, "Mapping", mapping);
    assertEquals(name + "-stable:80", stable.path("spec").path("service").asText());
    assertTrue(
        stable.path("spec").path("weight").isMissingNode(),
        "no weight on the stable Mapping: " + stable);
    assertEquals(
        1,
        stable.path("metadata").path("generation").asInt(),
        "stable Mapping never written: " + stable);
  }

  @Test
  void ambassadorCanaryMappingsAreCreatedWeightedAndDeletedAtTheEnd() {
    String name = "amb";
    apply(main, "services.yaml", vars(name));
    applyMapping(main, name, "amb-web", MAPPING_V2);
    applyMapping(main, name, "amb-api", MAPPING_V2);
    createRollout(
        main,
        name,
        4,
        canary(
            name,
            ambassador("amb-web", "amb-api"),
            "[{\"setWeight\":30},{\"pause\":{}},{\"setWeight\":60},{\"pause\":{}}]",
            null));
    Rollout r = awaitHealthy(main, name);
    String v1 = r.getStatus().getStableRS();
    assertStatusWeights(awaitStatusWeight(main, name, 0), 0, v1, 100, v1);
    assertNull(
        generic(main, MAPPING_V2, "Mapping", "amb-web-canary"), "no canary Mapping at weight 0");

    main.rollouts().setImage(name, "registry.example/app:v2");
    r = awaitPausedAt(main, name, 1);
    String v2 = r.getStatus().getCurrentPodHash();
    for (String m : List.of("amb-web", "amb-api")) {
      assertCanaryMapping(awaitCanaryMappingWeight(main, MAPPING_V2, m, 30), r, name, m);
      assertStableMappingUntouched(main, MAPPING_V2, name, m);
    }
    assertStatusWeights(awaitStatusWeight(main, name, 30), 30, v2, 70, v1);
    assertTrue(
        events(main, name, "CanaryMappingWeightUpdate").contains("Set canary mapping weight to 30"),
        events(main, name, "CanaryMappingWeightUpdate").toString());

    main.rollouts().promote(name);
    awaitPausedAt(main, name, 3);
    awaitCanaryMappingWeight(main, MAPPING_V2, "amb-web", 60);
    awaitCanaryMappingWeight(main, MAPPING_V2, "amb-api", 60);

    main.rollouts().promote(name);
    List<Integer> seen = awaitCanaryMappingDeleted(main, MAPPING_V2, "amb-web");
    assertTrue(seen.contains(0), "set to weight 0 before it is deleted: " + seen);
    awaitCanaryMappingDeleted(main, MAPPING_V2, "amb-api");
    r = awaitHealthy(main, name);
    assertEquals(v2, r.getStatus().getStableRS());
    assertStatusWeights(awaitStatusWeight(main, name, 0), 0, v2, 100, v2);
    assertStableMappingUntouched(main, MAPPING_V2, name, "amb-web");
    assertTrue(
        events(main, name, "CanaryMappingWeightUpdate").contains("Set canary mapping weight to 0"),
        events(main, name, "CanaryMappingWeightUpdate").toString());
  }

  @Test
  void ambassadorV3alpha1WithTheFlag_abortSetsZeroAndDeletesTheCanaryMapping() {
    String name = "ambv3";
    apply(alt, "services.yaml", vars(name));
    applyMapping(alt, name, "ambv3-web", MAPPING_V3);
    createRollout(
        alt,
        name,
        4,
        canary(
            name,
            ambassador("ambv3-web"),
            "[{\"setWeight\":50},{\"pause\":{}}]",
            "\"dynamicStableScale\":true"));
    String v1 = awaitHealthy(alt, name).getStatus().getStableRS();
    alt.rollouts().setImage(name, "registry.example/app:v2");
    Rollout r = awaitPausedAt(alt, name, 1);
    String v2 = r.getStatus().getCurrentPodHash();
    JsonNode canary = awaitCanaryMappingWeight(alt, MAPPING_V3, "ambv3-web", 50);
    assertCanaryMapping(canary, r, name, "ambv3-web");
    List<String> writers = new ArrayList<>();
    canary
        .path("metadata")
        .path("managedFields")
        .forEach(f -> writers.add(f.path("apiVersion").asText()));
    assertTrue(
        writers.contains(MAPPING_V3) && !writers.contains(MAPPING_V2),
        "written through " + MAPPING_V3 + ": " + writers);
    await(
        "dynamicStableScale: stable scaled down to 2",
        () -> alt.rollouts().specReplicas(name, v1),
        n -> n == 2);

    alt.rollouts().abort(name);
    List<Integer> seen = awaitCanaryMappingDeleted(alt, MAPPING_V3, "ambv3-web");
    assertTrue(seen.contains(0), "set to weight 0 before it is deleted: " + seen);
    alt.rollouts()
        .await(name, "Degraded", TIMEOUT, x -> "Degraded".equals(x.getStatus().getPhase()));
    assertStatusWeights(awaitStatusWeight(alt, name, 0), 0, v2, 100, v1);
    await("stable back to 4", () -> alt.rollouts().specReplicas(name, v1), n -> n == 4);
    await("canary Service back on stable", () -> selected(alt, name + "-canary"), v1::equals);
    assertStableMappingUntouched(alt, MAPPING_V3, name, "ambv3-web");
  }

  @Test
  void ambassadorMissingOrWeightedStableMappingsAreReportedTogether() {
    String name = "ambbad";
    apply(main, "services.yaml", vars(name));
    applyMapping(main, name, "ambbad-web", MAPPING_V2);
    client
        .genericKubernetesResources(MAPPING_V2, "Mapping")
        .inNamespace(main.ns())
        .withName("ambbad-web")
        .edit(
            m -> {
              @SuppressWarnings("unchecked")
              Map<String, Object> spec =
                  (Map<String, Object>) m.getAdditionalProperties().get("spec");
              spec.put("weight", 10);
              return m;
            });
    createRollout(
        main,
        name,
        1,
        canary(
            name,
            ambassador("ambbad-web", "ambbad-missing"),
            "[{\"setWeight\":50},{\"pause\":{}}]",
            null));
    awaitHealthy(main, name);
    main.rollouts().setImage(name, "registry.example/app:v2");
    List<String> errors =
        await(
            "TrafficRoutingError",
            () -> events(main, name, "TrafficRoutingError"),
            l -> !l.isEmpty());
    String expected =
        "Ambassador: failed to set weight: 2 errors found: "
            + "[Ambassador mapping \"ambbad-web\" can not define weight][Ambassador mapping \"ambbad-missing\" not found]";
    assertTrue(errors.contains(expected), errors.toString());
    assertTrue(
        events(main, name, "AmbassadorMappingConfigError")
            .contains("Ambassador mapping \"ambbad-web\" can not" + " define weight"),
        events(main, name, "AmbassadorMappingConfigError").toString());
    assertTrue(
        events(main, name, "AmbassadorMappingNotFound")
            .contains("Ambassador mapping \"ambbad-missing\" not found"),
        events(main, name, "AmbassadorMappingNotFound").toString());
    assertNull(generic(main, MAPPING_V2, "Mapping", "ambbad-web-canary"));
  }

  // -------------------------------------------------------------------------------------------------------------
  // App Mesh

  static String appMesh(String name, String routes) {
    return "{\"appMesh\":{\"virtualService\":{\"name\":\""
        + name
        + "-vsvc\""
        + (routes == null ? "" : ",\"routes\":" + routes)
        + "},"
        + "\"virtualNodeGroup\":{\"canaryVirtualNodeRef\":{\"name\":\""
        + name
        + "-canary-vn\"},"
        + "\"stableVirtualNodeRef\":{\"name\":\""
        + name
        + "-stable-vn\"}}}}";
  }

  /** {@code [stable weight, canary weight]} of a VirtualRouter route. */
  static int[] routeWeights(JsonNode vr, String route, String name) {
    for (JsonNode r : vr.path("spec").path("routes")) {
      if (!route.equals(r.path("name").asText())) {
        continue;
      }
      int[] out = {-1, -1};
      for (String type : List.of("httpRoute", "http2Route", "grpcRoute", "tcpRoute")) {
        for (JsonNode t : r.path(type).path("action").path("weightedTargets")) {
          String node = t.path("virtualNodeRef").path("name").asText();
          if (node.equals(name + "-stable-vn")) {
            out[0] = t.path("weight").asInt();
          } else if (node.equals(name + "-canary-vn")) {
            out[1] = t.path("weight").asInt();
          }
        }
      }
      return out;
    }
    return null;
  }

  static JsonNode awaitRouterWeights(Env env, String name, String route, int canaryWeight) {
    return await(
        name + "-vrouter " + route + " weights " + canaryWeight + "/" + (100 - canaryWeight),
        () -> generic(env, APPMESH, "VirtualRouter", name + "-vrouter"),
        vr ->
            java.util.Arrays.equals(
                routeWeights(vr, route, name), new int[] {100 - canaryWeight, canaryWeight}));
  }

  static JsonNode awaitNodeSelects(Env env, String node, String hash) {
    return await(
        node + " selects " + hash,
        () -> generic(env, APPMESH, "VirtualNode", node),
        vn ->
            hash.equals(
                vn.path("spec").path("podSelector").path("matchLabels").path(HASH).asText()));
  }

  static void assertNodeManaged(JsonNode vn, String name) {
    assertEquals(
        name,
        vn.path("spec").path("podSelector").path("matchLabels").path("app").asText(),
        "the user's selector labels are kept");
    assertEquals(
        name,
        vn.path("metadata")
            .path("annotations")
            .path("argo-rollouts.argoproj.io/managed-by-rollouts")
            .asText(),
        "managed-by annotation");
    assertEquals(
        80,
        vn.path("spec").path("listeners").path(0).path("portMapping").path("port").asInt(),
        "the rest of the spec is kept");
  }

  @Test
  void appMeshRouteWeightsAndVirtualNodeSelectorsFollowTheRollout_throughPromoteFull() {
    String name = "mesh";
    apply(main, "services.yaml", vars(name));
    apply(main, "appmesh.yaml", vars(name));
    createRollout(
        main,
        name,
        4,
        canary(
            name,
            appMesh(name, "[\"primary\"]"),
            "[{\"setWeight\":25},{\"pause\":{}},{\"setWeight\":75},{\"pause\":{}}]",
            null));
    Rollout r = awaitHealthy(main, name);
    String v1 = r.getStatus().getStableRS();
    assertNodeManaged(awaitNodeSelects(main, name + "-stable-vn", v1), name);
    assertNodeManaged(awaitNodeSelects(main, name + "-canary-vn", "canary-hash"), name);
    awaitRouterWeights(main, name, "primary", 0);
    assertStatusWeights(awaitStatusWeight(main, name, 0), 0, v1, 100, v1);

    main.rollouts().setImage(name, "registry.example/app:v2");
    r = awaitPausedAt(main, name, 1);
    String v2 = r.getStatus().getCurrentPodHash();
    awaitNodeSelects(main, name + "-canary-vn", v2);
    awaitNodeSelects(main, name + "-stable-vn", v1);
    JsonNode vr = awaitRouterWeights(main, name, "primary", 25);
    assertTrue(
        java.util.Arrays.equals(new int[] {100, 0}, routeWeights(vr, "admin", name)),
        "a route not listed in appMesh.virtualService.routes is left alone: " + vr);
    assertEquals(
        "/",
        vr.path("spec")
            .path("routes")
            .path(0)
            .path("httpRoute")
            .path("match")
            .path("prefix")
            .asText());
    assertStatusWeights(awaitStatusWeight(main, name, 25), 25, v2, 75, v1);
    assertEquals(1, main.rollouts().specReplicas(name, v2));

    main.rollouts().promote(name);
    awaitPausedAt(main, name, 3);
    awaitRouterWeights(main, name, "primary", 75);

    main.rollouts().promoteFull(name);
    r = awaitHealthy(main, name);
    assertEquals(v2, r.getStatus().getStableRS());
    awaitRouterWeights(main, name, "primary", 0);
    awaitNodeSelects(main, name + "-stable-vn", v2);
    awaitNodeSelects(main, name + "-canary-vn", "canary-hash");
    assertStatusWeights(awaitStatusWeight(main, name, 0), 0, v2, 100, v2);
    assertTrue(
        events(main, name, "TrafficWeightUpdated").contains("Traffic weight updated from 0 to 25"),
        events(main, name, "TrafficWeightUpdated").toString());
  }

  @Test
  void appMeshAbortWithDynamicStableScaleDrainsTheCanaryRouteToZero() {
    String name = "meshabort";
    apply(main, "services.yaml", vars(name));
    apply(main, "appmesh.yaml", vars(name));
    createRollout(
        main,
        name,
        4,
        canary(
            name,
            appMesh(name, null),
            "[{\"setWeight\":50},{\"pause\":{}}]",
            "\"dynamicStableScale\":true"));
    String v1 = awaitHealthy(main, name).getStatus().getStableRS();
    main.rollouts().setImage(name, "registry.example/app:v2");
    String v2 = awaitPausedAt(main, name, 1).getStatus().getCurrentPodHash();
    awaitRouterWeights(main, name, "primary", 50);
    awaitRouterWeights(main, name, "admin", 50);
    await(
        "dynamicStableScale: stable scaled down to 2",
        () -> main.rollouts().specReplicas(name, v1),
        n -> n == 2);

    main.rollouts().abort(name);
    awaitRouterWeights(main, name, "primary", 0);
    awaitRouterWeights(main, name, "admin", 0);
    await(
        "canary scaled to 0 and stable back to 4",
        () ->
            main.rollouts().specReplicas(name, v2) == 0
                && main.rollouts().specReplicas(name, v1) == 4,
        Boolean::booleanValue);
    Rollout r =
        main.rollouts()
            .await(name, "Degraded", TIMEOUT, x -> "Degraded".equals(x.getStatus().getPhase()));
    assertStatusWeights(awaitStatusWeight(main, name, 0), 0, v2, 100, v1);
    assertEquals(v1, r.getStatus().getStableRS());
    assertEquals(
        v1,
        awaitNodeSelects(main, name + "-stable-vn", v1)
            .path("spec")
            .path("podSelector")
            .path("matchLabels")
            .path(HASH)
            .asText());
  }

  @Test
  void appMeshMissingVirtualServiceIsReportedAsTrafficRoutingError() {
    String name = "meshmissing";
    apply(main, "services.yaml", vars(name));
    apply(main, "appmesh.yaml", vars(name));
    client
        .genericKubernetesResources(APPMESH, "VirtualService")
        .inNamespace(main.ns())
        .withName(name + "-vsvc")
        .delete();
    createRollout(
        main,
        name,
        1,
        canary(name, appMesh(name, null), "[{\"setWeight\":50},{\"pause\":{}}]", null));
    String expected =
        "VirtualService `meshmissing-vsvc` not found in namespace `" + main.ns() + "`";
    List<String> errors =
        await(
            "TrafficRoutingError",
            () -> events(main, name, "TrafficRoutingError"),
            l -> !l.isEmpty());
    assertTrue(errors.contains("AppMesh: failed to set weight: " + expected), errors.toString());
    assertTrue(
        events(main, name, "VirtualServiceNotFound").contains(expected),
        events(main, name, "VirtualServiceNotFound").toString());
  }

  // -------------------------------------------------------------------------------------------------------------
  // All three: header routes are refused as upstream refuses them

  @Test
  void setHeaderRouteWithoutARouterThatServesItIsInvalidSpec() {
    String name = "trfhdr";
    apply(main, "services.yaml", vars(name));
    apply(main, "traefikservice.yaml", vars(name, "APIVERSION", TRAEFIK));
    String tr =
        "{\"managedRoutes\":[{\"name\":\"hdr\"}],\"traefik\":{\"weightedTraefikServiceName\":\""
            + name
            + "-ts\"}}";
    createRollout(
        main,
        name,
        1,
        canary(
            name,
            tr,
            "[{\"setHeaderRoute\":{\"name\":\"hdr\",\"match\":[{\"headerName\":\"X-Canary\",\"headerValue\":{\"exact\":\"1\"}}]}},"
                + "{\"pause\":{}}]",
            null));
    Rollout bad =
        main.rollouts()
            .await(name, "InvalidSpec", TIMEOUT, x -> condition(x, "InvalidSpec") != null);
    String msg = condition(bad, "InvalidSpec").getMessage();
    assertTrue(
        msg.contains("steps[0].setHeaderRoute")
            && msg.contains(
                "SetHeaderRoute requires TrafficRouting, supports Istio and ALB and Apisix"),
        msg);
  }

  /** Keeps the namespaces of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
