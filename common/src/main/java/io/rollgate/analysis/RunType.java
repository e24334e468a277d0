package io.rollgate.analysis;

import java.util.Locale;

/**
 * The four kinds of AnalysisRun a Rollout creates, with the {@code rollout-type} label value, the
 * name infix and the wording Argo Rollouts uses for them in abort messages and events
 * (docs/compatibility.md §9.8, §7.7).
 */
public enum RunType {
  /** An inline canary {@code analysis} step ({@code spec.strategy.canary.steps[i].analysis}). */
  STEP("Step", "Step-based"),
  /** Background analysis ({@code spec.strategy.canary.analysis}). */
  BACKGROUND("Background", "Background"),
  /** Blue-green {@code prePromotionAnalysis}. */
  PRE_PROMOTION("PrePromotion", "Blue/green pre-promotion"),
  /** Blue-green {@code postPromotionAnalysis}. */
  POST_PROMOTION("PostPromotion", "Blue/green post-promotion");

  private final String label;
  private final String abortPrefix;

  RunType(String label, String abortPrefix) {
    this.label = label;
    this.abortPrefix = abortPrefix;
  }

  /**
   * The {@code rollout-type} label value.
   *
   * @return {@code Step}, {@code Background}, {@code PrePromotion} or {@code PostPromotion}
   */
  public String label() {
    return label;
  }

  /**
   * The name infix: the step index for step runs, {@code pre} / {@code post} for blue-green, none
   * for background.
   *
   * @param stepIndex the step index (step runs only)
   * @return the infix, or null for none
   */
  public String infix(Integer stepIndex) {
    switch (this) {
      case STEP:
        return String.valueOf(stepIndex);
      case PRE_PROMOTION:
        return "pre";
      case POST_PROMOTION:
        return "post";
      default:
        return null;
    }
  }

  /**
   * The abort message for a run ending Failed or Error, e.g. {@code Step-based analysis phase
   * failed: Metric "m" assessed Failed due to failed (1) > failureLimit (0)}.
   *
   * @param phase the run phase ({@code Failed} or {@code Error})
   * @param runMessage the run's {@code status.message}, or null
   * @return the message
   */
  public String abortMessage(String phase, String runMessage) {
    String m = abortPrefix + " analysis phase " + phase.toLowerCase(Locale.ROOT);
    return runMessage == null || runMessage.isEmpty() ? m : m + ": " + runMessage;
  }

  /**
   * The message of the {@code AnalysisRun<Phase>} event on the Rollout.
   *
   * @param name the run name
   * @param phase the new phase
   * @param previous the previous phase, or null/empty when none was recorded
   * @return {@code <Type> Analysis Run '<name>' Status New: '<phase>' Previous:
   *     '<prev|NoPreviousStatus>'}
   */
  public String eventMessage(String name, String phase, String previous) {
    String prev = previous == null || previous.isEmpty() ? "NoPreviousStatus" : previous;
    return label
        + " Analysis Run '"
        + name
        + "' Status New: '"
        + phase
        + "' Previous: '"
        + prev
        + "'";
  }
}
