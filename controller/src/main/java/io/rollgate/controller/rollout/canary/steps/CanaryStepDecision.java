package io.rollgate.controller.rollout.canary.steps;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.rollgate.controller.rollout.canary.steps.CanarySnapshot.Step;
import io.rollgate.controller.rollout.canary.steps.CanarySnapshot.Traffic;
import io.rollgate.controller.rollout.model.BasicCanaryInput;
import io.rollgate.controller.rollout.model.BasicCanaryReplicas;
import io.rollgate.controller.rollout.model.CanaryReplicaPlan;
import io.rollgate.controller.rollout.model.CanarySplit;
import io.rollgate.controller.rollout.model.Fenceposts;
import io.rollgate.controller.rollout.model.RsState;
import io.rollgate.controller.rollout.model.TrafficRoutedInput;
import io.rollgate.controller.rollout.model.TrafficRoutedReplicaMath;
import io.rollgate.defaults.RolloutDefaults;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The canary step decision (docs/compatibility.md §5.2, §5.5, §5.9): from a {@link CanarySnapshot}
 * to a {@link CanaryStepPlan}. A pure function: no I/O, no clock, the same snapshot gives the same
 * plan.
 */
public final class CanaryStepDecision {

  private CanaryStepDecision() {}

  /**
   * Decides the current step, its completion, the next step index, the canary weight, the replica
   * counts, the pause and the events of one pass.
   *
   * @param s the snapshot, not null
   * @return the plan
   * @throws IllegalArgumentException when the snapshot holds values validation refuses ({@code
   *     maxSurge}, a weight out of range); {@code io.rollgate.validation.RolloutValidator} keeps
   *     such a Rollout from reaching here
   */
  public static CanaryStepPlan decide(CanarySnapshot s) {
    Step step = s.currentStep();
    int weight;
    CanaryStepPlan.Replicas replicas;
    boolean atDesired;
    if (s.traffic() == null) {
      BasicCanaryInput in = basicInput(s);
      CanaryReplicaPlan p = BasicCanaryReplicas.plan(in);
      weight = in.weight();
      replicas = new CanaryStepPlan.Replicas(p.newRS(), p.stableRS(), p.otherRS());
      atDesired = BasicCanaryReplicas.atDesiredReplicaCounts(in, s.threshold());
    } else {
      TrafficRoutedInput in = trafficInput(s);
      CanarySplit split = TrafficRoutedReplicaMath.targets(in);
      weight = in.weight();
      replicas = new CanaryStepPlan.Replicas(split.newRS(), split.stableRS(), Map.of());
      atDesired =
          TrafficRoutedReplicaMath.atDesiredReplicaCounts(
              in, s.newRS(), s.stableRS(), s.threshold());
    }
    boolean completed = step != null && stepCompleted(s, step, atDesired);
    int size = s.steps().size();
    Integer next;
    List<CanaryStepPlan.Event> events = List.of();
    if (size == 0) {
      next = null;
    } else if (s.aborted()) {
      next = Objects.equals(s.podHash(), s.stableHash()) ? size : 0;
    } else if (completed) {
      next = s.stepIndex() + 1;
      events =
          List.of(
              new CanaryStepPlan.Event(
                  "RolloutStepCompleted",
                  "Rollout step " + next + "/" + size + " completed (" + step.description() + ")"));
    } else {
      next = s.currentStepIndex();
    }
    return new CanaryStepPlan(
        s.stepIndex(), step, weight, replicas, atDesired, completed, next, pause(s, step), events);
  }

  /**
   * Argo's {@code GetCurrentSetWeight}: 0 while aborted; the maximum weight past the last step or
   * without steps; otherwise the last {@code setWeight} at or before the current step (0 when
   * none).
   *
   * @param s the snapshot
   * @param maxWeight the maximum weight W (100 without traffic routing)
   * @return the weight (0 to W)
   */
  public static int currentSetWeight(CanarySnapshot s, int maxWeight) {
    if (s.aborted()) {
      return 0;
    }
    List<Step> steps = s.steps();
    int i = s.stepIndex();
    if (steps.isEmpty() || i >= steps.size()) {
      return maxWeight;
    }
    return weightBefore(steps, i + 1);
  }

  /**
   * The last {@code setWeight} strictly before step {@code index}.
   *
   * @param steps the steps
   * @param index a step index (may be past the end)
   * @return the weight, 0 when none
   */
  public static int weightBefore(List<Step> steps, int index) {
    for (int i = Math.min(index, steps.size()) - 1; i >= 0; i--) {
      if (steps.get(i).setWeight() != null) {
        return steps.get(i).setWeight();
      }
    }
    return 0;
  }

  /**
   * Argo's {@code UseSetCanaryScale} (traffic routing only): walking back from the current step,
   * the first {@code setCanaryScale} applies unless it says {@code matchTrafficWeight: true}.
   * Ignored while aborted unless {@code abortScaleDownDelaySeconds} is 0, and once the steps are
   * done.
   *
   * @param s a snapshot with traffic routing
   * @return the step whose {@code setCanaryScale} applies, or null
   */
  public static Step setCanaryScale(CanarySnapshot s) {
    if (s.aborted() && !Integer.valueOf(0).equals(s.traffic().abortScaleDownDelaySeconds())) {
      return null;
    }
    List<Step> steps = s.steps();
    int i = s.stepIndex();
    if (i >= steps.size()) {
      return null;
    }
    for (int k = i; k >= 0; k--) {
      Step step = steps.get(k);
      if (step.hasCanaryScale()) {
        return step.canaryScaleMatchesTraffic() ? null : step;
      }
    }
    return null;
  }

