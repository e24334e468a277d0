package io.rollgate.controller.rollout.model;

/**
 * A pair of replica counts for the canary (new) and the stable ReplicaSet.
 *
 * @param newRS replicas for the ReplicaSet of the current pod template (replicas, not negative)
 * @param stableRS replicas for the stable ReplicaSet (replicas, not negative)
 */
public record CanarySplit(int newRS, int stableRS) {

  /**
   * Checks that neither count is negative.
   *
   * @throws IllegalArgumentException when a count is negative
   */
  public CanarySplit {
    if (newRS < 0 || stableRS < 0) {
      throw new IllegalArgumentException(
          "replica counts must not be negative: new=" + newRS + ", stable=" + stableRS);
    }
  }

  /**
   * Returns the sum of both counts.
   *
   * @return {@code newRS + stableRS} (replicas)
   */
  public int total() {
    return newRS + stableRS;
  }
}
