package io.rollgate.controller.rollout.pass;

import io.rollgate.api.ConditionReason;
import io.rollgate.api.ConditionType;
import io.rollgate.api.RolloutCondition;
import io.rollgate.api.RolloutStatus;
import io.rollgate.controller.rollout.status.Conditions;
import io.rollgate.defaults.RolloutDefaults;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets the Progressing, Available, Paused, Completed and Healthy conditions (docs/compatibility.md
 * §3.2, §3.5) for every strategy; each strategy supplies only its own predicates (progress, health,
 * availability, deadline exemption).
 */
public final class RolloutConditions {

  private static final Logger LOG = LoggerFactory.getLogger(RolloutConditions.class);

  /**
   * The strategy-specific facts of one pass.
   *
   * @param progress whether progress was observed since the stored status
   * @param healthy Argo's RolloutHealthy predicate for the strategy
   * @param available whether the Rollout has minimum availability
   * @param evaluateDeadline whether the progress deadline may be evaluated this pass
   * @param deadlineExempt whether the strategy is waiting on purpose (no timeout)
   */
  public record Facts(
      boolean progress,
      boolean healthy,
      boolean available,
      boolean evaluateDeadline,
      boolean deadlineExempt) {}

  private RolloutConditions() {}

  /** {@code spec.paused} or at least one pause condition in the status being written. */
  public static boolean isPaused(RolloutPass pass, RolloutStatus status) {
    return Boolean.TRUE.equals(pass.rollout.getSpec().getPaused())
        || (status.getPauseConditions() != null && !status.getPauseConditions().isEmpty());
  }

  /**
   * Applies the conditions to the status being written.
   *
   * @param pass the pass (stored status, events, requeue, abort intents)
   * @param status the status being written, pause/abort bookkeeping already applied
   * @param facts the strategy's predicates
   */
  public static void apply(RolloutPass pass, RolloutStatus status, Facts facts) {
    String now = pass.nowText;
    String rsName = pass.newRS == null ? null : pass.newRS.getMetadata().getName();
    boolean isPaused = isPaused(pass, status);
    boolean completed = pass.podHash.equals(status.getStableRS());
    boolean aborted = Boolean.TRUE.equals(status.getAbort());
    RolloutCondition progressing = Conditions.get(status, ConditionType.PROGRESSING);
    String progressingReason = progressing == null ? null : progressing.getReason();

    if (aborted) {
      String msg = PauseBookkeeping.abortMessage(pass, progressing);
      Conditions.set(
          status, ConditionType.PROGRESSING, "False", ConditionReason.ROLLOUT_ABORTED, msg, now);
    } else if (ConditionReason.ROLLOUT_ABORTED.equals(progressingReason)) {
      Conditions.set(
          status,
          ConditionType.PROGRESSING,
          "Unknown",
          ConditionReason.ROLLOUT_RETRY,
          "Retrying Rollout after abort",
          now);
    } else if (isPaused && !completed) {
      Conditions.set(
          status,
          ConditionType.PROGRESSING,
          "Unknown",
          ConditionReason.ROLLOUT_PAUSED,
          "Rollout is paused",
          now);
    } else if (ConditionReason.ROLLOUT_PAUSED.equals(progressingReason)) {
      Conditions.set(
          status,
          ConditionType.PROGRESSING,
          "Unknown",
          ConditionReason.ROLLOUT_RESUMED,
          "Rollout is resumed",
          now);
    } else if (facts.healthy()) {
      Conditions.set(
          status,
          ConditionType.PROGRESSING,
          "True",
          ConditionReason.NEW_REPLICA_SET_AVAILABLE,
          "ReplicaSet \"" + rsName + "\" has successfully progressed.",
          now);
    } else if (completed
        && ConditionReason.NEW_REPLICA_SET_AVAILABLE.equals(progressingReason)
        && nz(status.getAvailableReplicas()) < pass.replicas) {
      Conditions.set(
          status,
          ConditionType.PROGRESSING,
          "True",
          ConditionReason.REPLICA_SET_NOT_AVAILABLE,
          "Rollout does not have minimum availability",
          now);
    } else if (facts.progress() || progressing == null) {
      String msg = "ReplicaSet \"" + rsName + "\" is progressing.";
      if (!Conditions.set(
          status,
          ConditionType.PROGRESSING,
          "True",
          ConditionReason.REPLICA_SET_UPDATED,
          msg,
          now)) {
        Conditions.touch(status, ConditionType.PROGRESSING, msg, now);
      }
    } else if (facts.evaluateDeadline() && !facts.deadlineExempt()) {
      checkDeadline(pass, status, progressing, rsName);
    }

    if (facts.available()) {
      Conditions.set(
          status,
          ConditionType.AVAILABLE,
          "True",
          ConditionReason.AVAILABLE_REASON,
          "Rollout has minimum availability",
          now);
    } else {
      Conditions.set(
          status,
          ConditionType.AVAILABLE,
          "False",
          ConditionReason.AVAILABLE_REASON,
          "Rollout does not have minimum availability",
          now);
    }
    if (!aborted) {
      if (isPaused) {
        Conditions.set(
            status,
            ConditionType.PAUSED,
            "True",
            ConditionReason.ROLLOUT_PAUSED,
            "Rollout is paused",
            now);
      } else if (Conditions.get(status, ConditionType.PAUSED) != null) {
        Conditions.set(
            status,
            ConditionType.PAUSED,
            "False",
            ConditionReason.ROLLOUT_PAUSED,
            "Rollout is paused",
            now);
      }
    }
    RolloutCondition oldCompleted = Conditions.get(pass.old, ConditionType.COMPLETED);
    if (completed) {
      Conditions.set(
          status,
          ConditionType.COMPLETED,
          "True",
          ConditionReason.ROLLOUT_COMPLETED,
          ConditionReason.ROLLOUT_COMPLETED,
          now);
    } else if (Conditions.set(
            status,
            ConditionType.COMPLETED,
            "False",
            ConditionReason.ROLLOUT_COMPLETED,
            ConditionReason.ROLLOUT_COMPLETED,
            now)
        && (oldCompleted == null || "True".equals(oldCompleted.getStatus()))) {
      pass.event(
          "RolloutNotCompleted",
          "Rollout not completed, started update to revision "
              + pass.revision()
              + " ("
              + pass.podHash
              + ")");
    }
    if (facts.healthy() && !isPaused) {
      Conditions.set(
          status,
          ConditionType.HEALTHY,
          "True",
          ConditionReason.ROLLOUT_HEALTHY,
          "Rollout is healthy",
          now);
    } else if (Conditions.get(status, ConditionType.HEALTHY) != null) {
      Conditions.set(
          status,
          ConditionType.HEALTHY,
          "False",
          ConditionReason.ROLLOUT_HEALTHY,
          "Rollout is not healthy",
          now);
    }
    Conditions.remove(status, ConditionType.INVALID_SPEC);
  }