  /**
   * The inputs of {@link TrafficRoutedReplicaMath} (Argo's {@code GetCanaryReplicasOrWeight} with
   * traffic routing).
   *
   * @param s a snapshot with traffic routing
   * @return the input
   */
  public static TrafficRoutedInput trafficInput(CanarySnapshot s) {
    Traffic t = s.traffic();
    int w = t.maxWeight();
    int r = s.replicas();
    boolean promoted = s.fullyPromoted() || s.promoteFull();
    Step scs = promoted ? null : setCanaryScale(s);
    TrafficRoutedInput in;
    if (promoted) {
      in = TrafficRoutedInput.forWeight(r, w, w);
    } else if (scs != null && scs.canaryScaleReplicas() != null) {
      in = TrafficRoutedInput.forCanaryScaleReplicas(r, w, scs.canaryScaleReplicas());
    } else if (scs != null && scs.canaryScaleWeight() != null) {
      in = TrafficRoutedInput.forWeight(r, w, clamp(scs.canaryScaleWeight(), w));
    } else if (s.aborted() && t.dynamicStableScale()) {
      in = TrafficRoutedInput.forWeight(r, w, dynamicAbortCanaryWeight(s));
    } else {
      in = TrafficRoutedInput.forWeight(r, w, currentSetWeight(s, w));
    }
    in = in.withMinPodsPerReplicaSet(t.minPodsPerReplicaSet());
    if (t.dynamicStableScale()) {
      in = in.withDynamicStableScale(t.recordedWeights(), s.aborted());
    }
    return in;
  }

  /**
   * Argo's {@code GetDesiredCanaryWeight} while aborted with {@code dynamicStableScale}
   * (docs/compatibility.md §5.9): the canary keeps the highest {@code setWeight} whose replica
   * count is below what it still has to serve, walking down the steps as the stable ReplicaSet
   * takes pods back; 0 at the bottom.
   *
   * @param s a snapshot with traffic routing
   * @return the weight (0 to W)
   */
  public static int dynamicAbortCanaryWeight(CanarySnapshot s) {
    int r = s.replicas();
    int w = s.traffic().maxWeight();
    int expected = r - available(s.stableRS());
    Integer delay = s.traffic().abortScaleDownDelaySeconds();
    int canaryReplicas =
        delay != null && delay > 0 ? expected : Math.max(expected, available(s.newRS()));
    List<Step> steps = s.steps();
    for (int i = steps.size() - 1; i >= 0; i--) {
      Integer sw = steps.get(i).setWeight();
      if (sw != null && TrafficRoutedReplicaMath.toReplicas(sw, r, w) < canaryReplicas) {
        return clamp(sw, w);
      }
    }
    return 0;
  }

  private static BasicCanaryInput basicInput(CanarySnapshot s) {
    int max = RolloutDefaults.MAX_TRAFFIC_WEIGHT;
    int weight = s.promoteFull() || s.fullyPromoted() ? max : currentSetWeight(s, max);
    Fenceposts f = Fenceposts.resolve(raw(s.maxSurge()), raw(s.maxUnavailable()), s.replicas());
    return new BasicCanaryInput(
        s.replicas(), weight, max, f, s.newRS(), s.stableRS(), s.otherRSs());
  }

  private static boolean stepCompleted(CanarySnapshot s, Step step, boolean atDesired) {
    switch (step.kind()) {
      case SET_WEIGHT:
        return atDesired && !(s.traffic() != null && Boolean.FALSE.equals(s.traffic().verified()));
      case PAUSE:
        if (s.controllerPause() && s.pauseStepStart() == null) {
          return true; // resumed by the user (promote removes the pause condition)
        }
        return s.pauseStepStart() != null
            && step.pauseDuration() != null
            && !s.pauseStepStart().plus(step.pauseDuration()).isAfter(s.now());
      case SET_CANARY_SCALE:
        return atDesired;
      case ROUTE:
        return true;
      case ANALYSIS:
      case PLUGIN:
      case EXPERIMENT:
        return s.currentStepSucceeded();
      default:
        return false;
    }
  }

  private static CanaryStepPlan.Pause pause(CanarySnapshot s, Step step) {
    if (s.aborted() || s.promoteFull() || step == null || !step.pause()) {
      return CanaryStepPlan.Pause.NONE;
    }
    Instant start = s.pauseStepStart();
    boolean enter = start == null && !s.controllerPause();
    Duration requeue = null;
    Duration d = step.pauseDuration();
    if (d != null && !d.isNegative()) {
      Duration left = Duration.between(s.now(), (start == null ? s.now() : start).plus(d));
      requeue = left.isNegative() ? Duration.ZERO : left.plusMillis(500);
    }
    return new CanaryStepPlan.Pause(true, enter, requeue);
  }

  private static int available(RsState rs) {
    return rs == null ? 0 : rs.availableReplicas();
  }

  private static int clamp(int v, int max) {
    return Math.max(0, Math.min(v, max));
  }

  private static Object raw(IntOrString v) {
    if (v == null) {
      return null;
    }
    return v.getIntVal() != null ? v.getIntVal() : v.getStrVal();
  }
}
