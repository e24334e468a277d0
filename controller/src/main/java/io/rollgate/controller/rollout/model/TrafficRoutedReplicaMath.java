package io.rollgate.controller.rollout.model;

/**
 * Replica maths of the Argo Rollouts traffic-routed canary ({@code
 * spec.strategy.canary.trafficRouting} set), its {@code
 * CalculateReplicaCountsForTrafficRoutedCanary}: the router splits traffic, so the canary is sized
 * from the weight with no {@code maxSurge} limit and the stable ReplicaSet stays fully scaled
 * unless {@code dynamicStableScale} is on. All functions are pure.
 */
public final class TrafficRoutedReplicaMath {

  private TrafficRoutedReplicaMath() {}

  /**
   * Converts a traffic weight to a replica count: {@code ceil(weight * replicas / maxWeight)}.
   *
   * @param weight the traffic weight (0 to {@code maxWeight})
   * @param replicas {@code spec.replicas} (replicas)
   * @param maxWeight the total weight W (greater than 0)
   * @return the replica count, rounded up
   */
  public static int toReplicas(int weight, int replicas, int maxWeight) {
    return (int) Math.ceil((double) (weight * replicas) / maxWeight);
  }

  /**
   * Raises a non-zero count to {@code minPodsPerReplicaSet}, capped at {@code replicas}; 0 stays 0.
   *
   * @param count the computed count (replicas)
   * @param minPodsPerReplicaSet {@code spec.strategy.canary.minPodsPerReplicaSet} (replicas), or
   *     null for no minimum
   * @param replicas {@code spec.replicas}, the cap (replicas)
   * @return the raised count
   */
  public static int applyMinPods(int count, Integer minPodsPerReplicaSet, int replicas) {
    if (count == 0 || minPodsPerReplicaSet == null) {
      return count;
    }
    return Math.max(count, Math.min(minPodsPerReplicaSet, replicas));
  }

  /**
   * Computes the canary and stable {@code spec.replicas}.
   *
   * <ul>
   *   <li>Canary: {@code setCanaryScale.replicas} when set, else {@code toReplicas(weight)} raised
   *       by minPodsPerReplicaSet.
   *   <li>Without {@code dynamicStableScale}: stable = R.
   *   <li>With it: stable = {@code toReplicas(W - weight)}, or more while the previously recorded
   *       stable weight still needs more; when aborted the canary keeps at least {@code
   *       toReplicas(recorded canary weight)}; both are then raised by minPodsPerReplicaSet. The
   *       recorded weights are from the previous pass, so stable scaling lags the weight change by
   *       one pass.
   * </ul>
   *
   * @param input the Rollout state
   * @return the targets
   */
  public static CanarySplit targets(TrafficRoutedInput input) {
    int replicas = input.replicas();
    int maxWeight = input.maxWeight();
    Integer minPods = input.minPodsPerReplicaSet();
    int canary =
        input.canaryScaleReplicas() != null
            ? input.canaryScaleReplicas()
            : applyMinPods(toReplicas(input.weight(), replicas, maxWeight), minPods, replicas);
    if (!input.dynamicStableScale()) {
      return new CanarySplit(canary, replicas);
    }
    int stable = toReplicas(maxWeight - input.weight(), replicas, maxWeight);
    TrafficRoutedInput.RecordedWeights recorded = input.recordedWeights();
    if (recorded != null) {
      stable = Math.max(stable, toReplicas(recorded.stableWeight(), replicas, maxWeight));
      if (input.aborted()) {
        canary = Math.max(canary, toReplicas(recorded.canaryWeight(), replicas, maxWeight));
      }
    }
    return new CanarySplit(
        applyMinPods(canary, minPods, replicas), applyMinPods(stable, minPods, replicas));
  }

  /**
   * Tells whether a traffic-routed canary is "at desired replica counts" (Argo Rollouts {@code
   * AtDesiredReplicaCountsForCanary}, traffic-routed branch): the new ReplicaSet meets {@code
   * threshold} for its target; without {@code dynamicStableScale} the stable ReplicaSet also has
   * {@code spec.replicas} and {@code status.replicas} equal to its target. Other ReplicaSets do not
   * matter (the router keeps traffic off them).
   *
   * @param input the Rollout state
   * @param newRS the ReplicaSet of the current pod template, or null
   * @param stableRS the stable ReplicaSet, or null
   * @param threshold {@code spec.strategy.canary.replicaProgressThreshold}, or null for the default
   *     rule
   * @return true when the step's replica counts are reached
   */
  public static boolean atDesiredReplicaCounts(
      TrafficRoutedInput input,
      RsState newRS,
      RsState stableRS,
      ReplicaProgressThreshold threshold) {
    CanarySplit desired = targets(input);
    if (!ReplicaProgressThreshold.isMet(threshold, newRS, desired.newRS())) {
      return false;
    }
    if (input.dynamicStableScale()) {
      return true;
    }
    return stableRS != null
        && stableRS.specReplicas() == desired.stableRS()
        && stableRS.statusReplicas() == desired.stableRS();
  }
}
