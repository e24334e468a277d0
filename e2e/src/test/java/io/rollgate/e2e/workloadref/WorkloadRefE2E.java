package io.rollgate.e2e.workloadref;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutCondition;
import io.rollgate.api.RolloutStatus;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Rollouts whose pod template comes from {@code spec.workloadRef} (docs/compatibility.md §1.1, §6):
 * a Deployment, a core PodTemplate, the Deployment's {@code scaleDown} policies, and the
 * InvalidSpec errors for an unsupported kind or a missing object.
 */
@ExtendWith(WorkloadRefE2E.FailureTracker.class)
class WorkloadRefE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final String WORKLOAD_GENERATION = "rollout.argoproj.io/workload-generation";

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
    ns = cluster.createNamespace("workloadref");
    rollouts = new Rollouts(client, ns);
    controller = ControllerProcess.start(cluster, "workloadref", "--namespace", ns);
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

  static Map<String, String> vars(
      String name, int replicas, String kind, String ref, String scaleDown) {
    Map<String, String> v = new HashMap<>();
    v.put("NAME", name);
    v.put("REPLICAS", String.valueOf(replicas));
    v.put("REF_API_VERSION", "apps/v1");
    v.put("REF_KIND", kind);
    v.put("REF_NAME", ref);
    v.put("SCALE_DOWN", scaleDown);
    return v;
  }

  static Deployment createDeployment(String name, int replicas) {
    String yaml =
        read("workloadref/deployment.yaml")
            .replace("${NAME}", name)
            .replace("${DEPLOYMENT_REPLICAS}", String.valueOf(replicas));
    Deployment d = client.getKubernetesSerialization().unmarshal(yaml, Deployment.class);
    return client.apps().deployments().inNamespace(ns).resource(d).create();
  }

  static Deployment deployment(String name) {
    return client.apps().deployments().inNamespace(ns).withName(name).get();
  }

  static Rollout awaitHealthy(String name) {
    return rollouts.await(
        name,
        name + " Healthy",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration()));
  }

  static RolloutCondition condition(RolloutStatus s, String type) {
    return s.getConditions() == null
        ? null
        : s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
  }

  static String image(ReplicaSet rs) {
    return rs.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
  }

  static void awaitDeploymentReplicas(String name, int replicas) {
    Awaitility.await("Deployment " + name + " at " + replicas + " replicas")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(() -> Integer.valueOf(replicas).equals(deployment(name).getSpec().getReplicas()));
  }

  @Test
  void deploymentTemplateIsUsedInMemoryAndItsChangesRollOut_scaleDownOnSuccess() {
    String name = "web";
    createDeployment(name, 2);
    rollouts.create("workloadref/rollout.yaml", vars(name, 3, "Deployment", name, "onsuccess"));
    Rollout healthy = awaitHealthy(name);

    List<ReplicaSet> rss = rollouts.replicaSets(name);
    assertEquals(1, rss.size());
    assertEquals("registry.example/app:v1", image(rss.get(0)));
    assertEquals(3, rss.get(0).getSpec().getReplicas());
    assertEquals(
        "app=" + name, healthy.getStatus().getSelector(), "selector taken from the Deployment");
    Rollout stored = rollouts.get(name);
    assertNull(stored.getSpec().getTemplate(), "the resolved template is never written back");
    assertNull(stored.getSpec().getSelector(), "the resolved selector is never written back");

    awaitDeploymentReplicas(name, 0);
    Rollout stamped =
        rollouts.await(
            name,
            "workload generation stamped",
            TIMEOUT,
            r ->
                String.valueOf(deployment(name).getMetadata().getGeneration())
                        .equals(r.getMetadata().getAnnotations().get(WORKLOAD_GENERATION))
                    && String.valueOf(deployment(name).getMetadata().getGeneration())
                        .equals(r.getStatus().getWorkloadObservedGeneration()));
    assertEquals("1", stamped.getMetadata().getAnnotations().get("rollout.argoproj.io/revision"));

    // A new Deployment template is a new Rollout revision, going through the canary steps.
    client
        .apps()
        .deployments()
        .inNamespace(ns)
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON),
            "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/image\",\"value\":\"registry.example/app:v2\"}]");
    long generation = deployment(name).getMetadata().getGeneration();
    Rollout paused =
        rollouts.await(
            name,
            "paused at the pause step with the Deployment's new template",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && "Paused".equals(r.getStatus().getPhase())
                    && Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex())
                    && String.valueOf(generation)
                        .equals(r.getStatus().getWorkloadObservedGeneration()));
    assertEquals(
        String.valueOf(generation), paused.getMetadata().getAnnotations().get(WORKLOAD_GENERATION));
    ReplicaSet canary = rollouts.replicaSet(name, paused.getStatus().getCurrentPodHash());
    assertEquals("registry.example/app:v2", image(canary));
    assertEquals("2", canary.getMetadata().getAnnotations().get("rollout.argoproj.io/revision"));
    assertEquals(0, deployment(name).getSpec().getReplicas(), "the Deployment stays scaled down");

    rollouts.promote(name);
    Rollout done = awaitHealthy(name);
    assertEquals(done.getStatus().getCurrentPodHash(), done.getStatus().getStableRS());
  }

  @Test
  void scaleDownProgressivelyShrinksTheDeploymentAsRolloutPodsBecomeReady() {
    String name = "prog";
    createDeployment(name, 4);
    rollouts.create("workloadref/rollout.yaml", vars(name, 4, "Deployment", name, "progressively"));
    awaitHealthy(name);
    awaitDeploymentReplicas(name, 0);
    List<String> scaled = rollouts.eventMessages(name, "ScalingDeployment");
    assertTrue(
        !scaled.isEmpty() && scaled.get(scaled.size() - 1).endsWith(" to 0"), scaled.toString());
  }

  @Test
  void scaleDownNeverLeavesTheDeploymentAlone() {
    String name = "never";
    createDeployment(name, 2);
    rollouts.create("workloadref/rollout.yaml", vars(name, 2, "Deployment", name, "never"));
    awaitHealthy(name);
    rollouts.holdsFor(
        name,
        "Deployment keeps 2 replicas",
        Duration.ofSeconds(3),
        r -> deployment(name).getSpec().getReplicas() == 2);
  }

  @Test
  void podTemplateReferenceUsesItsTemplateWithTheRolloutSelector() {
    String name = "pt";
    PodTemplate pt =
        new PodTemplateBuilder()
            .withNewMetadata()
            .withName(name + "-template")
            .endMetadata()
            .withNewTemplate()
            .withNewMetadata()
            .addToLabels("app", name)
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("app")
            .withImage("registry.example/app:pt")
            .endContainer()
            .endSpec()
            .endTemplate()
            .build();
    client.v1().podTemplates().inNamespace(ns).resource(pt).create();
    rollouts.create("workloadref/podtemplate-rollout.yaml", Map.of("NAME", name));
    Rollout r = awaitHealthy(name);
    assertEquals("registry.example/app:pt", image(rollouts.replicaSets(name).get(0)));
    assertEquals("app=" + name, r.getStatus().getSelector());
    Long generation =
        client
            .v1()
            .podTemplates()
            .inNamespace(ns)
            .withName(name + "-template")
            .get()
            .getMetadata()
            .getGeneration();
    assertEquals(
        String.valueOf(generation == null ? 0 : generation),
        r.getStatus().getWorkloadObservedGeneration());
  }

  @Test
  void unsupportedKindIsInvalidSpec() {
    String name = "sts";
    rollouts.create("workloadref/rollout.yaml", vars(name, 1, "StatefulSet", "whatever", "never"));
    Rollout bad = awaitInvalid(name);
    assertEquals(
        "The Rollout \"sts\" is invalid: spec.workloadRef: Invalid value: \"whatever\": workload of type apps/StatefulSet is not supported",
        condition(bad.getStatus(), "InvalidSpec").getMessage());
    assertEquals("Degraded", bad.getStatus().getPhase());
    assertTrue(rollouts.replicaSets(name).isEmpty());
  }

  @Test
  void missingDeploymentIsInvalidSpecUntilItAppears() {
    String name = "late";
    rollouts.create("workloadref/rollout.yaml", vars(name, 2, "Deployment", name, "never"));
    Rollout bad = awaitInvalid(name);
    String msg = condition(bad.getStatus(), "InvalidSpec").getMessage();
    assertTrue(
        msg.contains(
            "spec.workloadRef: Invalid value: \"late\": deployments.apps \"late\" not found"),
        msg);
    assertTrue(rollouts.replicaSets(name).isEmpty());

    createDeployment(name, 1);
    Rollout ok = awaitHealthy(name);
    assertNull(
        condition(ok.getStatus(), "InvalidSpec"), "InvalidSpec removed once the Deployment exists");
  }

  static Rollout awaitInvalid(String name) {
    return rollouts.await(
        name,
        name + " InvalidSpec",
        TIMEOUT,
        r -> r.getStatus() != null && condition(r.getStatus(), "InvalidSpec") != null);
  }

  private static String read(String resource) {
    try (InputStream in = WorkloadRefE2E.class.getClassLoader().getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Keeps the namespace of a failed class for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
