package io.rollgate.api;

/** Values of {@code status.conditions[].type} of a Rollout (docs/compatibility.md §3.2). */
public final class ConditionType {

  /**
   * Whether the rollout is progressing, paused, aborted or timed out; see {@link ConditionReason}.
   */
  public static final String PROGRESSING = "Progressing";

  /** Whether the rollout has minimum availability. */
  public static final String AVAILABLE = "Available";

  /** Mirrors whether the rollout is paused (pause conditions or {@code spec.paused}). */
  public static final String PAUSED = "Paused";

  /** Whether the current pod template is the stable one ({@code stableRS == currentPodHash}). */
  public static final String COMPLETED = "Completed";

  /** Whether the rollout is fully promoted, not paused and all its pods are available. */
  public static final String HEALTHY = "Healthy";

  /** The spec failed validation; the rollout does not progress until it is fixed. */
  public static final String INVALID_SPEC = "InvalidSpec";

  /**
   * Copied from the {@code ReplicaFailure} condition of a ReplicaSet (pods could not be created or
   * deleted).
   */
  public static final String REPLICA_FAILURE = "ReplicaFailure";

  private ConditionType() {}
}
