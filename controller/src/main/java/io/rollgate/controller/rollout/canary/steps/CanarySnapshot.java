package io.rollgate.controller.rollout.canary.steps;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.SetCanaryScale;
import io.rollgate.controller.rollout.model.ReplicaProgressThreshold;
import io.rollgate.controller.rollout.model.RsState;
import io.rollgate.controller.rollout.model.TrafficRoutedInput;
import io.rollgate.defaults.GoDurations;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the canary step decision reads from a Rollout, its status and its ReplicaSets at one moment
 * of a reconcile pass. Immutable; the lists are copied.
 *
 * @param replicas the effective {@code spec.replicas} (replicas, not negative)
 * @param steps {@code spec.strategy.canary.steps}, in order (empty without steps)
 * @param currentStepIndex {@code status.currentStepIndex}, or null when not set
 * @param podHash the pod-template hash of the new ReplicaSet (the current template)
 * @param stableHash {@code status.stableRS}, or null/empty before the first deploy completed
 * @param promoteFull {@code status.promoteFull}
 * @param aborted whether the rollout is aborted or being aborted ({@code status.abort}, or an abort
 *     decided earlier in the same pass and not yet written)
 * @param controllerPause {@code status.controllerPause}
 * @param pauseStepStart the {@code startTime} of the {@code CanaryPauseStep} entry of {@code
 *     status.pauseConditions}, or null when there is none
 * @param now the time of the pass, truncated to seconds
 * @param maxSurge {@code spec.strategy.canary.maxSurge} as given, or null (default 25%)
 * @param maxUnavailable {@code spec.strategy.canary.maxUnavailable} as given, or null (default 25%)
 * @param threshold {@code spec.strategy.canary.replicaProgressThreshold}, or null
 * @param newRS the ReplicaSet of the current template, or null when it does not exist
 * @param stableRS the ReplicaSet named by {@code status.stableRS}, or null; may be the same
 *     ReplicaSet as {@code newRS}
 * @param otherRSs every other ReplicaSet the Rollout owns, in creation order
 * @param traffic the traffic-routing facts, or null without {@code
 *     spec.strategy.canary.trafficRouting}
 * @param currentStepSucceeded for an analysis, experiment or plugin step at the current index:
 *     whether its run, experiment or plugin call reported success this pass (false for any other
 *     step)
 */
