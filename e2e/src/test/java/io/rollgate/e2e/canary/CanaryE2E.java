package io.rollgate.e2e.canary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutCondition;
import io.rollgate.api.RolloutStatus;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * A canary Rollout without traffic routing, driven the way a user drives it with {@code kubectl
 * argo rollouts}.
 */
@ExtendWith(CanaryE2E.FailureTracker.class)
class CanaryE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("canary");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "canary", "--namespace", ns);
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
      String name, int replicas, int weight, String surge, String unavailable) {
    Map<String, String> v = new HashMap<>();
    v.put("NAME", name);
    v.put("REPLICAS", String.valueOf(replicas));
    v.put("WEIGHT", String.valueOf(weight));
    v.put("SURGE", surge);
    v.put("UNAVAILABLE", unavailable);
    v.put("PAUSE", "10s");
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
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration()));
  }

  static Rollout awaitPausedAt(String name, int stepIndex) {
    return rollouts.await(
        name,
        name + " paused at step " + stepIndex,
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Paused".equals(r.getStatus().getPhase())
                && Integer.valueOf(stepIndex).equals(r.getStatus().getCurrentStepIndex()));
  }

  static RolloutCondition condition(RolloutStatus s, String type) {
    return s.getConditions() == null
        ? null
        : s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
  }

  static Rollout createHealthy(
      String name, int replicas, int weight, String surge, String unavailable) {
    rollouts.create("canary/rollout.yaml", vars(name, replicas, weight, surge, unavailable));
    return awaitHealthy(name);
  }

  @Test
  void firstApplyGoesStraightToFullSizeAndHealthy() {
    Rollout r = createHealthy("first", 3, 20, "\"25%\"", "\"25%\"");
    RolloutStatus s = r.getStatus();
    List<ReplicaSet> rss = rollouts.replicaSets("first");
    assertEquals(1, rss.size(), "one ReplicaSet");
    ReplicaSet rs = rss.get(0);
    assertEquals(3, rs.getSpec().getReplicas());
    assertEquals(3, rs.getStatus().getAvailableReplicas());
    assertEquals(s.getCurrentPodHash(), s.getStableRS());
    assertEquals("first-" + s.getCurrentPodHash(), rs.getMetadata().getName());
    assertEquals(
        s.getCurrentPodHash(), rs.getMetadata().getLabels().get("rollouts-pod-template-hash"));
    assertEquals("1", rs.getMetadata().getAnnotations().get("rollout.argoproj.io/revision"));
    assertEquals(
        "3", rs.getMetadata().getAnnotations().get("rollout.argoproj.io/desired-replicas"));
    assertEquals(4, s.getCurrentStepIndex(), "steps skipped on the first deploy");
    assertEquals(3, s.getReplicas());
    assertEquals(3, s.getAvailableReplicas());
    assertEquals(3, s.getHPAReplicas());
    assertEquals("app=first", s.getSelector());
    assertEquals(String.valueOf(r.getMetadata().getGeneration()), s.getObservedGeneration());
    assertEquals("True", condition(s, "Healthy").getStatus());
    assertEquals("True", condition(s, "Completed").getStatus());
    assertEquals("NewReplicaSetAvailable", condition(s, "Progressing").getReason());
    assertEquals("True", condition(s, "Available").getStatus());
    assertEquals("1", r.getMetadata().getAnnotations().get("rollout.argoproj.io/revision"));
  }

  @Test
  void imageChangePausesAtFirstPauseWithArgoSplit_5replicas20percent() {
    assertSplitAtFirstPause("split-a", 5, 20, "\"25%\"", "\"25%\"", 1, 4);
  }

  @Test
  void imageChangePausesAtFirstPauseWithArgoSplit_10replicas30percentIntSurge() {
    assertSplitAtFirstPause("split-b", 10, 30, "3", "0", 3, 7);
  }

  @Test
  void imageChangePausesAtFirstPauseWithArgoSplit_tieUsesSurgePod() {
    // R=3, w=50: 1.5 pods is a tie; with maxSurge 1 the exact split 2 of 4 pods wins over 2 of 3
    // and 1 of 3.
    assertSplitAtFirstPause("split-c", 3, 50, "\"25%\"", "\"25%\"", 2, 2);
  }

  @Test
  void imageChangePausesAtFirstPauseWithArgoSplit_quarterOfFour() {
    assertSplitAtFirstPause("split-e", 4, 25, "\"25%\"", "\"25%\"", 1, 3);
  }

  @Test
  void imageChangePausesAtFirstPauseWithArgoSplit_oneReplica() {
    assertSplitAtFirstPause("split-d", 1, 50, "1", "0", 1, 1);
  }

  void assertSplitAtFirstPause(
      String name,
      int replicas,
      int weight,
      String surge,
      String unavailable,
      int canary,
      int stable) {
    Rollout healthy = createHealthy(name, replicas, weight, surge, unavailable);
    String stableHash = healthy.getStatus().getStableRS();
    rollouts.setImage(name, "registry.example/app:v2");
    Rollout paused = awaitPausedAt(name, 1);
    RolloutStatus s = paused.getStatus();
    assertNotEquals(stableHash, s.getCurrentPodHash());
    assertEquals(stableHash, s.getStableRS());
    rollouts.await(
        name,
        name + " split " + canary + "/" + stable,
        TIMEOUT,
        r ->
            rollouts.specReplicas(name, r.getStatus().getCurrentPodHash()) == canary
                && rollouts.specReplicas(name, stableHash) == stable
                && rollouts.availableReplicas(name, r.getStatus().getCurrentPodHash()) == canary);
    assertEquals("CanaryPauseStep", s.getPauseConditions().get(0).getReason());
    assertEquals(Boolean.TRUE, s.getControllerPause());
    assertEquals("CanaryPauseStep", s.getMessage());
    assertEquals("RolloutPaused", condition(s, "Progressing").getReason());
    assertEquals("False", condition(s, "Completed").getStatus());
  }

  @Test
  void promoteWalksTheStepsToHealthyAndScalesOldDown() {
    Rollout healthy = createHealthy("promote", 5, 20, "\"25%\"", "\"25%\"");
    String v1 = healthy.getStatus().getStableRS();
    rollouts.setImage("promote", "registry.example/app:v2");
    Rollout paused = awaitPausedAt("promote", 1);
    String v2 = paused.getStatus().getCurrentPodHash();
    rollouts.promote("promote");
    // setWeight 60 then a 10s pause that ends on its own, then all steps done.
    rollouts.await(
        "promote",
        "step 3 pause",
        TIMEOUT,
        r -> Integer.valueOf(3).equals(r.getStatus().getCurrentStepIndex()));
    assertEquals(3, rollouts.specReplicas("promote", v2), "60% of 5 = 3 canary pods");
    Rollout done = awaitHealthy("promote");
    assertEquals(v2, done.getStatus().getStableRS());
    assertEquals(4, done.getStatus().getCurrentStepIndex());
    rollouts.await(
        "promote",
        "old ReplicaSet scaled to 0",
        TIMEOUT,
        r -> rollouts.specReplicas("promote", v1) == 0);
    assertEquals(5, rollouts.specReplicas("promote", v2));
    assertEquals("2", done.getMetadata().getAnnotations().get("rollout.argoproj.io/revision"));
  }

  @Test
  void abortRestoresStableAndRetryProgressesAgain() {
    Rollout healthy = createHealthy("abort", 5, 40, "\"25%\"", "\"25%\"");
    String v1 = healthy.getStatus().getStableRS();
    rollouts.setImage("abort", "registry.example/app:v2");
    Rollout paused = awaitPausedAt("abort", 1);
    String v2 = paused.getStatus().getCurrentPodHash();
    assertEquals(2, rollouts.specReplicas("abort", v2));
    rollouts.abort("abort");
    Rollout aborted =
        rollouts.await(
            "abort",
            "aborted and rolled back",
            TIMEOUT,
            r ->
                "Degraded".equals(r.getStatus().getPhase())
                    && rollouts.specReplicas("abort", v2) == 0
                    && rollouts.specReplicas("abort", v1) == 5
                    && rollouts.availableReplicas("abort", v1) == 5);
    RolloutStatus s = aborted.getStatus();
    assertEquals(Boolean.TRUE, s.getAbort());
    assertNotNull(s.getAbortedAt());
    assertNull(s.getPauseConditions());
    assertEquals(0, s.getCurrentStepIndex());
    assertEquals(v1, s.getStableRS());
    assertEquals("RolloutAborted", condition(s, "Progressing").getReason());
    assertEquals("False", condition(s, "Progressing").getStatus());
    assertTrue(
        s.getMessage().startsWith("RolloutAborted: Rollout aborted update to revision 2"),
        s.getMessage());

    rollouts.retry("abort");
    Rollout again = awaitPausedAt("abort", 1);
    assertNull(again.getStatus().getAbortedAt());
    rollouts.await(
        "abort", "canary back at 40%", TIMEOUT, r -> rollouts.specReplicas("abort", v2) == 2);
  }

  @Test
  void promoteFullSkipsRemainingSteps() {
    createHealthy("full", 4, 25, "\"25%\"", "\"25%\"");
    rollouts.setImage("full", "registry.example/app:v2");
    Rollout paused = awaitPausedAt("full", 1);
    String v2 = paused.getStatus().getCurrentPodHash();
    rollouts.promoteFull("full");
    Rollout done = awaitHealthy("full");
    assertEquals(v2, done.getStatus().getStableRS());
    assertEquals(4, done.getStatus().getCurrentStepIndex());
    assertNull(done.getStatus().getPromoteFull());
    assertEquals(4, rollouts.specReplicas("full", v2));
  }

  @Test
  void manualPauseHaltsProgressAndPromoteResumes() {
    Rollout healthy = createHealthy("manual", 4, 25, "\"25%\"", "\"25%\"");
    String v1 = healthy.getStatus().getStableRS();
    rollouts.pause("manual");
    rollouts.await(
        "manual",
        "manually paused",
        TIMEOUT,
        r ->
            "Paused".equals(r.getStatus().getPhase())
                && "manually paused".equals(r.getStatus().getMessage())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration()));
    rollouts.setImage("manual", "registry.example/app:v2");
    Rollout paused =
        rollouts.await(
            "manual",
            "new revision observed while paused",
            TIMEOUT,
            r ->
                String.valueOf(r.getMetadata().getGeneration())
                        .equals(r.getStatus().getObservedGeneration())
                    && !v1.equals(r.getStatus().getCurrentPodHash()));
    String v2 = paused.getStatus().getCurrentPodHash();
    rollouts.holdsFor(
        "manual",
        "no canary pod while spec.paused",
        Duration.ofSeconds(3),
        r -> rollouts.specReplicas("manual", v2) == 0 && rollouts.specReplicas("manual", v1) == 4);
    assertEquals("Paused", rollouts.status("manual").getPhase());
    assertEquals("RolloutPaused", condition(rollouts.status("manual"), "Progressing").getReason());

    rollouts.promote("manual");
    awaitPausedAt("manual", 1);
    rollouts.await(
        "manual", "canary at 25%", TIMEOUT, r -> rollouts.specReplicas("manual", v2) == 1);
    assertEquals(Boolean.FALSE, rollouts.get("manual").getSpec().getPaused());
  }

  @Test
  void invalidSpecIsReportedAndOtherRolloutsKeepWorking() {
    Map<String, String> v = vars("invalid", 2, 150, "1", "0");
    rollouts.create("canary/rollout.yaml", v);
    Rollout bad =
        rollouts.await(
            "invalid",
            "InvalidSpec condition",
            TIMEOUT,
            r -> r.getStatus() != null && condition(r.getStatus(), "InvalidSpec") != null);
    RolloutCondition c = condition(bad.getStatus(), "InvalidSpec");
    assertEquals("True", c.getStatus());
    assertTrue(
        c.getMessage().contains("steps[0].setWeight")
            && c.getMessage().contains("SetWeight needs to be between 0 and 100"),
        c.getMessage());
    assertEquals("Degraded", bad.getStatus().getPhase());
    assertTrue(rollouts.replicaSets("invalid").isEmpty(), "no ReplicaSet for an invalid Rollout");
    createHealthy("valid-neighbour", 2, 50, "1", "0");
  }

  /** Keeps the namespace of a failed class for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
