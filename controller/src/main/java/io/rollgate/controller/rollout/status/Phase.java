package io.rollgate.controller.rollout.status;

import io.rollgate.api.ConditionReason;
import io.rollgate.api.ConditionType;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutCondition;
import io.rollgate.api.RolloutPhase;
import io.rollgate.api.RolloutStatus;

/**
 * Computes {@code status.phase} and {@code status.message} exactly as Argo Rollouts' controller
 * does ({@code CalculateRolloutPhase}, docs/compatibility.md §3.3): the first matching rule wins.
 */
public final class Phase {

  private Phase() {}

  /**
   * Sets phase and message on the status.
   *
   * @param rollout the Rollout (spec is read)
   * @param s the status being written (conditions, counters and hashes already computed)
   * @param replicas the effective {@code spec.replicas}
   */
  public static void apply(Rollout rollout, RolloutStatus s, int replicas) {
    apply(rollout, s, replicas, null);
  }

  /**
   * Sets phase and message on the status, where a problem that keeps the current step from
   * completing (a step plugin that cannot be called: not registered, not running, timed out) is the
   * message of a progressing Rollout in place of Argo's generic one, so {@code kubectl argo
   * rollouts get}, the dashboard and Argo CD name the plugin and the reason (docs/plugins.md).
   * Degraded and paused Rollouts keep their message.
   *
   * @param rollout the Rollout (spec is read)
   * @param s the status being written (conditions, counters and hashes already computed)
   * @param replicas the effective {@code spec.replicas}
   * @param blocked the problem that holds the current step this pass, or null
   */
  public static void apply(Rollout rollout, RolloutStatus s, int replicas, String blocked) {
    if (s.getConditions() != null) {
      for (RolloutCondition c : s.getConditions()) {
        if (ConditionType.INVALID_SPEC.equals(c.getType())) {
          set(s, RolloutPhase.DEGRADED, "InvalidSpec: " + c.getMessage());
          return;
        }
        if (ConditionReason.ROLLOUT_ABORTED.equals(c.getReason())
            || ConditionReason.PROGRESS_DEADLINE_EXCEEDED.equals(c.getReason())) {
          set(s, RolloutPhase.DEGRADED, c.getReason() + ": " + c.getMessage());
          return;
        }
      }
    }
    if (Boolean.TRUE.equals(rollout.getSpec().getPaused())) {
      set(s, RolloutPhase.PAUSED, "manually paused");
      return;
    }
    if (s.getPauseConditions() != null && !s.getPauseConditions().isEmpty()) {
      set(s, RolloutPhase.PAUSED, s.getPauseConditions().get(0).getReason());
      return;
    }
    if (blocked != null && !blocked.isEmpty()) {
      set(s, RolloutPhase.PROGRESSING, blocked);
      return;
    }
    String restartAt = rollout.getSpec().getRestartAt();
    if (restartAt != null && !restartAt.equals(s.getRestartedAt())) {
      set(s, RolloutPhase.PROGRESSING, "rollout is restarting");
      return;
    }
    int updated = nz(s.getUpdatedReplicas());
    if (updated < replicas) {
      set(s, RolloutPhase.PROGRESSING, "more replicas need to be updated");
      return;
    }
    if (nz(s.getAvailableReplicas()) < updated) {
      set(s, RolloutPhase.PROGRESSING, "updated replicas are still becoming available");
      return;
    }
    var blueGreen = rollout.getSpec().getStrategy().getBlueGreen();
    if (blueGreen != null) {
      applyBlueGreen(blueGreen, s);
      return;
    }
    boolean trafficRouted =
        rollout.getSpec().getStrategy().getCanary() != null
            && rollout.getSpec().getStrategy().getCanary().getTrafficRouting() != null;
    if (!trafficRouted && nz(s.getReplicas()) > updated) {
      set(s, RolloutPhase.PROGRESSING, "old replicas are pending termination");
      return;
    }
    String stable = s.getStableRS();
    if (stable == null || stable.isEmpty() || !stable.equals(s.getCurrentPodHash())) {
      set(s, RolloutPhase.PROGRESSING, "waiting for all steps to complete");
      return;
    }
    set(s, RolloutPhase.HEALTHY, "");
  }

  /**
   * Rule 8: the active Service must select the current hash, then the new ReplicaSet must be marked
   * stable.
   */
  private static void applyBlueGreen(io.rollgate.api.BlueGreenStrategy strategy, RolloutStatus s) {
    String current = s.getCurrentPodHash();
    io.rollgate.api.BlueGreenStatus bg = s.getBlueGreen();
    String active = bg == null ? null : bg.getActiveSelector();
    if (active == null || active.isEmpty() || !active.equals(current)) {
      set(s, RolloutPhase.PROGRESSING, "active service cutover pending");
      return;
    }
    String stable = s.getStableRS();
    if (stable == null || stable.isEmpty() || !stable.equals(current)) {
      io.rollgate.api.RolloutAnalysisRunStatus run = bg.getPostPromotionAnalysisRunStatus();
      boolean runCompleted = run != null && COMPLETED_ANALYSIS_PHASES.contains(run.getStatus());
      if (strategy.getPostPromotionAnalysis() != null && !runCompleted) {
        set(s, RolloutPhase.PROGRESSING, "waiting for analysis to complete");
      } else {
        set(s, RolloutPhase.PROGRESSING, "waiting for post-promotion verification to complete");
      }
      return;
    }
    set(s, RolloutPhase.HEALTHY, "");
  }

  /** AnalysisRun phases that end a run (Argo's {@code AnalysisPhase.Completed()}). */
  private static final java.util.Set<String> COMPLETED_ANALYSIS_PHASES =
      java.util.Set.of("Successful", "Failed", "Error", "Inconclusive");

  private static void set(RolloutStatus s, String phase, String message) {
    s.setPhase(phase);
    s.setMessage(message == null || message.isEmpty() ? null : message);
  }

  private static int nz(Integer i) {
    return i == null ? 0 : i;
  }
}