public record CanarySnapshot(
    int replicas,
    List<Step> steps,
    Integer currentStepIndex,
    String podHash,
    String stableHash,
    boolean promoteFull,
    boolean aborted,
    boolean controllerPause,
    Instant pauseStepStart,
    Instant now,
    IntOrString maxSurge,
    IntOrString maxUnavailable,
    ReplicaProgressThreshold threshold,
    RsState newRS,
    RsState stableRS,
    List<RsState> otherRSs,
    Traffic traffic,
    boolean currentStepSucceeded) {

  /**
   * Copies the lists and checks what must be present.
   *
   * @throws NullPointerException when {@code steps}, {@code otherRSs} or {@code now} is null
   * @throws IllegalArgumentException when {@code replicas} is negative
   */
  public CanarySnapshot {
    steps = List.copyOf(steps);
    otherRSs = List.copyOf(otherRSs);
    Objects.requireNonNull(now, "now");
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must not be negative: " + replicas);
    }
  }

  /**
   * Tells whether the new ReplicaSet is the stable one, or there is no stable one yet (first
   * deploy).
   *
   * @return true when no canary split applies
   */
  public boolean fullyPromoted() {
    return stableHash == null || stableHash.isEmpty() || stableHash.equals(podHash);
  }

  /**
   * Returns the index of the current step as Argo reads it: {@code status.currentStepIndex}, 0 when
   * not set.
   *
   * @return the index (0 to the number of steps; equal to it once the steps are done)
   */
  public int stepIndex() {
    return currentStepIndex == null ? 0 : currentStepIndex;
  }

  /**
   * Returns the current step.
   *
   * @return the step at {@link #stepIndex()}, or null past the last step or without steps
   */
  public Step currentStep() {
    int i = stepIndex();
    return i < steps.size() ? steps.get(i) : null;
  }

  /**
   * The kind of a canary step, named after the field of {@code spec.strategy.canary.steps[]} that
   * is set.
   */
  public enum Kind {
    /** {@code setWeight}. */
    SET_WEIGHT,
    /** {@code pause}. */
    PAUSE,
    /** {@code setCanaryScale}. */
    SET_CANARY_SCALE,
    /** {@code setHeaderRoute} or {@code setMirrorRoute}. */
    ROUTE,
    /** {@code analysis}. */
    ANALYSIS,
    /** {@code plugin}. */
    PLUGIN,
    /** {@code experiment}. */
    EXPERIMENT,
    /** None of the above (refused by validation). */
    UNKNOWN
  }

  /**
   * One entry of {@code spec.strategy.canary.steps}, reduced to what the decision reads.
   *
   * @param kind which field decides the step's completion (the first set, in {@link Kind}'s order)
   * @param setWeight {@code setWeight} (percent of the maximum weight), or null
   * @param pause whether {@code pause} is set
   * @param pauseDuration {@code pause.duration} as {@link GoDurations#pauseDuration} reads it: null
   *     for an indefinite pause (or no pause), negative for a value that cannot be parsed
   * @param canaryScaleReplicas {@code setCanaryScale.replicas}, or null
   * @param canaryScaleWeight {@code setCanaryScale.weight} (percent), or null
   * @param canaryScaleMatchesTraffic whether {@code setCanaryScale.matchTrafficWeight} is true
   * @param hasCanaryScale whether {@code setCanaryScale} is set
   * @param description the step as the {@code RolloutStepCompleted} event names it (Argo's wording)
   */
  public record Step(
      Kind kind,
      Integer setWeight,
      boolean pause,
      Duration pauseDuration,
      boolean hasCanaryScale,
      Integer canaryScaleReplicas,
      Integer canaryScaleWeight,
      boolean canaryScaleMatchesTraffic,
      String description) {

    /**
     * Reads one step of the Rollout spec.
     *
     * @param step the step, not null
     * @return the reduced step
     */
    public static Step of(CanaryStep step) {
      SetCanaryScale scale = step.getSetCanaryScale();
      return new Step(
          kind(step),
          step.getSetWeight(),
          step.getPause() != null,
          step.getPause() == null
              ? null
              : GoDurations.pauseDuration(step.getPause().getDuration()).orElse(null),
          scale != null,
          scale == null ? null : scale.getReplicas(),
          scale == null ? null : scale.getWeight(),
          scale != null && Boolean.TRUE.equals(scale.getMatchTrafficWeight()),
          describe(step));
    }

    /**
     * Reads every step of the Rollout spec.
     *
     * @param steps {@code spec.strategy.canary.steps}, or null
     * @return the reduced steps, empty for null
     */
    public static List<Step> of(List<CanaryStep> steps) {
      return steps == null ? List.of() : steps.stream().map(Step::of).toList();
    }

    private static Kind kind(CanaryStep step) {
      if (step.getSetWeight() != null) {
        return Kind.SET_WEIGHT;
      }
      if (step.getPause() != null) {
        return Kind.PAUSE;
      }
      if (step.getSetCanaryScale() != null) {
        return Kind.SET_CANARY_SCALE;
      }
      if (step.getSetHeaderRoute() != null || step.getSetMirrorRoute() != null) {
        return Kind.ROUTE;
      }
      if (step.getAnalysis() != null) {
        return Kind.ANALYSIS;
      }
      if (step.getPlugin() != null) {
        return Kind.PLUGIN;
      }
      if (step.getExperiment() != null) {
        return Kind.EXPERIMENT;
      }
      return Kind.UNKNOWN;
    }

    /**
     * Names a step the way Argo's {@code RolloutStepCompleted} event does ({@code setWeight: 20},
     * {@code pause: 30s}, {@code setCanaryScale{replicas: 2}}, ...).
     *
     * @param step the step, not null
     * @return the description
     */
    public static String describe(CanaryStep step) {
      if (step.getSetWeight() != null) {
        return "setWeight: " + step.getSetWeight();
      }
      if (step.getPause() != null) {
        var d = step.getPause().getDuration();
        if (d == null || (d.getIntVal() == null && d.getStrVal() == null)) {
          return "pause";
        }
        return "pause: " + (d.getIntVal() != null ? d.getIntVal() : d.getStrVal());
      }
      if (step.getExperiment() != null) {
        return "experiment";
      }
      if (step.getAnalysis() != null) {
        return "analysis";
      }
      if (step.getSetCanaryScale() != null) {
        var s = step.getSetCanaryScale();
        if (s.getReplicas() != null) {
          return "setCanaryScale{replicas: " + s.getReplicas() + "}";
        }
        if (Boolean.TRUE.equals(s.getMatchTrafficWeight())) {
          return "setCanaryScale{matchTrafficWeight: true}";
        }
        return "setCanaryScale{weight: " + s.getWeight() + "}";
      }
      if (step.getPlugin() != null) {
        return "plugin: " + step.getPlugin().getName();
      }
      if (step.getSetHeaderRoute() != null) {
        return "setHeaderRoute: " + step.getSetHeaderRoute().getName();
      }
      if (step.getSetMirrorRoute() != null) {
        return "setMirrorRoute: " + step.getSetMirrorRoute().getName();
      }
      return "unknown";
    }
  }

  /**
   * The traffic-routing facts of a Rollout with {@code spec.strategy.canary.trafficRouting}.
   *
   * @param maxWeight {@code trafficRouting.maxTrafficWeight}, W (default 100)
   * @param dynamicStableScale {@code spec.strategy.canary.dynamicStableScale}
   * @param minPodsPerReplicaSet {@code spec.strategy.canary.minPodsPerReplicaSet} (replicas), or
   *     null
   * @param abortScaleDownDelaySeconds {@code spec.strategy.canary.abortScaleDownDelaySeconds}
   *     (seconds), or null
   * @param recordedWeights {@code status.canary.weights} as stored by the previous pass, or null
   * @param verified {@code verified} of the weights the traffic step decided this pass: false while
   *     the router has not confirmed them, null when not verified or not decided
   */
  public record Traffic(
      int maxWeight,
      boolean dynamicStableScale,
      Integer minPodsPerReplicaSet,
      Integer abortScaleDownDelaySeconds,
      TrafficRoutedInput.RecordedWeights recordedWeights,
      Boolean verified) {}
}
