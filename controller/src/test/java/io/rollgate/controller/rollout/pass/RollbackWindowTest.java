package io.rollgate.controller.rollout.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import io.rollgate.controller.runtime.ReconcileContext;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.rollbackWindow} on the canary strategy (docs/compatibility.md §5.3 item 2, §5.10).
 */
class RollbackWindowTest {

  private static final String ROLLOUT =
      """
      metadata: {name: window, namespace: shop, uid: u-1}
      spec:
        replicas: 2
        rollbackWindow: {revisions: %d}
        selector: {matchLabels: {app: window}}
        template:
          metadata: {labels: {app: window, rev: two}}
          spec: {containers: [{name: basic, image: "nginx:1.19-alpine"}]}
        strategy:
          canary:
            steps:
            - setWeight: 50
            - analysis: {templates: [{templateName: sleep-job}]}
      """;

  private static ReplicaSet rs(String hash, int revision, String created, int replicas) {
    return new ReplicaSetBuilder()
        .withNewMetadata()
        .withName("window-" + hash)
        .withCreationTimestamp(created)
        .addToLabels("rollouts-pod-template-hash", hash)
        .addToAnnotations("rollout.argoproj.io/revision", String.valueOf(revision))
        .endMetadata()
        .withNewSpec()
        .withReplicas(replicas)
        .endSpec()
        .build();
  }

  /**
   * Revisions 1 to 4 exist, 4 is stable, and the template went back to that of revision 2 (scaled
   * down, now 5).
   */
  private static RolloutPass backToRevisionTwo(int revisions, Integer currentStepIndex)
      throws Exception {
    Rollout r = new YAMLMapper().readValue(ROLLOUT.formatted(revisions), Rollout.class);
    RolloutStatus status = new RolloutStatus();
    status.setStableRS("h4");
    status.setCurrentStepIndex(currentStepIndex);
    status.setAbort(true);
    r.setStatus(status);
    RolloutPass p =
        new RolloutPass(
            new ReconcileContext("Rollout", "shop", "window", 1, "test", Instant.EPOCH),
            ModelJson.deepCopy(r),
            Instant.EPOCH);
    ReplicaSet r1 = rs("h1", 1, "2026-01-01T10:00:00Z", 0);
    ReplicaSet r2 = rs("h2", 5, "2026-01-01T10:01:00Z", 1);
    ReplicaSet r3 = rs("h3", 3, "2026-01-01T10:02:00Z", 0);
    ReplicaSet r4 = rs("h4", 4, "2026-01-01T10:03:00Z", 2);
    p.allRSs = List.of(r1, r2, r3, r4);
    p.newRS = r2;
    p.stableRS = r4;
    p.otherRSs = List.of(r1, r3);
    p.podHash = "h2";
    return p;
  }

  @Test
  void skipsTheRemainingSteps_whenTheRollbackIsWithinTheWindow() throws Exception {
    RolloutPass pass = backToRevisionTwo(2, 0);
    RolloutStatus status = ModelJson.deepCopy(pass.old);

    assertTrue(RollbackWindow.skipRemainingSteps(pass, status));

    assertEquals(
        2, status.getCurrentStepIndex(), "all steps done: setWeight 100 next, then promotion");
    assertTrue(pass.clearPauses);
    assertTrue(pass.removeAbort);
    assertFalse(pass.aborted());
  }

  @Test
  void skipsTheAnalysisStepStillToRun_whenTheRollbackIsWithinTheWindow() throws Exception {
    RolloutPass pass = backToRevisionTwo(2, 1);
    RolloutStatus status = ModelJson.deepCopy(pass.old);

    assertTrue(RollbackWindow.skipRemainingSteps(pass, status));

    assertEquals(2, status.getCurrentStepIndex());
  }

  @Test
  void leavesTheStepsAlone_whenTheRollbackIsOutsideTheWindow() throws Exception {
    // Revision 3 lies between revision 2 and the stable revision 4: a window of 1 does not reach
    // back to 2.
    RolloutPass pass = backToRevisionTwo(1, 0);
    RolloutStatus status = ModelJson.deepCopy(pass.old);

    assertFalse(RollbackWindow.skipRemainingSteps(pass, status));

    assertEquals(0, status.getCurrentStepIndex());
    assertFalse(pass.clearPauses);
    assertTrue(pass.aborted());
  }

  @Test
  void leavesTheStepsAlone_whenTheNewReplicaSetIsNewerThanTheStableOne() throws Exception {
    RolloutPass pass = backToRevisionTwo(2, 0);
    ReplicaSet r6 = rs("h6", 6, "2026-01-01T10:04:00Z", 1);
    pass.allRSs =
        List.of(pass.allRSs.get(0), pass.allRSs.get(1), pass.allRSs.get(2), pass.allRSs.get(3), r6);
    pass.newRS = r6;
    pass.podHash = "h6";
    RolloutStatus status = ModelJson.deepCopy(pass.old);

    assertFalse(RollbackWindow.skipRemainingSteps(pass, status));

    assertEquals(0, status.getCurrentStepIndex());
  }
}
