package io.rollgate.analysis;

/**
 * A Rollout's analysis configuration cannot be turned into an AnalysisRun: a referenced template is
 * missing, the templates do not flatten (duplicate metric names, conflicting arguments, duplicate
 * dryRun or measurementRetention rules), or an argument cannot be resolved (docs/compatibility.md
 * §2.3 items 2-5, §9.3). The message is Argo's wording.
 */
public final class AnalysisSpecException extends Exception {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the problem, worded as Argo Rollouts words it
   */
  public AnalysisSpecException(String message) {
    super(message);
  }
}
