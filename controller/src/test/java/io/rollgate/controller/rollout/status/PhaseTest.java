package io.rollgate.controller.rollout.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rollgate.api.BlueGreenStatus;
import io.rollgate.api.ConditionReason;
import io.rollgate.api.ConditionType;
import io.rollgate.api.ModelJson;
import io.rollgate.api.PauseCondition;
import io.rollgate.api.PauseReason;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutAnalysisRunStatus;
import io.rollgate.api.RolloutCondition;
import io.rollgate.api.RolloutPhase;
import io.rollgate.api.RolloutStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PhaseTest {

  private static final int R = 3;
  private static final String INVALID_MSG =
      "The Rollout \"web\" is invalid: spec.replicas: Invalid value: -1: bad";
  private static final String ABORTED_MSG = "Rollout aborted update to revision 2";
  private static final String TIMED_OUT_MSG = "ReplicaSet \"web-new\" has timed out progressing.";

  private static final String CANARY =
      """
      metadata: {name: web, namespace: shop}
      spec:
        replicas: 3
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: web, image: "nginx:1.25"}]}
        strategy:
          canary:
            steps: [{setWeight: 50}, {pause: {}}]
      """;

  private static final String TRAFFIC_ROUTED_CANARY =
      CANARY.replace(
          "steps: [{setWeight: 50}, {pause: {}}]",
          "canaryService: web-canary\n"
              + "      stableService: web-stable\n"
              + "      trafficRouting: {nginx: {stableIngress: web}}");

  private static final String BLUE_GREEN =
      CANARY.replace(
          "canary:\n      steps: [{setWeight: 50}, {pause: {}}]",
          "blueGreen: {activeService: web, previewService: web-preview}");

  private static final String BLUE_GREEN_POST_ANALYSIS =
      BLUE_GREEN.replace(
          "previewService: web-preview}",
          "previewService: web-preview, postPromotionAnalysis: {templates: [{templateName: smoke}]}}");

  // 1 and 2: degraded conditions, checked in list order

  @Test
  void degradesWithInvalidSpecMessage_whenInvalidSpecConditionPresent() {
    RolloutStatus s = healthy();
    s.setConditions(
        List.of(
            cond(ConditionType.INVALID_SPEC, "True", ConditionReason.INVALID_SPEC, INVALID_MSG)));
    assertPhase(RolloutPhase.DEGRADED, "InvalidSpec: " + INVALID_MSG, rollout(CANARY), s);
  }

  @Test
  void degradesWithReasonAndMessage_whenAborted() {
    RolloutStatus s = healthy();
    s.setConditions(List.of(aborted()));
    assertPhase(RolloutPhase.DEGRADED, "RolloutAborted: " + ABORTED_MSG, rollout(CANARY), s);
  }

  @Test
  void degradesWithReasonAndMessage_whenProgressDeadlineExceeded() {
    RolloutStatus s = healthy();
    s.setConditions(
        List.of(
            cond(ConditionType.AVAILABLE, "True", ConditionReason.AVAILABLE_REASON, "ok"),
            cond(
                ConditionType.PROGRESSING,
                "False",
                ConditionReason.PROGRESS_DEADLINE_EXCEEDED,
                TIMED_OUT_MSG)));
    assertPhase(
        RolloutPhase.DEGRADED, "ProgressDeadlineExceeded: " + TIMED_OUT_MSG, rollout(CANARY), s);
  }

  @Test
  void prefersInvalidSpecOverAbort_whenInvalidSpecIsListedFirst() {
    RolloutStatus s = healthy();
    s.setConditions(
        List.of(
            cond(ConditionType.INVALID_SPEC, "True", ConditionReason.INVALID_SPEC, INVALID_MSG),
            aborted()));
    assertPhase(RolloutPhase.DEGRADED, "InvalidSpec: " + INVALID_MSG, rollout(CANARY), s);
  }

  @Test
  void reportsFirstDegradedConditionInListOrder_whenAbortIsListedBeforeInvalidSpec() {
    RolloutStatus s = healthy();
    s.setConditions(
        List.of(
            aborted(),
            cond(ConditionType.INVALID_SPEC, "True", ConditionReason.INVALID_SPEC, INVALID_MSG)));
    assertPhase(RolloutPhase.DEGRADED, "RolloutAborted: " + ABORTED_MSG, rollout(CANARY), s);
  }

  @Test
  void ignoresConditionsWithOtherReasons() {
    RolloutStatus s = healthy();
    s.setConditions(
        List.of(
            cond(
                ConditionType.PROGRESSING,
                "Unknown",
                ConditionReason.ROLLOUT_PAUSED,
                "Rollout is paused"),
            cond(ConditionType.PAUSED, "True", ConditionReason.ROLLOUT_PAUSED, "Rollout is paused"),
            cond(ConditionType.AVAILABLE, "False", ConditionReason.AVAILABLE_REASON, "no")));
    assertPhase(RolloutPhase.HEALTHY, null, rollout(CANARY), s);
  }

  @Test
  void prefersDegradedOverManualPauseAndPauseConditions() {
    Rollout r = rollout(CANARY.replace("replicas: 3", "replicas: 3\n  paused: true"));
    RolloutStatus s = healthy();
    s.setConditions(List.of(aborted()));
    s.setPauseConditions(List.of(pause(PauseReason.CANARY_PAUSE_STEP)));
    assertPhase(RolloutPhase.DEGRADED, "RolloutAborted: " + ABORTED_MSG, r, s);
  }

  // 3 and 4: pauses

  @Test
  void pausesManually_whenSpecPaused() {
    Rollout r = rollout(CANARY.replace("replicas: 3", "replicas: 3\n  paused: true"));
    assertPhase(RolloutPhase.PAUSED, "manually paused", r, healthy());
  }

  @Test
  void prefersManualPauseOverPauseConditions() {
    Rollout r = rollout(CANARY.replace("replicas: 3", "replicas: 3\n  paused: true"));
    RolloutStatus s = progressing();
    s.setPauseConditions(List.of(pause(PauseReason.CANARY_PAUSE_STEP)));
    assertPhase(RolloutPhase.PAUSED, "manually paused", r, s);
  }

  @Test
  void pausesWithFirstPauseConditionReason() {
    RolloutStatus s = progressing();
    s.setPauseConditions(
        List.of(
            pause(PauseReason.INCONCLUSIVE_ANALYSIS_RUN), pause(PauseReason.CANARY_PAUSE_STEP)));
    assertPhase(RolloutPhase.PAUSED, PauseReason.INCONCLUSIVE_ANALYSIS_RUN, rollout(CANARY), s);
  }

  @Test
  void ignoresEmptyPauseConditionsAndSpecPausedFalse() {
    Rollout r = rollout(CANARY.replace("replicas: 3", "replicas: 3\n  paused: false"));
    RolloutStatus s = healthy();
    s.setPauseConditions(List.of());
    assertPhase(RolloutPhase.HEALTHY, null, r, s);
  }

  // 5: restart

  @Test
  void progressesWithRestart_whenRestartAtNotYetReached() {
    Rollout r =
        rollout(CANARY.replace("replicas: 3", "replicas: 3\n  restartAt: '2024-05-01T10:00:00Z'"));
    assertPhase(RolloutPhase.PROGRESSING, "rollout is restarting", r, healthy());
    RolloutStatus older = healthy();
    older.setRestartedAt("2024-04-01T10:00:00Z");
    assertPhase(RolloutPhase.PROGRESSING, "rollout is restarting", r, older);
  }

  @Test
  void prefersPauseOverRestart() {
    Rollout r =
        rollout(CANARY.replace("replicas: 3", "replicas: 3\n  restartAt: '2024-05-01T10:00:00Z'"));
    RolloutStatus s = healthy();
    s.setPauseConditions(List.of(pause(PauseReason.CANARY_PAUSE_STEP)));
    assertPhase(RolloutPhase.PAUSED, PauseReason.CANARY_PAUSE_STEP, r, s);
  }

  @Test
  void prefersRestartOverReplicaProgress() {
    Rollout r =
        rollout(CANARY.replace("replicas: 3", "replicas: 3\n  restartAt: '2024-05-01T10:00:00Z'"));
    assertPhase(RolloutPhase.PROGRESSING, "rollout is restarting", r, progressing());
  }

  @Test
  void continues_whenRestartedAtEqualsRestartAt() {
    Rollout r =
        rollout(CANARY.replace("replicas: 3", "replicas: 3\n  restartAt: '2024-05-01T10:00:00Z'"));
    RolloutStatus s = healthy();
    s.setRestartedAt("2024-05-01T10:00:00Z");
    assertPhase(RolloutPhase.HEALTHY, null, r, s);
  }

  // 6 and 7: replica counts

  @Test
  void progresses_whenFewerUpdatedReplicasThanDesired() {
    RolloutStatus s = healthy();
    s.setUpdatedReplicas(R - 1);
    assertPhase(RolloutPhase.PROGRESSING, "more replicas need to be updated", rollout(CANARY), s);
    s.setUpdatedReplicas(null);
    assertPhase(RolloutPhase.PROGRESSING, "more replicas need to be updated", rollout(CANARY), s);
  }

  @Test
  void comparesUpdatedReplicasWithGivenReplicas() {
    RolloutStatus s = healthy();
    s.setUpdatedReplicas(2);
    s.setAvailableReplicas(2);
    s.setReplicas(2);
    assertPhase(RolloutPhase.HEALTHY, null, rollout(CANARY), s, 2);
  }

  @Test
  void progresses_whenUpdatedReplicasAreNotAllAvailable() {
    RolloutStatus s = healthy();
    s.setAvailableReplicas(R - 1);
    assertPhase(
        RolloutPhase.PROGRESSING,
        "updated replicas are still becoming available",
        rollout(CANARY),
        s);
  }

  @Test
  void prefersMoreReplicasToUpdateOverAvailability() {
    RolloutStatus s = healthy();
    s.setUpdatedReplicas(R - 1);
    s.setAvailableReplicas(0);
    assertPhase(RolloutPhase.PROGRESSING, "more replicas need to be updated", rollout(CANARY), s);
  }

  // 9: canary

  @Test
  void progresses_whenOldReplicasArePendingTermination_withBasicCanary() {
    RolloutStatus s = healthy();
    s.setReplicas(R + 1);
    assertPhase(
        RolloutPhase.PROGRESSING, "old replicas are pending termination", rollout(CANARY), s);
  }

  @Test
  void ignoresOldReplicas_withTrafficRoutedCanary() {
    RolloutStatus s = healthy();
    s.setReplicas(R + 3);
    assertPhase(RolloutPhase.HEALTHY, null, rollout(TRAFFIC_ROUTED_CANARY), s);
  }

  @Test
  void waitsForSteps_whenStableIsNotCurrent() {
    RolloutStatus s = healthy();
    s.setStableRS("old");
    assertPhase(RolloutPhase.PROGRESSING, "waiting for all steps to complete", rollout(CANARY), s);
    s.setStableRS(null);
    assertPhase(RolloutPhase.PROGRESSING, "waiting for all steps to complete", rollout(CANARY), s);
    s.setStableRS("");
    assertPhase(
        RolloutPhase.PROGRESSING,
        "waiting for all steps to complete",
        rollout(TRAFFIC_ROUTED_CANARY),
        s);
  }

  @Test
  void prefersOldReplicasOverSteps_withBasicCanary() {
    RolloutStatus s = healthy();
    s.setReplicas(R + 1);
    s.setStableRS("old");
    assertPhase(
        RolloutPhase.PROGRESSING, "old replicas are pending termination", rollout(CANARY), s);
  }

  // 10

  @Test
  void isHealthyWithoutMessage_whenStableIsCurrentAndAllReplicasAreUpdatedAndAvailable() {
    RolloutStatus s = healthy();
    s.setMessage("stale");
    assertPhase(RolloutPhase.HEALTHY, null, rollout(CANARY), s);
  }

  // 8: blue-green

  @Test
  void isHealthy_whenBlueGreenActiveAndStableAreCurrent() {
    assertPhase(RolloutPhase.HEALTHY, null, rollout(BLUE_GREEN), blueGreenHealthy());
  }

  @Test
  void waitsForCutover_whenBlueGreenActiveSelectorIsNotCurrent() {
    RolloutStatus s = blueGreenHealthy();
    s.getBlueGreen().setActiveSelector("old");
    s.setStableRS("old");
    s.setReplicas(2 * R);
    assertPhase(RolloutPhase.PROGRESSING, "active service cutover pending", rollout(BLUE_GREEN), s);
  }

  @Test
  void waitsForCutover_whenBlueGreenActiveSelectorIsEmpty() {
    RolloutStatus s = blueGreenHealthy();
    s.setBlueGreen(null);
    assertPhase(RolloutPhase.PROGRESSING, "active service cutover pending", rollout(BLUE_GREEN), s);
  }

  @Test
  void waitsForPostPromotionVerification_whenBlueGreenStableIsNotCurrent() {
    RolloutStatus s = blueGreenHealthy();
    s.setStableRS("old");
    assertPhase(
        RolloutPhase.PROGRESSING,
        "waiting for post-promotion verification to complete",
        rollout(BLUE_GREEN),
        s);
  }

  @Test
  void waitsForAnalysis_whenBlueGreenPostPromotionAnalysisIsNotComplete() {
    RolloutStatus s = blueGreenHealthy();
    s.setStableRS("old");
    assertPhase(
        RolloutPhase.PROGRESSING,
        "waiting for analysis to complete",
        rollout(BLUE_GREEN_POST_ANALYSIS),
        s);
  }

  @Test
  void waitsForPostPromotionVerification_whenBlueGreenPostPromotionAnalysisCompleted() {
    RolloutStatus s = blueGreenHealthy();
    s.setStableRS("old");
    RolloutAnalysisRunStatus run = new RolloutAnalysisRunStatus();
    run.setName("web-new-2");
    run.setStatus("Successful");
    s.getBlueGreen().setPostPromotionAnalysisRunStatus(run);
    assertPhase(
        RolloutPhase.PROGRESSING,
        "waiting for post-promotion verification to complete",
        rollout(BLUE_GREEN_POST_ANALYSIS),
        s);
    run.setStatus("Running");
    assertPhase(
        RolloutPhase.PROGRESSING,
        "waiting for analysis to complete",
        rollout(BLUE_GREEN_POST_ANALYSIS),
        s);
  }

  @Test
  void prefersCutoverOverStable_withBlueGreen() {
    RolloutStatus s = blueGreenHealthy();
    s.getBlueGreen().setActiveSelector("old");
    s.setStableRS("old");
    assertPhase(
        RolloutPhase.PROGRESSING,
        "active service cutover pending",
        rollout(BLUE_GREEN_POST_ANALYSIS),
        s);
  }

  @Test
  void ignoresOldReplicas_withBlueGreen() {
    RolloutStatus s = blueGreenHealthy();
    s.setReplicas(2 * R);
    assertPhase(RolloutPhase.HEALTHY, null, rollout(BLUE_GREEN), s);
  }

  @Test
  void namesTheStepPluginProblem_whenAPluginStepCannotComplete() {
    RolloutStatus s = healthy();
    s.setUpdatedReplicas(0);
    String problem = "plugin step/ci is not running: no handshake line within 4s";
    Phase.apply(rollout(CANARY), s, R, problem);
    assertEquals(RolloutPhase.PROGRESSING, s.getPhase());
    assertEquals(problem, s.getMessage());
  }

  @Test
  void keepsDegradedAndPausedMessages_overAStepPluginProblem() {
    RolloutStatus s = healthy();
    s.setConditions(List.of(aborted()));
    Phase.apply(rollout(CANARY), s, R, "plugin step/ci is not running: exited with 1");
    assertEquals("RolloutAborted: " + ABORTED_MSG, s.getMessage());
    RolloutStatus paused = healthy();
    Rollout r = rollout(CANARY);
    r.getSpec().setPaused(true);
    Phase.apply(r, paused, R, "plugin step/ci is not running: exited with 1");
    assertEquals(RolloutPhase.PAUSED, paused.getPhase());
  }

  // ---------------------------------------------------------------------------------------------------------------

  private static void assertPhase(String phase, String message, Rollout r, RolloutStatus s) {
    assertPhase(phase, message, r, s, R);
  }

  private static void assertPhase(
      String phase, String message, Rollout r, RolloutStatus s, int replicas) {
    Phase.apply(r, s, replicas);
    assertEquals(phase, s.getPhase());
    if (message == null) {
      assertNull(s.getMessage());
    } else {
      assertEquals(message, s.getMessage());
    }
  }

  /** A status that matches no rule before the last one. */
  private static RolloutStatus healthy() {
    RolloutStatus s = new RolloutStatus();
    s.setReplicas(R);
    s.setUpdatedReplicas(R);
    s.setReadyReplicas(R);
    s.setAvailableReplicas(R);
    s.setCurrentPodHash("new");
    s.setStableRS("new");
    s.setConditions(new ArrayList<>());
    return s;
  }

  private static RolloutStatus progressing() {
    RolloutStatus s = healthy();
    s.setReplicas(R + 1);
    s.setUpdatedReplicas(1);
    s.setAvailableReplicas(1);
    s.setStableRS("old");
    return s;
  }

  private static RolloutStatus blueGreenHealthy() {
    RolloutStatus s = healthy();
    BlueGreenStatus bg = new BlueGreenStatus();
    bg.setActiveSelector("new");
    bg.setPreviewSelector("new");
    s.setBlueGreen(bg);
    return s;
  }

  private static RolloutCondition aborted() {
    return cond(ConditionType.PROGRESSING, "False", ConditionReason.ROLLOUT_ABORTED, ABORTED_MSG);
  }

  private static RolloutCondition cond(String type, String status, String reason, String message) {
    RolloutCondition c = new RolloutCondition();
    c.setType(type);
    c.setStatus(status);
    c.setReason(reason);
    c.setMessage(message);
    c.setLastUpdateTime("2024-05-01T10:00:00Z");
    c.setLastTransitionTime("2024-05-01T10:00:00Z");
    return c;
  }

  private static PauseCondition pause(String reason) {
    PauseCondition p = new PauseCondition();
    p.setReason(reason);
    p.setStartTime("2024-05-01T10:00:00Z");
    return p;
  }

  private static Rollout rollout(String yaml) {
    try {
      return ModelJson.fromJson(new YAMLMapper().readTree(yaml).toString(), Rollout.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
