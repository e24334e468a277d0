package io.rollgate.controller.rollout.model;

import java.util.Map;

/**
 * The {@code spec.replicas} a basic-canary reconcile pass wants for each ReplicaSet of a Rollout.
 *
 * <p>Argo Rollouts changes at most one category per pass, in this order: stableRS, then newRS, then
 * the other ReplicaSets; after the first category that actually scaled, the pass goes straight to
 * status sync and the plan is recomputed on the next pass from the new state.
 *
 * @param newRS target for the ReplicaSet of the current pod template (replicas); 0 when there is
 *     none
 * @param stableRS target for the stable ReplicaSet (replicas); 0 when there is none, and equal to
 *     {@code newRS} when the stable ReplicaSet is the new one
 * @param otherRS targets for the other ReplicaSets, by name (replicas); only those whose {@code
 *     spec.replicas} changes are listed, in no particular order
 */
public record CanaryReplicaPlan(int newRS, int stableRS, Map<String, Integer> otherRS) {

  /**
   * Copies {@code otherRS} into an unmodifiable map.
   *
   * @throws NullPointerException when {@code otherRS} or one of its keys or values is null
   */
  public CanaryReplicaPlan {
    otherRS = Map.copyOf(otherRS);
  }
}
