package io.rollgate.controller.rollout;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.controller.rollout.model.BasicCanaryInput;
import io.rollgate.controller.rollout.model.BasicCanaryReplicas;
import io.rollgate.controller.rollout.model.CanaryReplicaPlan;
import io.rollgate.controller.rollout.model.Fenceposts;
import io.rollgate.controller.rollout.model.ReplicaProgressThreshold;
import io.rollgate.controller.rollout.model.RsState;
import io.rollgate.defaults.RolloutDefaults;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Adapts the Rollout and its ReplicaSets to the pure basic-canary replica math. */
final class CanaryMath {

  /** The spec.replicas to set this pass, for the new, stable and other ReplicaSets (by name). */
  record Plan(int canary, int stable, Map<String, Integer> others) {}

  private CanaryMath() {}

  static Plan plan(RolloutPass pass, int weight, CanaryStrategy canary) {
    CanaryReplicaPlan p = BasicCanaryReplicas.plan(input(pass, weight, canary));
    return new Plan(p.newRS(), p.stableRS(), p.otherRS());
  }

  static boolean atDesiredReplicaCounts(RolloutPass pass, int weight, CanaryStrategy canary) {
    return BasicCanaryReplicas.atDesiredReplicaCounts(input(pass, weight, canary), threshold(canary));
  }

  private static BasicCanaryInput input(RolloutPass pass, int weight, CanaryStrategy canary) {
    Fenceposts f = Fenceposts.resolve(raw(canary.getMaxSurge()), raw(canary.getMaxUnavailable()), pass.replicas);
    RsState newRS = state(pass.newRS);
    RsState stableRS = pass.stableRS == null ? null : (pass.stableRS == pass.newRS ? newRS : state(pass.stableRS));
    List<RsState> others = new ArrayList<>();
    for (ReplicaSet rs : pass.otherRSs) {
      others.add(state(rs));
    }
    return new BasicCanaryInput(
        pass.replicas, weight, RolloutDefaults.MAX_TRAFFIC_WEIGHT, f, newRS, stableRS, others);
  }

  static RsState state(ReplicaSet rs) {
    return new RsState(
        rs.getMetadata().getName(),
        RolloutPass.spec(rs),
        RolloutPass.available(rs),
        RolloutPass.current(rs),
        RolloutPass.revisionOf(rs));
  }

  static ReplicaProgressThreshold threshold(CanaryStrategy canary) {
    var t = canary.getReplicaProgressThreshold();
    if (t == null || t.getType() == null || t.getValue() == null) {
      return null;
    }
    ReplicaProgressThreshold.Type type =
        "Pods".equals(t.getType()) ? ReplicaProgressThreshold.Type.PODS : ReplicaProgressThreshold.Type.PERCENT;
    return new ReplicaProgressThreshold(type, t.getValue());
  }

  private static Object raw(IntOrString v) {
    if (v == null) {
      return null;
    }
    return v.getIntVal() != null ? v.getIntVal() : v.getStrVal();
  }
}
