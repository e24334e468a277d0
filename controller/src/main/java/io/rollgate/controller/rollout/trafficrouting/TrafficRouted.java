package io.rollgate.controller.rollout.trafficrouting;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.TrafficWeights;
import io.rollgate.controller.rollout.canary.steps.CanarySnapshot;
import io.rollgate.controller.rollout.canary.steps.CanarySnapshots;
import io.rollgate.controller.rollout.canary.steps.CanaryStepDecision;
import io.rollgate.controller.rollout.model.CanarySplit;
import io.rollgate.controller.rollout.model.ReplicaProgressThreshold;
import io.rollgate.controller.rollout.model.TrafficRoutedInput;
import io.rollgate.controller.rollout.model.TrafficRoutedReplicaMath;
import io.rollgate.controller.rollout.pass.RolloutPass;
import java.util.List;

/**
 * Adapts a canary Rollout with {@code spec.strategy.canary.trafficRouting} to the pure
 * traffic-routed replica maths (docs/compatibility.md §5.2 effective-weight helpers, §5.5, §5.9):
 * which weight and which {@code setCanaryScale} apply this pass, the replica targets, and the
 * dynamic-abort weights.
 */
public final class TrafficRouted {

  private TrafficRouted() {}

  /**
   * Whether the Rollout routes traffic ({@code spec.strategy.canary.trafficRouting} set).
   *
   * @param pass the pass
   * @return true for a canary Rollout with traffic routing
   */
  public static boolean enabled(RolloutPass pass) {
    CanaryStrategy c = pass.rollout.getSpec().getStrategy().getCanary();
    return c != null && c.getTrafficRouting() != null;
  }

  /**
   * The Rollout's canary strategy.
   *
   * @param pass the pass
   * @return {@code spec.strategy.canary}, or null for blue-green
   */
  public static CanaryStrategy canary(RolloutPass pass) {
    return pass.rollout.getSpec().getStrategy().getCanary();
  }

  /** W: {@code trafficRouting.maxTrafficWeight}, default 100. */
  static int maxWeight(RolloutPass pass) {
    return CanarySnapshots.maxWeight(canary(pass));
  }

  static boolean dynamic(RolloutPass pass) {
    return Boolean.TRUE.equals(canary(pass).getDynamicStableScale());
  }

  /** Whether the new ReplicaSet is already the stable one (or there is no stable one yet). */
  static boolean fullyPromoted(RolloutPass pass) {
    String stable = pass.old.getStableRS();
    return stable == null || stable.isEmpty() || stable.equals(pass.podHash);
  }

  /**
   * Argo's {@code GetCurrentSetWeight} with W, see {@link CanaryStepDecision#currentSetWeight}.
   *
   * @return the weight (0 to W)
   */
  static int currentSetWeight(RolloutPass pass) {
    return CanaryStepDecision.currentSetWeight(CanarySnapshots.of(pass), maxWeight(pass));
  }

  /** The last {@code setWeight} strictly before step {@code index}, 0 when none. */
  static int weightBefore(List<CanaryStep> steps, int index) {
    return CanaryStepDecision.weightBefore(CanarySnapshot.Step.of(steps), index);
  }

  /** Argo's {@code UseSetCanaryScale}, see {@link CanaryStepDecision#setCanaryScale}. */
  static CanarySnapshot.Step setCanaryScale(RolloutPass pass) {
    return CanaryStepDecision.setCanaryScale(CanarySnapshots.of(pass));
  }

  /**
   * The inputs of {@link TrafficRoutedReplicaMath} for this pass (Argo's {@code
   * GetCanaryReplicasOrWeight}).
   */
  static TrafficRoutedInput input(RolloutPass pass) {
    return CanaryStepDecision.trafficInput(CanarySnapshots.of(pass));
  }

  static int nz(Integer v) {
    return v == null ? 0 : v;
  }

  /** The replica targets of the new and stable ReplicaSets (docs/compatibility.md §5.5). */
  static CanarySplit targets(RolloutPass pass) {
    return TrafficRoutedReplicaMath.targets(input(pass));
  }

  /** Argo's {@code AtDesiredReplicaCountsForCanary}, traffic-routed branch. */
  static boolean atDesiredReplicaCounts(RolloutPass pass) {
    CanarySnapshot s = CanarySnapshots.of(pass);
    return TrafficRoutedReplicaMath.atDesiredReplicaCounts(
        CanaryStepDecision.trafficInput(s), s.newRS(), s.stableRS(), s.threshold());
  }

  /**
   * Argo's {@code GetDesiredCanaryWeight} while aborted, see {@link
   * CanaryStepDecision#dynamicAbortCanaryWeight}.
   */
  static int dynamicAbortCanaryWeight(RolloutPass pass) {
    return CanaryStepDecision.dynamicAbortCanaryWeight(CanarySnapshots.of(pass));
  }

  /**
   * Argo's {@code calculateDesiredWeightOnAbortOrStableRollback} (docs/compatibility.md §5.9): the
   * router weight while a dynamic abort drains, never above what the stable ReplicaSet can already
   * serve and never moving up.
   */
  static int dynamicAbortRouterWeight(RolloutPass pass) {
    int r = pass.replicas;
    int w = maxWeight(pass);
    int desired = dynamicAbortCanaryWeight(pass);
    int stableServes = r == 0 ? w : w * RolloutPass.available(pass.stableRS) / r;
    int expected = Math.max(0, w - stableServes);
    TrafficWeights old = pass.old.getCanary() == null ? null : pass.old.getCanary().getWeights();
    if (old == null || old.getCanary() == null) {
      return Math.max(expected, desired);
    }
    int current = nz(old.getCanary().getWeight());
    if (desired <= 0) {
      return Math.min(expected, current);
    }
    if (stableServes < w - desired) {
      return current;
    }
    return Math.min(desired, current);
  }

  /** Whether {@code rs} is available for all of its {@code spec.replicas} (at least one). */
  static boolean fullyAvailable(ReplicaSet rs) {
    return rs != null
        && RolloutPass.spec(rs) > 0
        && RolloutPass.available(rs) >= RolloutPass.spec(rs);
  }

  static ReplicaProgressThreshold threshold(RolloutPass pass) {
    return CanarySnapshots.threshold(canary(pass));
  }
}
