package io.rollgate.api;

/**
 * Values of {@code status.pauseConditions[].reason} of a Rollout (docs/compatibility.md §3.1 and
 * §3.4).
 */
public final class PauseReason {

  /** The current canary step is a {@code pause} step. */
  public static final String CANARY_PAUSE_STEP = "CanaryPauseStep";

  /** Blue-green: waiting for promotion (auto-promotion disabled or delayed). */
  public static final String BLUE_GREEN_PAUSE = "BlueGreenPause";

  /** An AnalysisRun of the rollout ended Inconclusive. */
  public static final String INCONCLUSIVE_ANALYSIS_RUN = "InconclusiveAnalysisRun";

  /** The Experiment of the current step ended Inconclusive. */
  public static final String INCONCLUSIVE_EXPERIMENT = "InconclusiveExperiment";

  private PauseReason() {}
}
