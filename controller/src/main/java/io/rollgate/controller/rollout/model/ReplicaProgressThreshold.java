package io.rollgate.controller.rollout.model;

import java.util.Objects;

/**
 * {@code spec.strategy.canary.replicaProgressThreshold}: how much of the canary's desired replica
 * count must be available before a {@code setWeight} / {@code setCanaryScale} step counts as
 * reached.
 *
 * @param type whether {@code value} is a percentage of the desired count or a pod count
 * @param value the threshold (percent or replicas); a negative value means "use the default rule"
 */
public record ReplicaProgressThreshold(Type type, int value) {

  /** The unit of {@link #value()}. */
  public enum Type {
    /** {@code value} is a percentage of the desired replica count. */
    PERCENT,
    /** {@code value} is a number of available pods. */
    PODS
  }

  /**
   * Checks the type.
   *
   * @throws NullPointerException when {@code type} is null
   */
  public ReplicaProgressThreshold {
    Objects.requireNonNull(type, "type");
  }

  /**
   * Tells whether a ReplicaSet has reached {@code desired} replicas under a threshold.
   *
   * <p>Without a threshold (null, or a negative value) the default rule applies: {@code
   * spec.replicas == desired} and {@code status.availableReplicas == desired}. {@code PERCENT}:
   * {@code available * 100 >= value * desired}, always met when {@code desired} is 0. {@code PODS}:
   * {@code available >= value}. A missing ReplicaSet never meets it.
   *
   * @param threshold the configured threshold, or null for the default rule
   * @param rs the ReplicaSet (the canary), or null when it does not exist
   * @param desired the desired replica count (replicas)
   * @return true when the threshold is met
   */
  public static boolean isMet(ReplicaProgressThreshold threshold, RsState rs, int desired) {
    if (rs == null) {
      return false;
    }
    if (threshold == null || threshold.value < 0) {
      return rs.specReplicas() == desired && rs.availableReplicas() == desired;
    }
    return switch (threshold.type) {
      case PERCENT ->
          desired == 0 || (long) rs.availableReplicas() * 100 >= (long) threshold.value * desired;
      case PODS -> rs.availableReplicas() >= threshold.value;
    };
  }
}
