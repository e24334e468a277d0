package io.rollgate.api;

/**
 * Values of {@code status.conditions[].reason} of a Rollout (docs/compatibility.md §3.2). Each
 * constant is named after its value; the condition types it is used with are noted.
 */
public final class ConditionReason {

  /** {@code InvalidSpec}=True: the spec failed validation. */
  public static final String INVALID_SPEC = "InvalidSpec";

  /** {@code Progressing}=True: a new ReplicaSet was created. */
  public static final String NEW_REPLICA_SET_CREATED = "NewReplicaSetCreated";

  /** {@code Progressing}=True: the condition was first initialised for an existing ReplicaSet. */
  public static final String FOUND_NEW_REPLICA_SET = "FoundNewReplicaSet";

  /** {@code Progressing}=True: progress was made. */
  public static final String REPLICA_SET_UPDATED = "ReplicaSetUpdated";

  /** {@code Progressing}=True: a fully promoted rollout lost minimum availability. */
  public static final String REPLICA_SET_NOT_AVAILABLE = "ReplicaSetNotAvailable";

  /** {@code Progressing}=True: the rollout is healthy. */
  public static final String NEW_REPLICA_SET_AVAILABLE = "NewReplicaSetAvailable";

  /** {@code Progressing}=False: the progress deadline was exceeded. */
  public static final String PROGRESS_DEADLINE_EXCEEDED = "ProgressDeadlineExceeded";

  /** {@code Progressing}=False: the update is aborted. */
  public static final String ROLLOUT_ABORTED = "RolloutAborted";

  /** {@code Progressing}=False: creating the new ReplicaSet failed. */
  public static final String REPLICA_SET_CREATE_ERROR = "ReplicaSetCreateError";

  /** {@code Progressing}=Unknown and {@code Paused}=True/False: the rollout is (or was) paused. */
  public static final String ROLLOUT_PAUSED = "RolloutPaused";

  /** {@code Progressing}=Unknown: the rollout was resumed. */
  public static final String ROLLOUT_RESUMED = "RolloutResumed";

  /** {@code Progressing}=Unknown: the abort flag was cleared, the update is retried. */
  public static final String ROLLOUT_RETRY = "RolloutRetry";

  /** {@code Available}=True/False. */
  public static final String AVAILABLE_REASON = "AvailableReason";

  /** {@code Healthy}=True/False. */
  public static final String ROLLOUT_HEALTHY = "RolloutHealthy";

  /** {@code Completed}=True/False; also used as the message. */
  public static final String ROLLOUT_COMPLETED = "RolloutCompleted";

  private ConditionReason() {}
}
