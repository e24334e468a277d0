package io.rollgate.controller.rollout;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.SetCanaryScale;
import io.rollgate.api.TrafficWeights;
import io.rollgate.controller.rollout.model.CanarySplit;
import io.rollgate.controller.rollout.model.ReplicaProgressThreshold;
import io.rollgate.controller.rollout.model.RsState;
import io.rollgate.controller.rollout.model.TrafficRoutedInput;
import io.rollgate.controller.rollout.model.TrafficRoutedReplicaMath;
import io.rollgate.defaults.RolloutDefaults;
import java.util.List;

/**
 * Adapts a canary Rollout with {@code spec.strategy.canary.trafficRouting} to the pure traffic-routed replica maths
 * (docs/compatibility.md §5.2 effective-weight helpers, §5.5, §5.9): which weight and which {@code setCanaryScale}
 * apply this pass, the replica targets, and the dynamic-abort weights.
 */
final class TrafficRouted {

  private TrafficRouted() {}

  static boolean enabled(RolloutPass pass) {
    CanaryStrategy c = pass.rollout.getSpec().getStrategy().getCanary();
    return c != null && c.getTrafficRouting() != null;
  }

  static CanaryStrategy canary(RolloutPass pass) {
    return pass.rollout.getSpec().getStrategy().getCanary();
  }

  /** W: {@code trafficRouting.maxTrafficWeight}, default 100. */
  static int maxWeight(RolloutPass pass) {
    Integer w = canary(pass).getTrafficRouting().getMaxTrafficWeight();
    return w == null ? RolloutDefaults.MAX_TRAFFIC_WEIGHT : w;
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
   * Argo's {@code GetCurrentSetWeight} with W: 0 when aborted; W when past the last step or without steps; else the
   * nearest {@code setWeight} at or before the current step (0 when none).
   */
  static int currentSetWeight(RolloutPass pass) {
    if (pass.aborted()) {
      return 0;
    }
    List<CanaryStep> steps = pass.steps();
    Integer index = pass.old.getCurrentStepIndex();
    int i = index == null ? 0 : index;
    if (steps.isEmpty() || i >= steps.size()) {
      return maxWeight(pass);
    }
    return weightBefore(steps, i + 1);
  }

  /** The last {@code setWeight} strictly before step {@code index}, 0 when none. */
  static int weightBefore(List<CanaryStep> steps, int index) {
    for (int i = Math.min(index, steps.size()) - 1; i >= 0; i--) {
      if (steps.get(i).getSetWeight() != null) {
        return steps.get(i).getSetWeight();
      }
    }
    return 0;
  }

  /**
   * Argo's {@code UseSetCanaryScale}: walking back from the current step, the first {@code setCanaryScale} applies
   * unless it says {@code matchTrafficWeight: true}. Ignored when aborted unless {@code abortScaleDownDelaySeconds}
   * is 0, and once the steps are done.
   */
  static SetCanaryScale setCanaryScale(RolloutPass pass) {
    if (pass.aborted() && !Integer.valueOf(0).equals(canary(pass).getAbortScaleDownDelaySeconds())) {
      return null;
    }
    List<CanaryStep> steps = pass.steps();
    Integer index = pass.old.getCurrentStepIndex();
    int i = index == null ? 0 : index;
    if (i >= steps.size()) {
      return null;
    }
    for (int k = i; k >= 0; k--) {
      SetCanaryScale s = steps.get(k).getSetCanaryScale();
      if (s != null) {
        return Boolean.TRUE.equals(s.getMatchTrafficWeight()) ? null : s;
      }
    }
    return null;
  }

  /** The inputs of {@link TrafficRoutedReplicaMath} for this pass (Argo's {@code GetCanaryReplicasOrWeight}). */
  static TrafficRoutedInput input(RolloutPass pass) {
    int w = maxWeight(pass);
    TrafficRoutedInput in;
    SetCanaryScale scs = fullyPromoted(pass) || Boolean.TRUE.equals(pass.old.getPromoteFull()) ? null : setCanaryScale(pass);
    if (fullyPromoted(pass) || Boolean.TRUE.equals(pass.old.getPromoteFull())) {
      in = TrafficRoutedInput.forWeight(pass.replicas, w, w);
    } else if (scs != null && scs.getReplicas() != null) {
      in = TrafficRoutedInput.forCanaryScaleReplicas(pass.replicas, w, scs.getReplicas());
    } else if (scs != null && scs.getWeight() != null) {
      in = TrafficRoutedInput.forWeight(pass.replicas, w, clamp(scs.getWeight(), w));
    } else if (pass.aborted() && dynamic(pass)) {
      in = TrafficRoutedInput.forWeight(pass.replicas, w, dynamicAbortCanaryWeight(pass));
    } else {
      in = TrafficRoutedInput.forWeight(pass.replicas, w, currentSetWeight(pass));
    }
    in = in.withMinPodsPerReplicaSet(canary(pass).getMinPodsPerReplicaSet());
    if (dynamic(pass)) {
      in = in.withDynamicStableScale(recorded(pass.old.getCanary() == null ? null : pass.old.getCanary().getWeights()), pass.aborted());
    }
    return in;
  }

  private static int clamp(int v, int max) {
    return Math.max(0, Math.min(v, max));
  }

  static TrafficRoutedInput.RecordedWeights recorded(TrafficWeights weights) {
    if (weights == null || weights.getCanary() == null || weights.getStable() == null) {
      return null;
    }
    return new TrafficRoutedInput.RecordedWeights(
        nz(weights.getCanary().getWeight()), nz(weights.getStable().getWeight()));
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
    RsState newRS = pass.newRS == null ? null : CanaryMath.state(pass.newRS);
    RsState stableRS = pass.stableRS == null ? null : CanaryMath.state(pass.stableRS);
    return TrafficRoutedReplicaMath.atDesiredReplicaCounts(
        input(pass), newRS, stableRS, CanaryMath.threshold(canary(pass)));
  }

  /**
   * Argo's {@code GetDesiredCanaryWeight} while aborted with dynamicStableScale (docs/compatibility.md §5.9): the
   * canary keeps the highest {@code setWeight} whose replica count is below what it still has to serve, walking down
   * the steps as the stable ReplicaSet takes pods back; 0 at the bottom.
   */
  static int dynamicAbortCanaryWeight(RolloutPass pass) {
    int r = pass.replicas;
    int w = maxWeight(pass);
    int expected = r - RolloutPass.available(pass.stableRS);
    Integer delay = canary(pass).getAbortScaleDownDelaySeconds();
    int canaryReplicas = delay != null && delay > 0 ? expected : Math.max(expected, RolloutPass.available(pass.newRS));
    List<CanaryStep> steps = pass.steps();
    for (int i = steps.size() - 1; i >= 0; i--) {
      Integer sw = steps.get(i).getSetWeight();
      if (sw != null && TrafficRoutedReplicaMath.toReplicas(sw, r, w) < canaryReplicas) {
        return clamp(sw, w);
      }
    }
    return 0;
  }

  /**
   * Argo's {@code calculateDesiredWeightOnAbortOrStableRollback} (docs/compatibility.md §5.9): the router weight while
   * a dynamic abort drains, never above what the stable ReplicaSet can already serve and never moving up.
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
    return rs != null && RolloutPass.spec(rs) > 0 && RolloutPass.available(rs) >= RolloutPass.spec(rs);
  }

  static ReplicaProgressThreshold threshold(RolloutPass pass) {
    return CanaryMath.threshold(canary(pass));
  }
}
