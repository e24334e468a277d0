package io.rollgate.controller.rollout.status;

import io.rollgate.api.RolloutCondition;
import io.rollgate.api.RolloutStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads and writes {@code status.conditions} of a Rollout with Kubernetes condition semantics, as
 * Argo Rollouts' {@code SetRolloutCondition} does: setting a condition whose type, status and
 * reason are unchanged is a no-op (the timestamps and message stay); when only the reason or
 * message changes, {@code lastTransitionTime} is kept.
 */
public final class Conditions {

  private Conditions() {}

  /**
   * Finds a condition by type.
   *
   * @param status the status (may be null)
   * @param type the condition type, for example {@code Progressing}
   * @return the condition, or null
   */
  public static RolloutCondition get(RolloutStatus status, String type) {
    if (status == null || status.getConditions() == null) {
      return null;
    }
    for (RolloutCondition c : status.getConditions()) {
      if (type.equals(c.getType())) {
        return c;
      }
    }
    return null;
  }

  /**
   * Sets a condition, keeping timestamps per the rule above.
   *
   * @param status the status to change
   * @param type the condition type
   * @param conditionStatus {@code True}, {@code False} or {@code Unknown}
   * @param reason the reason (CamelCase)
   * @param message the human-readable message
   * @param now the current time, RFC 3339
   * @return true when something changed
   */
  public static boolean set(
      RolloutStatus status,
      String type,
      String conditionStatus,
      String reason,
      String message,
      String now) {
    RolloutCondition existing = get(status, type);
    if (existing != null
        && Objects.equals(existing.getStatus(), conditionStatus)
        && Objects.equals(existing.getReason(), reason)) {
      return false;
    }
    RolloutCondition c = new RolloutCondition();
    c.setType(type);
    c.setStatus(conditionStatus);
    c.setReason(reason);
    c.setMessage(message);
    c.setLastUpdateTime(now);
    c.setLastTransitionTime(
        existing != null && Objects.equals(existing.getStatus(), conditionStatus)
            ? existing.getLastTransitionTime()
            : now);
    List<RolloutCondition> list = new ArrayList<>();
    if (status.getConditions() != null) {
      for (RolloutCondition other : status.getConditions()) {
        if (!type.equals(other.getType())) {
          list.add(other);
        }
      }
    }
    list.add(c);
    status.setConditions(list);
    return true;
  }

  /**
   * Refreshes {@code lastUpdateTime} (and the message) of a condition whose type, status and reason
   * are unchanged; used when progress is observed while Progressing stays {@code
   * ReplicaSetUpdated}.
   *
   * @param status the status to change
   * @param type the condition type
   * @param message the new message
   * @param now the current time, RFC 3339
   */
  public static void touch(RolloutStatus status, String type, String message, String now) {
    RolloutCondition c = get(status, type);
    if (c != null) {
      c.setLastUpdateTime(now);
      c.setMessage(message);
    }
  }

  /**
   * Removes a condition.
   *
   * @param status the status to change
   * @param type the condition type
   * @return true when a condition was removed
   */
  public static boolean remove(RolloutStatus status, String type) {
    if (status.getConditions() == null) {
      return false;
    }
    List<RolloutCondition> list = new ArrayList<>(status.getConditions());
    boolean removed = list.removeIf(c -> type.equals(c.getType()));
    status.setConditions(list.isEmpty() ? null : list);
    return removed;
  }
}
