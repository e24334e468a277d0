package io.rollgate.controller.rollout.pass;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Annotations;
import io.rollgate.api.RollbackWindowSpec;
import io.rollgate.api.RolloutStatus;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code spec.rollbackWindow.revisions} (docs/compatibility.md §1.1, §5.3 item 2, §5.10 item 5): a
 * return to an older template is a fast rollback when its ReplicaSet was created before the stable
 * one and fewer than {@code revisions} ReplicaSets were created in between.
 */
public final class RollbackWindow {

  private static final Logger LOG = LoggerFactory.getLogger(RollbackWindow.class);

  private RollbackWindow() {}

  /**
   * Canary status sync (docs/compatibility.md §5.3 item 2, §5.10): a rollback inside the window
   * skips whatever steps remain, also when the older ReplicaSet had already been scaled down and
   * the template change therefore restarted the steps at 0. Pauses and abort are cleared and {@code
   * currentStepIndex} becomes the number of steps, so the following passes scale the new ReplicaSet
   * to 100% and promote it ("Rollback within window") without step analyses or experiments.
   *
   * @param pass the pass, ReplicaSets classified
   * @param status the status being computed; its {@code currentStepIndex} is updated
   * @return whether the rollback is within the window
   */
  public static boolean skipRemainingSteps(RolloutPass pass, RolloutStatus status) {
    if (!within(pass)) {
      return false;
    }
    pass.clearPauses = true;
    pass.removeAbort = true;
    int steps = pass.steps().size();
    if (steps > 0 && !Objects.equals(status.getCurrentStepIndex(), steps)) {
      LOG.info(
          "{} rollback within rollbackWindow: skipping steps {}..{}",
          pass.ctx,
          status.getCurrentStepIndex(),
          steps);
      status.setCurrentStepIndex(steps);
    }
    return true;
  }

  /**
   * Whether the pass's new ReplicaSet is a rollback inside the window.
   *
   * @param pass the pass, ReplicaSets classified
   * @return false without a window, without a distinct stable ReplicaSet, or when the new
   *     ReplicaSet is not older
   */
  public static boolean within(RolloutPass pass) {
    RollbackWindowSpec window = pass.rollout.getSpec().getRollbackWindow();
    if (window == null
        || window.getRevisions() == null
        || pass.newRS == null
        || pass.stableRS == null) {
      return false;
    }
    if (pass.newRS == pass.stableRS) {
      return false;
    }
    if (!older(pass.newRS, pass.stableRS)) {
      return false;
    }
    int between = 0;
    for (ReplicaSet rs : pass.allRSs) {
      if (rs != pass.newRS
          && rs != pass.stableRS
          && older(pass.newRS, rs)
          && older(rs, pass.stableRS)) {
        between++;
      }
    }
    return between < window.getRevisions();
  }

  /**
   * Creation order: by creation timestamp, and within the same second (timestamps have one-second
   * resolution) by the revision the ReplicaSet was first created with (the first entry of {@code
   * revision-history}, else its revision), which increases with every new ReplicaSet.
   */
  public static boolean older(ReplicaSet a, ReplicaSet b) {
    String ta = a.getMetadata().getCreationTimestamp();
    String tb = b.getMetadata().getCreationTimestamp();
    if (ta == null || tb == null) {
      return false;
    }
    int byTime = ta.compareTo(tb);
    if (byTime != 0) {
      return byTime < 0;
    }
    return firstRevision(a) < firstRevision(b);
  }

  /**
   * The revision a ReplicaSet got when it was created: rollbacks raise its revision and keep the
   * old ones.
   */
  static long firstRevision(ReplicaSet rs) {
    var annotations = rs.getMetadata().getAnnotations();
    String history = annotations == null ? null : annotations.get(Annotations.REVISION_HISTORY);
    if (history != null && !history.isBlank()) {
      try {
        return Long.parseLong(history.split(",")[0].trim());
      } catch (NumberFormatException e) {
        // fall back to the current revision
      }
    }
    return RolloutPass.revisionOf(rs);
  }

  /**
   * docs/compatibility.md §7.5: a fast rollback is a return to the stable ReplicaSet, or to a
   * ReplicaSet older than the stable one that is inside the rollback window or still within its
   * scale-down delay; it is promoted as soon as the active Service selects it, without
   * post-promotion analysis.
   */
  public static boolean fastRollback(RolloutPass pass, String stable) {
    if (pass.podHash.equals(stable)) {
      return true;
    }
    boolean older =
        pass.newRS != null
            && pass.stableRS != null
            && pass.newRS != pass.stableRS
            && older(pass.newRS, pass.stableRS);
    return older && (within(pass) || pass.newRsWithinDelay);
  }
}
