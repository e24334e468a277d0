package io.rollgate.controller.rollout.model;

/**
 * What the traffic-routed canary replica maths reads from a Rollout.
 *
 * <p>Use {@link #forWeight} or {@link #forCanaryScaleReplicas} and the {@code with...} methods
 * rather than the canonical constructor.
 *
 * @param replicas the effective {@code spec.replicas}, R (replicas, not negative)
 * @param maxWeight {@code trafficRouting.maxTrafficWeight}, W (default 100; greater than 0)
 * @param canaryScaleReplicas {@code setCanaryScale.replicas} when such a step applies (replicas),
 *     else null
 * @param weight the desired canary weight as Argo Rollouts' {@code GetCanaryReplicasOrWeight}
 *     returns it: {@code setCanaryScale.weight} when such a step applies, else the desired traffic
 *     weight; 0 when {@code canaryScaleReplicas} is set (0 to W)
 * @param minPodsPerReplicaSet {@code spec.strategy.canary.minPodsPerReplicaSet} (replicas), or null
 * @param dynamicStableScale {@code spec.strategy.canary.dynamicStableScale}
 * @param aborted {@code status.abort}
 * @param recordedWeights {@code status.canary.weights} as recorded by the <em>previous</em> pass,
 *     or null
 */
public record TrafficRoutedInput(
    int replicas,
    int maxWeight,
    Integer canaryScaleReplicas,
    int weight,
    Integer minPodsPerReplicaSet,
    boolean dynamicStableScale,
    boolean aborted,
    RecordedWeights recordedWeights) {

  /**
   * The canary and stable weights recorded in {@code status.canary.weights}.
   *
   * @param canaryWeight {@code status.canary.weights.canary.weight} (0 to W)
   * @param stableWeight {@code status.canary.weights.stable.weight} (0 to W)
   */
  public record RecordedWeights(int canaryWeight, int stableWeight) {}

  /**
   * Checks the ranges.
   *
   * @throws IllegalArgumentException when a number is out of range, or when a weight is given
   *     together with {@code canaryScaleReplicas}
   */
  public TrafficRoutedInput {
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must not be negative: " + replicas);
    }
    if (maxWeight <= 0 || weight < 0 || weight > maxWeight) {
      throw new IllegalArgumentException(
          "weight must be within 0.." + maxWeight + " (maxWeight > 0): " + weight);
    }
    if (canaryScaleReplicas != null && (canaryScaleReplicas < 0 || weight != 0)) {
      throw new IllegalArgumentException(
          "setCanaryScale replicas must not be negative and come with weight 0: replicas="
              + canaryScaleReplicas
              + ", weight="
              + weight);
    }
    if (minPodsPerReplicaSet != null && minPodsPerReplicaSet < 0) {
      throw new IllegalArgumentException(
          "minPodsPerReplicaSet must not be negative: " + minPodsPerReplicaSet);
    }
  }

  /**
   * Returns the input for a weight (a {@code setWeight}, or a {@code setCanaryScale.weight}),
   * without minPodsPerReplicaSet or dynamic stable scaling.
   *
   * @param replicas {@code spec.replicas} (replicas)
   * @param maxWeight the total weight W (greater than 0)
   * @param weight the canary weight (0 to W)
   * @return the input
   */
  public static TrafficRoutedInput forWeight(int replicas, int maxWeight, int weight) {
    return new TrafficRoutedInput(replicas, maxWeight, null, weight, null, false, false, null);
  }

  /**
   * Returns the input for an applicable {@code setCanaryScale.replicas}, without
   * minPodsPerReplicaSet or dynamic stable scaling.
   *
   * @param replicas {@code spec.replicas} (replicas)
   * @param maxWeight the total weight W (greater than 0)
   * @param canaryReplicas {@code setCanaryScale.replicas} (replicas)
   * @return the input
   */
  public static TrafficRoutedInput forCanaryScaleReplicas(
      int replicas, int maxWeight, int canaryReplicas) {
    return new TrafficRoutedInput(replicas, maxWeight, canaryReplicas, 0, null, false, false, null);
  }

  /**
   * Returns a copy with {@code minPodsPerReplicaSet}.
   *
   * @param minPods {@code spec.strategy.canary.minPodsPerReplicaSet} (replicas), or null
   * @return the copy
   */
  public TrafficRoutedInput withMinPodsPerReplicaSet(Integer minPods) {
    return new TrafficRoutedInput(
        replicas,
        maxWeight,
        canaryScaleReplicas,
        weight,
        minPods,
        dynamicStableScale,
        aborted,
        recordedWeights);
  }

  /**
   * Returns a copy using {@code dynamicStableScale}.
   *
   * @param previousWeights {@code status.canary.weights} from the previous pass, or null
   * @param isAborted {@code status.abort}
   * @return the copy
   */
  public TrafficRoutedInput withDynamicStableScale(
      RecordedWeights previousWeights, boolean isAborted) {
    return new TrafficRoutedInput(
        replicas,
        maxWeight,
        canaryScaleReplicas,
        weight,
        minPodsPerReplicaSet,
        true,
        isAborted,
        previousWeights);
  }
}
