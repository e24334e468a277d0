package io.rollgate.defaults;

/**
 * The defaults the controller assumes for absent Rollout fields (one source for controller and
 * webhook).
 *
 * <p>Only {@code spec.replicas} is ever written back to the object (Argo Rollouts does the same,
 * for the scale subresource); every other default is applied when the field is read and never
 * persisted.
 */
public final class RolloutDefaults {

  /** {@code spec.replicas}, in replicas. */
  public static final int REPLICAS = 1;

  /** {@code spec.revisionHistoryLimit}, in ReplicaSets. */
  public static final int REVISION_HISTORY_LIMIT = 10;

  /** {@code spec.progressDeadlineSeconds}, in seconds. */
  public static final int PROGRESS_DEADLINE_SECONDS = 600;

  /** {@code spec.minReadySeconds}, in seconds. */
  public static final int MIN_READY_SECONDS = 0;

  /**
   * {@code canary.maxSurge} and {@code maxUnavailable}: the string "25", which Argo reads as 25
   * percent.
   */
  public static final String MAX_SURGE = "25";

  /** {@code canary.maxUnavailable} and {@code blueGreen.maxUnavailable}: 25 percent. */
  public static final String MAX_UNAVAILABLE = "25";

  /** {@code trafficRouting.maxTrafficWeight}, in percent. */
  public static final int MAX_TRAFFIC_WEIGHT = 100;

  /** {@code scaleDownDelaySeconds} of traffic-routed canaries and blue-green, in seconds. */
  public static final int SCALE_DOWN_DELAY_SECONDS = 30;

  /** {@code abortScaleDownDelaySeconds}, in seconds. */
  public static final int ABORT_SCALE_DOWN_DELAY_SECONDS = 30;

  /**
   * {@code spec.analysis.successfulRunHistoryLimit} and {@code unsuccessfulRunHistoryLimit}, in
   * runs.
   */
  public static final int ANALYSIS_RUN_HISTORY_LIMIT = 5;

  /** Requeue delay of a Rollout with an invalid spec, in seconds (references may appear later). */
  public static final int INVALID_SPEC_REQUEUE_SECONDS = 20;

  private RolloutDefaults() {}

  /**
   * Returns {@code spec.replicas} with its default.
   *
   * @param replicas the field value, may be null
   * @return the effective replica count
   */
  public static int replicas(Integer replicas) {
    return replicas == null ? REPLICAS : replicas;
  }

  /**
   * Returns {@code spec.revisionHistoryLimit} with its default.
   *
   * @param limit the field value, may be null
   * @return the effective limit, in ReplicaSets
   */
  public static int revisionHistoryLimit(Integer limit) {
    return limit == null ? REVISION_HISTORY_LIMIT : limit;
  }

  /**
   * Returns {@code spec.progressDeadlineSeconds} with its default.
   *
   * @param seconds the field value, may be null
   * @return the effective deadline, in seconds
   */
  public static int progressDeadlineSeconds(Integer seconds) {
    return seconds == null ? PROGRESS_DEADLINE_SECONDS : seconds;
  }

  /**
   * Returns {@code spec.minReadySeconds} with its default.
   *
   * @param seconds the field value, may be null
   * @return the effective value, in seconds
   */
  public static int minReadySeconds(Integer seconds) {
    return seconds == null ? MIN_READY_SECONDS : seconds;
  }
}