  /**
   * docs/compatibility.md §3.5: deadline evaluation, requeue at the deadline, and
   * progressDeadlineAbort.
   */
  private static void checkDeadline(
      RolloutPass pass, RolloutStatus status, RolloutCondition progressing, String rsName) {
    if (progressing == null || progressing.getLastUpdateTime() == null) {
      return;
    }
    String reason = progressing.getReason();
    if (ConditionReason.ROLLOUT_ABORTED.equals(reason)
        || ConditionReason.ROLLOUT_PAUSED.equals(reason)
        || ConditionReason.NEW_REPLICA_SET_AVAILABLE.equals(reason)) {
      return;
    }
    boolean completed = pass.podHash.equals(status.getStableRS());
    if (completed && ConditionReason.PROGRESS_DEADLINE_EXCEEDED.equals(reason)) {
      return;
    }
    int deadline =
        RolloutDefaults.progressDeadlineSeconds(
            pass.rollout.getSpec().getProgressDeadlineSeconds());
    Instant due = Instant.parse(progressing.getLastUpdateTime()).plusSeconds(deadline);
    if (due.isAfter(pass.now)) {
      pass.requeueAfter(Duration.between(pass.now, due).plusSeconds(1));
      return;
    }
    String msg =
        rsName == null
            ? "Rollout \"" + pass.name() + "\" has timed out progressing."
            : "ReplicaSet \"" + rsName + "\" has timed out progressing.";
    if (Conditions.set(
        status,
        ConditionType.PROGRESSING,
        "False",
        ConditionReason.PROGRESS_DEADLINE_EXCEEDED,
        msg,
        pass.nowText)) {
      LOG.info("{} progress deadline exceeded ({}s)", pass.ctx, deadline);
    }
    if (Boolean.TRUE.equals(pass.rollout.getSpec().getProgressDeadlineAbort())
        && !pass.aborted()
        && !completed) {
      pass.addAbort = true;
      pass.abortMessage = msg;
    }
  }

  /**
   * The progress signals both strategies share (docs/compatibility.md §3.5): updated replicas
   * changed, old replicas went down, more ready or available replicas, or a new stable ReplicaSet.
   */
  public static boolean replicasProgressed(RolloutStatus old, RolloutStatus now) {
    return !Objects.equals(old.getUpdatedReplicas(), now.getUpdatedReplicas())
        || nz(now.getReplicas()) - nz(now.getUpdatedReplicas())
            < nz(old.getReplicas()) - nz(old.getUpdatedReplicas())
        || nz(now.getReadyReplicas()) > nz(old.getReadyReplicas())
        || nz(now.getAvailableReplicas()) > nz(old.getAvailableReplicas())
        || !Objects.equals(old.getStableRS(), now.getStableRS());
  }

  /** A null count as zero. */
  public static int nz(Integer i) {
    return i == null ? 0 : i;
  }
}
