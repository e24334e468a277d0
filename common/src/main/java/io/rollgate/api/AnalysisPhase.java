package io.rollgate.api;

import java.util.List;

/**
 * Values of {@code status.phase} of an AnalysisRun, and of {@code phase} of its metric results and
 * measurements (Argo's {@code AnalysisPhase}, docs/compatibility.md §9.1). Fields stay {@code
 * String}s so that a value written by another controller version round-trips unchanged.
 */
public final class AnalysisPhase {

  /** Not started yet. */
  public static final String PENDING = "Pending";

  /** Measuring. */
  public static final String RUNNING = "Running";

  /** Completed: passed. */
  public static final String SUCCESSFUL = "Successful";

  /** Completed: failed. */
  public static final String FAILED = "Failed";

  /** Completed: could not be measured (provider errors, invalid spec, unresolvable arguments). */
  public static final String ERROR = "Error";

  /** Completed: neither passed nor failed; a Rollout pauses on it. */
  public static final String INCONCLUSIVE = "Inconclusive";

  /** Phases from best to worst, as Argo orders them when it picks the worst metric phase. */
  private static final List<String> SEVERITY =
      List.of(SUCCESSFUL, RUNNING, PENDING, INCONCLUSIVE, ERROR, FAILED);

  private AnalysisPhase() {}

  /**
   * Tells whether a phase is final.
   *
   * @param phase a phase string; {@code null} (not yet assessed) is not completed
   * @return whether it is Successful, Failed, Error or Inconclusive
   */
  public static boolean isCompleted(String phase) {
    return SUCCESSFUL.equals(phase)
        || FAILED.equals(phase)
        || ERROR.equals(phase)
        || INCONCLUSIVE.equals(phase);
  }

  /**
   * Tells whether {@code candidate} is worse than {@code current} in Argo's severity order
   * (Successful, Running, Pending, Inconclusive, Error, Failed, best first).
   *
   * @param candidate a phase
   * @param current the phase to compare with; {@code null} counts as better than any phase
   * @return whether {@code candidate} is strictly worse; an unknown phase string is never worse
   */
  public static boolean isWorse(String candidate, String current) {
    int c = SEVERITY.indexOf(candidate);
    if (c < 0) {
      return false;
    }
    return current == null || c > SEVERITY.indexOf(current);
  }
}
