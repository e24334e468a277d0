package io.rollgate.controller.rollout.pass;

import io.rollgate.api.ConditionReason;
import io.rollgate.api.PauseCondition;
import io.rollgate.api.RolloutCondition;
import io.rollgate.api.RolloutStatus;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a pass's pause and abort intents into {@code status.pauseConditions}, {@code
 * controllerPause}, {@code abort} and {@code abortedAt}, with the {@code RolloutPaused}, {@code
 * RolloutResumed} and {@code RolloutAborted} events (docs/compatibility.md §3.4). Shared by every
 * strategy.
 */
public final class PauseBookkeeping {

  private static final Logger LOG = LoggerFactory.getLogger(PauseBookkeeping.class);

  private PauseBookkeeping() {}

  /**
   * Applies the intents collected in the pass to the status being written.
   *
   * <p>An abort wins and drops every pause condition; otherwise the stored conditions minus the
   * removed reasons plus the added ones (stamped now) remain, and {@code controllerPause} is true
   * only while at least one remains and the controller added one (or had already).
   */
  public static void apply(RolloutPass pass, RolloutStatus status) {
    List<PauseCondition> before =
        pass.old.getPauseConditions() == null ? List.of() : pass.old.getPauseConditions();
    if (pass.aborted()) {
      status.setAbort(true);
      if (pass.old.getAbortedAt() == null) {
        status.setAbortedAt(pass.nowText);
        String msg = abortMessage(pass, null);
        if (pass.events.stream()
            .noneMatch(e -> e.warning() && e.reason().equals("RolloutAborted"))) {
          LOG.info("{} aborted: {}", pass.ctx, msg);
          pass.warning("RolloutAborted", msg);
        }
      } else {
        status.setAbortedAt(pass.old.getAbortedAt());
      }
      status.setPauseConditions(null);
      status.setControllerPause(null);
      return;
    }
    status.setAbort(pass.old.getAbort() != null ? Boolean.FALSE : null);
    status.setAbortedAt(null);
    List<PauseCondition> after = new ArrayList<>();
    boolean added = false;
    if (!pass.clearPauses) {
      for (PauseCondition c : before) {
        if (!pass.removePause.contains(c.getReason())) {
          after.add(c);
        }
      }
      for (String reason : pass.addPause) {
        if (after.stream().noneMatch(c -> reason.equals(c.getReason()))) {
          PauseCondition c = new PauseCondition();
          c.setReason(reason);
          c.setStartTime(pass.nowText);
          after.add(c);
          added = true;
        }
      }
    }
    if (after.isEmpty()) {
      status.setPauseConditions(null);
      status.setControllerPause(null);
    } else {
      status.setPauseConditions(after);
      status.setControllerPause(added ? Boolean.TRUE : pass.old.getControllerPause());
    }
    if (before.isEmpty() && !after.isEmpty()) {
      pass.event("RolloutPaused", "Rollout is paused (" + after.get(0).getReason() + ")");
    } else if (!before.isEmpty() && after.isEmpty() && pass.old.getAbortedAt() == null) {
      pass.event("RolloutResumed", "Rollout is resumed");
    }
  }

  /**
   * The Progressing message of an aborted rollout: {@code Rollout aborted update to revision <n>}
   * plus the abort's own message, taken from this pass or kept from the stored condition.
   *
   * @param pass the pass
   * @param progressing the stored Progressing condition, or null
   * @return the message
   */
  static String abortMessage(RolloutPass pass, RolloutCondition progressing) {
    String suffix = pass.abortMessage != null ? ": " + pass.abortMessage : abortSuffix(progressing);
    return "Rollout aborted update to revision " + pass.revision() + suffix;
  }

  private static String abortSuffix(RolloutCondition progressing) {
    if (progressing != null && ConditionReason.ROLLOUT_ABORTED.equals(progressing.getReason())) {
      String m = progressing.getMessage();
      int i = m == null ? -1 : m.indexOf(": ");
      return i < 0 ? "" : m.substring(i);
    }
    return "";
  }
}
