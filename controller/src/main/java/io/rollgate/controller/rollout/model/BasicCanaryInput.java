package io.rollgate.controller.rollout.model;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What the basic-canary (no {@code trafficRouting}) replica maths reads from a Rollout and its
 * ReplicaSets.
 *
 * @param replicas the effective {@code spec.replicas} (replicas, not negative)
 * @param weight the desired canary weight, as Argo Rollouts' {@code GetCanaryReplicasOrWeight}
 *     returns it: the current {@code setWeight}, 0 while aborted, {@code maxWeight} when promoting
 *     fully or past the last step (0 to {@code maxWeight})
 * @param maxWeight the total weight, {@code W}: always 100 for a basic canary (greater than 0)
 * @param fenceposts the resolved {@code maxSurge} and {@code maxUnavailable}, see {@link
 *     Fenceposts#resolve}
 * @param newRS the ReplicaSet of the current pod template, or null when it does not exist yet
 * @param stableRS the ReplicaSet named by {@code status.stableRS}, or null when there is none
 *     (initial deploy); it may be the same ReplicaSet as {@code newRS} (same name)
 * @param otherRSs every other owned ReplicaSet, preferably in creation order (ties in revision keep
 *     this order); none of them may be named like {@code newRS} or {@code stableRS}
 */
public record BasicCanaryInput(
    int replicas,
    int weight,
    int maxWeight,
    Fenceposts fenceposts,
    RsState newRS,
    RsState stableRS,
    List<RsState> otherRSs) {

  /**
   * Checks the ranges and copies {@code otherRSs}.
   *
   * @throws NullPointerException when {@code fenceposts} or {@code otherRSs} (or an element) is
   *     null
   * @throws IllegalArgumentException when a number is out of range or a ReplicaSet name repeats
   */
  public BasicCanaryInput {
    Objects.requireNonNull(fenceposts, "fenceposts");
    otherRSs = List.copyOf(otherRSs);
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must not be negative: " + replicas);
    }
    if (maxWeight <= 0 || weight < 0 || weight > maxWeight) {
      throw new IllegalArgumentException(
          "weight must be within 0.." + maxWeight + " (maxWeight > 0): " + weight);
    }
    Set<String> names = new HashSet<>();
    if (newRS != null) {
      names.add(newRS.name());
    }
    if (stableRS != null) {
      names.add(stableRS.name());
    }
    for (RsState other : otherRSs) {
      if (!names.add(other.name())) {
        throw new IllegalArgumentException("ReplicaSet " + other.name() + " is listed twice");
      }
    }
  }

  /**
   * Tells whether a stable ReplicaSet exists and differs from the new one (Argo Rollouts {@code
   * CheckStableRSExists}).
   *
   * @return true when the canary split applies; false on initial deploy or once the new ReplicaSet
   *     is stable
   */
  public boolean hasDistinctStable() {
    return stableRS != null && !stableRS.sameReplicaSet(newRS);
  }
}
