package io.rollgate.api;

/** Annotation keys with the exact spelling Argo Rollouts uses (docs/compatibility.md §0). */
public final class Annotations {

  /**
   * Revision number (decimal string) on the Rollout, its ReplicaSets, AnalysisRuns and Experiments.
   */
  public static final String REVISION = "rollout.argoproj.io/revision";

  /** ReplicaSet annotation: comma-separated list of earlier revisions this ReplicaSet served. */
  public static final String REVISION_HISTORY = "rollout.argoproj.io/revision-history";

  /**
   * ReplicaSet annotation: the Rollout's {@code spec.replicas} when the ReplicaSet was last scaled.
   */
  public static final String DESIRED_REPLICAS = "rollout.argoproj.io/desired-replicas";

  /** Rollout annotation: observed generation of the workload named by {@code spec.workloadRef}. */
  public static final String WORKLOAD_GENERATION = "rollout.argoproj.io/workload-generation";

  /**
   * ReplicaSet annotation: JSON of the ephemeral metadata currently injected into its pod template.
   */
  public static final String EPHEMERAL_METADATA = "rollout.argoproj.io/ephemeral-metadata";

  /**
   * ReplicaSet annotation (no prefix, as upstream): RFC 3339 UTC time after which it may be scaled
   * to zero.
   */
  public static final String SCALE_DOWN_DEADLINE = "scale-down-deadline";

  /** Service annotation naming the Rollout that manages its selector. */
  public static final String MANAGED_BY_ROLLOUTS = "argo-rollouts.argoproj.io/managed-by-rollouts";

  /**
   * Annotation written by {@code kubectl apply}; never copied from a Rollout to its ReplicaSets.
   */
  public static final String LAST_APPLIED_CONFIGURATION =
      "kubectl.kubernetes.io/last-applied-configuration";

  /**
   * Notifications-engine bookkeeping annotation; never copied from a Rollout to its ReplicaSets.
   */
  public static final String NOTIFIED = "notified.notifications.argoproj.io";

  /** Job provider: name of the AnalysisRun that created the Job. */
  public static final String ANALYSIS_RUN_NAME = "analysisrun.argoproj.io/name";

  /** Job provider: namespace of the AnalysisRun that created the Job. */
  public static final String ANALYSIS_RUN_NAMESPACE = "analysisrun.argoproj.io/namespace";

  /** Job provider: name of the metric the Job measures. */
  public static final String ANALYSIS_RUN_METRIC_NAME = "analysisrun.argoproj.io/metric-name";

  private Annotations() {}
}
