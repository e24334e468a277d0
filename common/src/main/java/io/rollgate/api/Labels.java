package io.rollgate.api;

/**
 * Label keys with the exact spelling Argo Rollouts uses, so objects written by either controller
 * are read by the other and by tools (the {@code kubectl argo rollouts} plugin, Argo CD health
 * checks).
 */
public final class Labels {

  /**
   * Pod-template hash of a ReplicaSet; on ReplicaSet labels and selector, pod labels and Service
   * selectors.
   */
  public static final String POD_TEMPLATE_HASH = "rollouts-pod-template-hash";

  /**
   * Controller sharding label ({@code --instance-id}); a controller only reconciles objects whose
   * value matches.
   */
  public static final String CONTROLLER_INSTANCE_ID =
      "argo-rollouts.argoproj.io/controller-instance-id";

  /**
   * AnalysisRun label: {@code Step}, {@code Background}, {@code PrePromotion} or {@code
   * PostPromotion}.
   */
  public static final String ROLLOUT_TYPE = "rollout-type";

  /** AnalysisRun label for step runs: the canary step index as a decimal string. */
  public static final String STEP_INDEX = "step-index";

  /** Job provider: UID of the AnalysisRun, on the Jobs it creates and their pod templates. */
  public static final String ANALYSIS_RUN_UID = "analysisrun.argoproj.io/uid";

  private Labels() {}
}
