package io.rollgate.e2e.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.fabric8.kubernetes.api.model.Service;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutCondition;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Blue-green Rollouts with {@code prePromotionAnalysis} and {@code postPromotionAnalysis}
 * (docs/compatibility.md §7.7, §9.8), measured by Jobs: the active Service, the stable ReplicaSet,
 * the runs and the abort message a user sees.
 */
@ExtendWith(BlueGreenAnalysisE2E.FailureTracker.class)
class BlueGreenAnalysisE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static AnalysisFixtures fixtures;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("bganalysis");
    rollouts = new Rollouts(cluster.client(), ns);
    fixtures = new AnalysisFixtures(cluster.client(), ns);
    fixtures.createTemplates();
    controller = ControllerProcess.start(cluster, "bganalysis", "--namespace", ns);
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

  static Rollout createHealthy(String name, String stage, String template) {
    return createHealthy(name, stage, template, 0);
  }

  static Rollout createHealthy(
      String name, String stage, String template, int scaleDownDelaySeconds) {
    Map<String, String> v = new HashMap<>();
    v.put("DELAY", String.valueOf(scaleDownDelaySeconds));
    v.put("NAME", name);
    v.put("STAGE", stage);
    v.put("TEMPLATE", template);
    fixtures.apply("analysis/services.yaml", v);
    rollouts.create("analysis/bluegreen.yaml", v);
    return awaitHealthy(name, null);
  }

  static Rollout awaitHealthy(String name, String notHash) {
    return rollouts.await(
        name,
        name + " Healthy",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration())
                && r.getStatus().getStableRS() != null
                && r.getStatus().getStableRS().equals(r.getStatus().getCurrentPodHash())
                && !r.getStatus().getStableRS().equals(notHash));
  }

  static String activeHash(String name) {
    Service svc = cluster.client().services().inNamespace(ns).withName(name + "-active").get();
    return svc.getSpec().getSelector().get("rollouts-pod-template-hash");
  }

  static RolloutCondition condition(Rollout r, String type) {
    return r.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()))
        .findFirst()
        .orElse(null);
  }

  @Test
  void prePromotionAnalysisFailure_keepsTheActiveServiceOnStable_andAborts() {
    Rollout first = createHealthy("pre", "prePromotionAnalysis", "fail");
    String stable = first.getStatus().getStableRS();
    assertEquals(stable, activeHash("pre"));
    rollouts.setImage("pre", "registry.example/app:v2");
    Rollout aborted =
        rollouts.await(
            "pre",
            "aborted",
            TIMEOUT,
            r -> r.getStatus() != null && Boolean.TRUE.equals(r.getStatus().getAbort()));
    String hash = aborted.getStatus().getCurrentPodHash();
    String runName = "pre-" + hash + "-2-pre";
    AnalysisRun run = fixtures.run(runName);
    assertEquals("Failed", AnalysisFixtures.phase(run));
    assertEquals("PrePromotion", run.getMetadata().getLabels().get("rollout-type"));
    assertEquals(hash, run.getMetadata().getLabels().get("rollouts-pod-template-hash"));
    assertEquals(
        "Rollout aborted update to revision 2: Blue/green pre-promotion analysis phase failed: "
            + run.getStatus().getMessage(),
        condition(aborted, "Progressing").getMessage());
    assertEquals(
        runName, aborted.getStatus().getBlueGreen().getPrePromotionAnalysisRunStatus().getName());
    assertEquals(
        "Failed",
        aborted.getStatus().getBlueGreen().getPrePromotionAnalysisRunStatus().getStatus());
    assertEquals(stable, aborted.getStatus().getStableRS(), "not promoted");
    rollouts.holdsFor(
        "pre",
        "active Service stays on the stable ReplicaSet",
        Duration.ofSeconds(3),
        r -> stable.equals(activeHash("pre")));
    assertEquals("Degraded", rollouts.get("pre").getStatus().getPhase());
  }

  @Test
  void postPromotionAnalysisSuccess_marksTheNewReplicaSetStable() {
    Rollout first = createHealthy("post", "postPromotionAnalysis", "pass");
    rollouts.setImage("post", "registry.example/app:v2");
    Rollout done = awaitHealthy("post", first.getStatus().getStableRS());
    String hash = done.getStatus().getCurrentPodHash();
    assertEquals(hash, activeHash("post"));
    String runName = "post-" + hash + "-2-post";
    AnalysisRun run = fixtures.run(runName);
    assertEquals("Successful", AnalysisFixtures.phase(run));
    assertEquals("PostPromotion", run.getMetadata().getLabels().get("rollout-type"));
    assertEquals(
        hash,
        run.getSpec().getArgs().stream()
            .filter(a -> "hash".equals(a.getName()))
            .findFirst()
            .get()
            .getValue());
    assertEquals(
        runName, done.getStatus().getBlueGreen().getPostPromotionAnalysisRunStatus().getName());
    assertEquals(
        "Successful",
        done.getStatus().getBlueGreen().getPostPromotionAnalysisRunStatus().getStatus());
    assertNotEquals(first.getStatus().getStableRS(), done.getStatus().getStableRS());
    assertEquals(
        1,
        fixtures.runs("post").size(),
        "no run for the first deploy, one post-promotion run for the update");
  }

  @Test
  void
      rollbackToAReplicaSetStillWithinItsScaleDownDelay_isPromotedAtOnceWithoutPostPromotionAnalysis() {
    Rollout first = createHealthy("fast", "postPromotionAnalysis", "pass", 120);
    String v1 = first.getStatus().getStableRS();
    rollouts.setImage("fast", "registry.example/app:v2");
    Rollout second = awaitHealthy("fast", v1);
    assertEquals(1, fixtures.runs("fast").size(), "one post-promotion run for the update");
    rollouts.setImage("fast", "registry.example/app:v1");
    Rollout back = awaitHealthy("fast", second.getStatus().getStableRS());
    assertEquals(
        v1, back.getStatus().getStableRS(), "the older ReplicaSet, still up, is stable again");
    assertEquals(v1, activeHash("fast"));
    assertEquals(1, fixtures.runs("fast").size(), "no post-promotion run for a fast rollback");
  }

  @Test
  void prePromotionAnalysisSuccess_switchesTheActiveService() {
    Rollout first = createHealthy("preok", "prePromotionAnalysis", "pass");
    rollouts.setImage("preok", "registry.example/app:v2");
    Rollout done = awaitHealthy("preok", first.getStatus().getStableRS());
    String hash = done.getStatus().getCurrentPodHash();
    assertEquals(hash, activeHash("preok"));
    assertEquals("Successful", AnalysisFixtures.phase(fixtures.run("preok-" + hash + "-2-pre")));
  }

  /** Keeps the namespace of a failed class for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
