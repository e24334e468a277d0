package io.rollgate.e2e.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.TestCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The generated Rollout CRD installed in a real API server: full Argo Rollouts objects are accepted
 * and come back unchanged (nothing pruned, nothing defaulted), status goes through the status
 * subresource, and the scale subresource reads {@code spec.replicas}, {@code status.HPAReplicas}
 * and {@code status.selector}. No controller runs here.
 */
class CrdRoundTripE2E {

  static final ObjectMapper JSON = new ObjectMapper();
  static TestCluster cluster;
  static String ns;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("crd");
  }

  @AfterAll
  static void tearDown() {
    if (ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  static ObjectNode fixture(String file) throws IOException {
    Path p =
        Path.of(
            System.getProperty("rollgate.fixtures.dir", "../common/src/test/resources/fixtures"),
            file);
    return (ObjectNode) JSON.readTree(Files.readString(p));
  }

  /**
   * The JSON tree of a model object, re-read from text so int and long nodes of equal value compare
   * equal.
   */
  static JsonNode tree(Object value) throws IOException {
    return JSON.readTree(JSON.writeValueAsString(value));
  }

  /**
   * Creates a Rollout named name from the spec of the full canary fixture, for no controller to
   * touch.
   */
  static void createFromCanaryFixture(String name) throws IOException {
    ObjectNode doc = fixture("rollout-canary-full.json");
    ObjectNode create = JSON.createObjectNode();
    create.put("apiVersion", "argoproj.io/v1alpha1");
    create.put("kind", "Rollout");
    create
        .putObject("metadata")
        .put("name", name)
        .putObject("labels")
        .put("argo-rollouts.argoproj.io/controller-instance-id", "nobody");
    create.set("spec", doc.get("spec"));
    cluster
        .client()
        .resources(Rollout.class)
        .inNamespace(ns)
        .resource(JSON.treeToValue(create, Rollout.class))
        .create();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "rollout-canary-full.json",
        "rollout-bluegreen-full.json",
        "rollout-canary-alternatives.json"
      })
  void fullRolloutRoundTripsThroughTheApiServer(String file) throws IOException {
    ObjectNode doc = fixture(file);
    JsonNode spec = doc.get("spec");
    JsonNode status = doc.get("status");
    String name = file.replace(".json", "").replace("rollout-", "rt-");
    ObjectNode create = JSON.createObjectNode();
    create.put("apiVersion", "argoproj.io/v1alpha1");
    create.put("kind", "Rollout");
    ObjectNode meta = create.putObject("metadata");
    meta.put("name", name);
    meta.putObject("labels").put("argo-rollouts.argoproj.io/controller-instance-id", "nobody");
    create.set("spec", spec);
    var rollouts = cluster.client().resources(Rollout.class).inNamespace(ns);
    Rollout created = rollouts.resource(JSON.treeToValue(create, Rollout.class)).create();
    assertEquals(spec, tree(created.getSpec()), "spec as stored by the API server");

    if (status != null) {
      ObjectNode patch = JSON.createObjectNode();
      patch.set("status", status);
      Rollout patched =
          rollouts
              .withName(name)
              .subresource("status")
              .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
      assertEquals(status, tree(patched.getStatus()), "status as stored by the API server");
      assertEquals(
          spec, tree(rollouts.withName(name).get().getSpec()), "spec untouched by a status write");
    }
  }

  @Test
  void scaleSubresourceReadsReplicasHpaReplicasAndSelector() throws IOException {
    ObjectNode doc = fixture("rollout-canary-full.json");
    ObjectNode create = JSON.createObjectNode();
    create.put("apiVersion", "argoproj.io/v1alpha1");
    create.put("kind", "Rollout");
    create
        .putObject("metadata")
        .put("name", "scaled")
        .putObject("labels")
        .put("argo-rollouts.argoproj.io/controller-instance-id", "nobody");
    create.set("spec", doc.get("spec"));
    var rollouts = cluster.client().resources(Rollout.class).inNamespace(ns);
    rollouts.resource(JSON.treeToValue(create, Rollout.class)).create();
    rollouts
        .withName("scaled")
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"status\":{\"HPAReplicas\":4,\"selector\":\"app=web\"}}");

    Scale scale =
        cluster.client().resources(Rollout.class).inNamespace(ns).withName("scaled").scale();
    assertEquals(doc.get("spec").get("replicas").asInt(), scale.getSpec().getReplicas());
    assertEquals(4, scale.getStatus().getReplicas());
    assertEquals("app=web", scale.getStatus().getSelector());

    rollouts.withName("scaled").scale(7);
    assertEquals(7, rollouts.withName("scaled").get().getSpec().getReplicas());
  }

  @Test
  void selectorIsImmutable() throws IOException {
    createFromCanaryFixture("immutable");
    var rollouts = cluster.client().resources(Rollout.class).inNamespace(ns);
    KubernetesClientException e =
        assertThrows(
            KubernetesClientException.class,
            () ->
                rollouts
                    .withName("immutable")
                    .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        JSON.writeValueAsString(
                            Map.of(
                                "spec",
                                Map.of(
                                    "selector", Map.of("matchLabels", Map.of("app", "other")))))));
    assertEquals(422, e.getCode());
    assertTrue(e.getMessage().contains(".spec.selector is immutable"), e.getMessage());
  }

  @Test
  void statusTimesAreDateTimesAsInArgosCrd() throws IOException {
    createFromCanaryFixture("times");
    var rollouts = cluster.client().resources(Rollout.class).inNamespace(ns);
    rollouts
        .withName("times")
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"status\":{\"abortedAt\":\"2026-12-02T10:00:00Z\"}}");
    for (String field : List.of("abortedAt", "restartedAt")) {
      KubernetesClientException e =
          assertThrows(
              KubernetesClientException.class,
              () ->
                  rollouts
                      .withName("times")
                      .subresource("status")
                      .patch(
                          PatchContext.of(PatchType.JSON_MERGE),
                          "{\"status\":{\"" + field + "\":\"yesterday\"}}"));
      assertEquals(422, e.getCode());
      assertTrue(
          e.getMessage().contains("status." + field) && e.getMessage().contains("date-time"),
          e.getMessage());
    }
  }
}
