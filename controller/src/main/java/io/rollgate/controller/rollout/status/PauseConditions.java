package io.rollgate.controller.rollout.status;

import io.rollgate.api.PauseCondition;
import io.rollgate.api.RolloutStatus;

/**
 * Reads {@code status.pauseConditions} of a Rollout, shared by the canary and blue-green strategies
 * and the analysis and experiment stages (docs/compatibility.md §3.4). Reasons are Argo's, see
 * {@code io.rollgate.api.PauseReason}.
 */
public final class PauseConditions {

  private PauseConditions() {}

  /**
   * Finds the pause condition with a reason.
   *
   * @param status the status, not null
   * @param reason the reason, for example {@code CanaryPauseStep}
   * @return the first condition with that reason, or null when there is none
   */
  public static PauseCondition find(RolloutStatus status, String reason) {
    if (status.getPauseConditions() == null) {
      return null;
    }
    for (PauseCondition c : status.getPauseConditions()) {
      if (reason.equals(c.getReason())) {
        return c;
      }
    }
    return null;
  }

  /**
   * Tells whether a pause condition with a reason is present.
   *
   * @param status the status, not null
   * @param reason the reason, for example {@code InconclusiveAnalysisRun}
   * @return true when {@link #find} finds one
   */
  public static boolean has(RolloutStatus status, String reason) {
    return find(status, reason) != null;
  }
}
