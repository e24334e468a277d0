package io.rollgate.e2e.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * {@code spec.replicas} changed through the scale subresource ({@code kubectl scale rollout}, HPA)
 * in the middle of a canary update is a scaling event: replica counts follow, steps do not advance
 * (docs/compatibility.md §4 item 7, §6).
 */
@ExtendWith(ScalingE2E.FailureTracker.class)
class ScalingE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("scaling");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "scaling", "--namespace", ns);
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

  static String desired(ReplicaSet rs) {
    return rs.getMetadata().getAnnotations().get("rollout.argoproj.io/desired-replicas");
  }

  @Test
  void scaleAtPausedCanaryStepReconcilesCountsWithoutAdvancingSteps() {
    String name = "scale-mid";
    rollouts.create("scaling/rollout.yaml", Map.of("NAME", name, "REPLICAS", "4"));
    String stable = awaitHealthy(name).getStatus().getStableRS();
    rollouts.setImage(name, "registry.example/app:v2");
    Rollout paused =
        rollouts.await(
            name,
            "paused at step 1 with canary 1 / stable 3",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && "Paused".equals(r.getStatus().getPhase())
                    && Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex())
                    && rollouts.availableReplicas(name, r.getStatus().getCurrentPodHash()) == 1
                    && rollouts.specReplicas(name, stable) == 3);
    String canary = paused.getStatus().getCurrentPodHash();

    rollouts.scale(name, 8);

    rollouts.await(
        name,
        "canary 2 / stable 6 after scaling to 8",
        TIMEOUT,
        r ->
            rollouts.specReplicas(name, canary) == 2
                && rollouts.availableReplicas(name, canary) == 2
                && rollouts.specReplicas(name, stable) == 6
                && rollouts.availableReplicas(name, stable) == 6
                && "8".equals(desired(rollouts.replicaSet(name, canary)))
                && "8".equals(desired(rollouts.replicaSet(name, stable)))
                && r.getStatus() != null
                && Integer.valueOf(8).equals(r.getStatus().getReplicas()));
    Rollout after =
        rollouts.holdsFor(
            name,
            "still paused at step 1 after the scaling event",
            Duration.ofSeconds(5),
            r ->
                r != null
                    && "Paused".equals(r.getStatus().getPhase())
                    && Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex())
                    && stable.equals(r.getStatus().getStableRS()));
    assertEquals(8, after.getSpec().getReplicas());
    assertEquals(8, after.getStatus().getHPAReplicas());
    assertEquals(
        1,
        rollouts.eventMessages(name, "RolloutStepCompleted").size(),
        "only setWeight 25 completed");

    rollouts.promote(name);
    rollouts.await(
        name,
        "paused at step 3 with canary 4 / stable 4",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Paused".equals(r.getStatus().getPhase())
                && Integer.valueOf(3).equals(r.getStatus().getCurrentStepIndex())
                && rollouts.availableReplicas(name, canary) == 4
                && rollouts.specReplicas(name, stable) == 4);
  }

  @Test
  void hpaTargetingTheRolloutIsAcceptedAndScaleSubresourceServesStatus() throws IOException {
    String name = "hpa";
    rollouts.create("scaling/rollout.yaml", Map.of("NAME", name, "REPLICAS", "2"));
    awaitHealthy(name);
    String yaml = read("scaling/hpa.yaml").replace("${NAME}", name);
    HorizontalPodAutoscaler hpa;
    try (InputStream in = new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))) {
      hpa =
          cluster
              .client()
              .getKubernetesSerialization()
              .unmarshal(in, HorizontalPodAutoscaler.class);
    }
    HorizontalPodAutoscaler created =
        cluster
            .client()
            .autoscaling()
            .v2()
            .horizontalPodAutoscalers()
            .inNamespace(ns)
            .resource(hpa)
            .create();
    assertNotNull(created.getMetadata().getUid(), "the API server accepted the HPA");
    assertEquals("Rollout", created.getSpec().getScaleTargetRef().getKind());
    assertEquals("argoproj.io/v1alpha1", created.getSpec().getScaleTargetRef().getApiVersion());

    var client = cluster.client();
    String url =
        client.getMasterUrl().toString().replaceAll("/$", "")
            + "/apis/argoproj.io/v1alpha1/namespaces/"
            + ns
            + "/rollouts/"
            + name
            + "/scale";
    GenericKubernetesResource scale =
        client
            .getKubernetesSerialization()
            .unmarshal(client.raw(url), GenericKubernetesResource.class);
    assertEquals("Scale", scale.getKind());
    Map<String, Object> spec = scale.get("spec");
    Map<String, Object> status = scale.get("status");
    RolloutStatus rs = rollouts.status(name);
    assertEquals(2, ((Number) spec.get("replicas")).intValue());
    assertEquals(rs.getHPAReplicas(), ((Number) status.get("replicas")).intValue());
    assertEquals("app=" + name, status.get("selector"));

    // The scale subresource is the HPA's write path too: scaling through it resizes the healthy
    // Rollout.
    rollouts.scale(name, 3);
    Rollout r =
        rollouts.await(
            name,
            "3 replicas after scale",
            TIMEOUT,
            x ->
                x.getStatus() != null
                    && Integer.valueOf(3).equals(x.getStatus().getHPAReplicas())
                    && Integer.valueOf(3).equals(x.getStatus().getAvailableReplicas())
                    && "Healthy".equals(x.getStatus().getPhase()));
    assertEquals("3", desired(rollouts.replicaSet(name, r.getStatus().getStableRS())));
    Scale typed = cluster.client().resources(Rollout.class).inNamespace(ns).withName(name).scale();
    assertEquals(3, typed.getStatus().getReplicas());
    assertEquals("app=" + name, typed.getStatus().getSelector());
  }

  private static String read(String resource) throws IOException {
    try (InputStream in = ScalingE2E.class.getClassLoader().getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
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
