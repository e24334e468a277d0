package io.rollgate.controller.rollout.canary.steps;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the canary step decision asks for in one pass: the replica counts, the step bookkeeping, the
 * events and the requeue. Immutable; the reconciler applies it.
 *
 * <p>The step part ({@link #nextStepIndex}, {@link #events}) applies when the pass may move the
 * steps on: the ReplicaSets were not scaled this pass, {@code spec.paused} is false, and the new
 * ReplicaSet is not fully promoted this pass (a full promotion sets the index past the last step
 * itself, docs/compatibility.md §5.10).
 *
 * @param stepIndex the current step index as read ({@code status.currentStepIndex}, 0 when not set)
 * @param step the current step, or null past the last step or without steps
 * @param desiredWeight the canary weight this pass aims at (percent of the maximum weight W): W on
 *     the first deploy, on {@code promoteFull} and once the new ReplicaSet is stable; 0 while
 *     aborted; otherwise the last {@code setWeight} at or before the current step; with traffic
 *     routing, the weight the replica maths uses (a {@code setCanaryScale.weight}, or the
 *     dynamic-abort weight, where those apply)
 * @param replicas the {@code spec.replicas} each ReplicaSet should have
 * @param atDesiredReplicaCounts whether the ReplicaSets already have those counts and enough
 *     available pods (Argo's {@code AtDesiredReplicaCountsForCanary})
 * @param stepCompleted whether the current step is complete this pass
 * @param nextStepIndex the {@code status.currentStepIndex} to write: while aborted, 0 (or the
 *     number of steps when the new ReplicaSet is the stable one); after a completed step, the next
 *     index; otherwise the stored value; null without steps
 * @param pause the pause-step decision
 * @param events the events to record once the status is written
 */
public record CanaryStepPlan(
    int stepIndex,
    CanarySnapshot.Step step,
    int desiredWeight,
    Replicas replicas,
    boolean atDesiredReplicaCounts,
    boolean stepCompleted,
    Integer nextStepIndex,
    Pause pause,
    List<Event> events) {

  /**
   * Copies the event list.
   *
   * @throws NullPointerException when {@code replicas}, {@code pause} or {@code events} is null
   */
  public CanaryStepPlan {
    Objects.requireNonNull(replicas, "replicas");
    Objects.requireNonNull(pause, "pause");
    events = List.copyOf(events);
  }

  /**
   * The {@code spec.replicas} to give each ReplicaSet.
   *
   * @param canary the new ReplicaSet (replicas)
   * @param stable the stable ReplicaSet (replicas; equal to {@code canary} when they are the same
   *     ReplicaSet)
   * @param others the other ReplicaSets by name (replicas); empty with traffic routing, where the
   *     older ReplicaSets follow their scale-down deadlines instead
   */
  public record Replicas(int canary, int stable, Map<String, Integer> others) {

    /** Copies {@code others}. */
    public Replicas {
      others = Map.copyOf(others);
    }
  }

  /**
   * The pause-step decision (docs/compatibility.md §5.2).
   *
   * @param holding whether the current step is a pause step the pass holds at (then no plugin step
   *     runs this pass); false while aborted or on {@code promoteFull}
   * @param addPauseCondition whether to add the {@code CanaryPauseStep} pause condition (entering
   *     the pause)
   * @param requeueAfter when to reconcile again for a timed pause (half a second after it ends;
   *     zero once over), or null for none
   */
  public record Pause(boolean holding, boolean addPauseCondition, Duration requeueAfter) {

    /** No pause step holds this pass. */
    public static final Pause NONE = new Pause(false, false, null);
  }

  /**
   * A Kubernetes event for the Rollout.
   *
   * @param reason the event reason, as Argo names it (for example {@code RolloutStepCompleted})
   * @param message the message
   */
  public record Event(String reason, String message) {}
}
