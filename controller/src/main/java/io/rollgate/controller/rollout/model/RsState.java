package io.rollgate.controller.rollout.model;

import java.util.Objects;

/**
 * The replica counts of one ReplicaSet owned by a Rollout, as the replica maths needs them.
 *
 * <p>Two states with the same {@code name} are the same ReplicaSet (Argo Rollouts compares
 * ReplicaSets by name).
 *
 * @param name {@code metadata.name}, not null
 * @param specReplicas {@code spec.replicas} (replicas, not negative)
 * @param availableReplicas {@code status.availableReplicas} (replicas, not negative)
 * @param statusReplicas {@code status.replicas}, pods created (replicas, not negative)
 * @param revision the {@code rollout.argoproj.io/revision} annotation, 0 when absent or unparsable
 */
public record RsState(
    String name, int specReplicas, int availableReplicas, int statusReplicas, long revision) {

  /**
   * Checks the name and that no count is negative.
   *
   * @throws NullPointerException when {@code name} is null
   * @throws IllegalArgumentException when a count is negative
   */
  public RsState {
    Objects.requireNonNull(name, "name");
    if (specReplicas < 0 || availableReplicas < 0 || statusReplicas < 0) {
      throw new IllegalArgumentException(
          "replica counts of ReplicaSet "
              + name
              + " must not be negative: spec="
              + specReplicas
              + ", available="
              + availableReplicas
              + ", status="
              + statusReplicas);
    }
  }

  /**
   * Returns a fully-rolled-out state: {@code spec.replicas}, {@code status.replicas} and available
   * all equal.
   *
   * @param name {@code metadata.name}
   * @param replicas the replica count (replicas)
   * @param revision the Rollout revision of the ReplicaSet
   * @return the state
   */
  public static RsState ready(String name, int replicas, long revision) {
    return new RsState(name, replicas, replicas, replicas, revision);
  }

  /**
   * Returns this state with another {@code spec.replicas}, keeping the observed status.
   *
   * @param replicas the new {@code spec.replicas} (replicas)
   * @return the changed copy
   */
  public RsState withSpecReplicas(int replicas) {
    return new RsState(name, replicas, availableReplicas, statusReplicas, revision);
  }

  /**
   * Tells whether {@code other} is the same ReplicaSet (same name).
   *
   * @param other another state, may be null
   * @return true when both name the same ReplicaSet
   */
  public boolean sameReplicaSet(RsState other) {
    return other != null && name.equals(other.name);
  }
}
