package io.rollgate.controller.rollout.canary.steps;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.PauseCondition;
import io.rollgate.api.PauseReason;
import io.rollgate.api.TrafficWeights;
import io.rollgate.controller.rollout.model.ReplicaProgressThreshold;
import io.rollgate.controller.rollout.model.RsState;
import io.rollgate.controller.rollout.model.TrafficRoutedInput;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.controller.rollout.runs.RolloutAnalysisRuns;
import io.rollgate.controller.rollout.runs.RolloutExperiments;
import io.rollgate.controller.rollout.status.PauseConditions;
import io.rollgate.defaults.RolloutDefaults;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Takes the {@link CanarySnapshot} of a pass at the moment the canary step decision is needed: the
 * Rollout, the status as read, the intents collected so far (an abort decided this pass, the
 * traffic weights just set, the analysis, experiment and plugin results of the current step) and
 * the ReplicaSets.
 */
public final class CanarySnapshots {

  private CanarySnapshots() {}

  /**
   * Takes the snapshot of a canary pass.
   *
   * @param pass the pass, with its ReplicaSets read
   * @return the snapshot the step decision reads
   */
  public static CanarySnapshot of(RolloutPass pass) {
    CanaryStrategy canary = pass.rollout.getSpec().getStrategy().getCanary();
    List<CanaryStep> steps = pass.steps();
    List<CanarySnapshot.Step> reduced = CanarySnapshot.Step.of(steps);
    Integer index = pass.old.getCurrentStepIndex();
    int i = index == null ? 0 : index;
    CanarySnapshot.Step current = i < reduced.size() ? reduced.get(i) : null;
    Instant pauseStart = null;
    if (current != null && current.pause()) {
      // Read only for a pause step, as the pause bookkeeping does.
      PauseCondition cond = PauseConditions.find(pass.old, PauseReason.CANARY_PAUSE_STEP);
      pauseStart = cond == null ? null : Instant.parse(cond.getStartTime());
    }
    RsState newRS = pass.newRS == null ? null : state(pass.newRS);
    RsState stableRS =
        pass.stableRS == null ? null : (pass.stableRS == pass.newRS ? newRS : state(pass.stableRS));
    List<RsState> others = new ArrayList<>();
    for (ReplicaSet rs : pass.otherRSs) {
      others.add(state(rs));
    }
    return new CanarySnapshot(
        pass.replicas,
        reduced,
        index,
        pass.podHash,
        pass.old.getStableRS(),
        Boolean.TRUE.equals(pass.old.getPromoteFull()),
        pass.aborted(),
        Boolean.TRUE.equals(pass.old.getControllerPause()),
        pauseStart,
        pass.now,
        canary.getMaxSurge(),
        canary.getMaxUnavailable(),
        threshold(canary),
        newRS,
        stableRS,
        others,
        traffic(pass, canary),
        current != null && stepSucceeded(pass, i, current.kind(), steps.get(i)));
  }

  private static CanarySnapshot.Traffic traffic(RolloutPass pass, CanaryStrategy canary) {
    if (canary.getTrafficRouting() == null) {
      return null;
    }
    TrafficWeights recorded =
        pass.old.getCanary() == null ? null : pass.old.getCanary().getWeights();
    return new CanarySnapshot.Traffic(
        maxWeight(canary),
        Boolean.TRUE.equals(canary.getDynamicStableScale()),
        canary.getMinPodsPerReplicaSet(),
        canary.getAbortScaleDownDelaySeconds(),
        recorded(recorded),
        pass.trafficWeights == null ? null : pass.trafficWeights.getVerified());
  }

  /**
   * The analysis, experiment or plugin result of the current step, as the stages before status sync
   * left it.
   */
  private static boolean stepSucceeded(
      RolloutPass pass, int index, CanarySnapshot.Kind kind, CanaryStep step) {
    switch (kind) {
      case ANALYSIS:
        return RolloutAnalysisRuns.stepSucceeded(pass);
      case PLUGIN:
        return CanaryStepPlugins.completed(pass, index, step.getPlugin());
      case EXPERIMENT:
        return RolloutExperiments.stepSucceeded(pass);
      default:
        return false;
    }
  }

  static TrafficRoutedInput.RecordedWeights recorded(TrafficWeights weights) {
    if (weights == null || weights.getCanary() == null || weights.getStable() == null) {
      return null;
    }
    return new TrafficRoutedInput.RecordedWeights(
        nz(weights.getCanary().getWeight()), nz(weights.getStable().getWeight()));
  }

  /**
   * The replica counts of one ReplicaSet.
   *
   * @param rs the ReplicaSet
   * @return its name, desired, available and current replicas and revision
   */
  public static RsState state(ReplicaSet rs) {
    return new RsState(
        rs.getMetadata().getName(),
        RolloutPass.spec(rs),
        RolloutPass.available(rs),
        RolloutPass.current(rs),
        RolloutPass.revisionOf(rs));
  }

  /**
   * {@code spec.strategy.canary.replicaProgressThreshold}.
   *
   * @param canary the canary strategy
   * @return the threshold, or null when not set
   */
  public static ReplicaProgressThreshold threshold(CanaryStrategy canary) {
    var t = canary.getReplicaProgressThreshold();
    if (t == null || t.getType() == null || t.getValue() == null) {
      return null;
    }
    ReplicaProgressThreshold.Type type =
        "Pods".equals(t.getType())
            ? ReplicaProgressThreshold.Type.PODS
            : ReplicaProgressThreshold.Type.PERCENT;
    return new ReplicaProgressThreshold(type, t.getValue());
  }

  /**
   * W: {@code spec.strategy.canary.trafficRouting.maxTrafficWeight}, default 100.
   *
   * @param canary the canary strategy, with {@code trafficRouting} set
   * @return the weight that means all traffic
   */
  public static int maxWeight(CanaryStrategy canary) {
    Integer w = canary.getTrafficRouting().getMaxTrafficWeight();
    return w == null ? RolloutDefaults.MAX_TRAFFIC_WEIGHT : w;
  }

  private static int nz(Integer v) {
    return v == null ? 0 : v;
  }
}
