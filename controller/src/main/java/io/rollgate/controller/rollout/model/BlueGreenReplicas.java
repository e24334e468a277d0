package io.rollgate.controller.rollout.model;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Pure replica decisions of the blue-green strategy (docs/compatibility.md §7.2 and §7.6): the new
 * ReplicaSet's size with {@code previewReplicaCount}, the "ready for pause" and "saturated"
 * predicates, and the delayed scale-down of the previous active ReplicaSets under {@code
 * scaleDownDelaySeconds} and {@code scaleDownDelayRevisionLimit}.
 */
public final class BlueGreenReplicas {

  private BlueGreenReplicas() {}

  /**
   * The desired {@code spec.replicas} of the new (preview) ReplicaSet, docs/compatibility.md §7.2.
   *
   * @param replicas the Rollout's effective {@code spec.replicas}
   * @param previewReplicaCount {@code spec.strategy.blueGreen.previewReplicaCount}, or null
   * @param activeHash the hash the active Service selects, or null when it selects none
   * @param activeExists whether a ReplicaSet with {@code activeHash} exists
   * @param newHash the new ReplicaSet's hash
   * @param currentPodHash {@code status.currentPodHash} as stored (the hash of the previous pass)
   * @param promoteFull {@code status.promoteFull}
   * @param paused {@code spec.paused} or any pause condition stored
   * @param scaleUpPreviewCheckPoint {@code status.blueGreen.scaleUpPreviewCheckPoint} as stored
   * @return the replica count
   */
  public static int newReplicaSetReplicas(
      int replicas,
      Integer previewReplicaCount,
      String activeHash,
      boolean activeExists,
      String newHash,
      String currentPodHash,
      boolean promoteFull,
      boolean paused,
      boolean scaleUpPreviewCheckPoint) {
    if (previewReplicaCount == null) {
      return replicas;
    }
    if (activeHash == null || !activeExists || activeHash.equals(newHash) || promoteFull) {
      return replicas;
    }
    if (!Objects.equals(newHash, currentPodHash)) {
      return previewReplicaCount;
    }
    if (!paused && scaleUpPreviewCheckPoint) {
      return replicas;
    }
    return previewReplicaCount;
  }

  /**
   * Argo's {@code ReadyForPause}: the new ReplicaSet has the size it should have and all of it is
   * available.
   *
   * @param desired the desired replicas of the new ReplicaSet
   * @param spec its {@code spec.replicas}
   * @param available its {@code status.availableReplicas}
   * @return whether the pause (and then the switch) may be considered
   */
  public static boolean readyForPause(int desired, int spec, int available) {
    return spec == desired && available == desired;
  }

  /**
   * Argo's {@code IsSaturated}: a ReplicaSet runs the Rollout's full size, was last scaled for it
   * ({@code rollout.argoproj.io/desired-replicas}), and all of it is available.
   *
   * @param replicas the Rollout's effective {@code spec.replicas}
   * @param spec the ReplicaSet's {@code spec.replicas}
   * @param desiredReplicasAnnotation its {@code rollout.argoproj.io/desired-replicas} annotation,
   *     or null
   * @param available its {@code status.availableReplicas}
   * @return whether it is saturated
   */
  public static boolean saturated(
      int replicas, int spec, String desiredReplicasAnnotation, int available) {
    return spec == replicas
        && String.valueOf(replicas).equals(desiredReplicasAnnotation)
        && available == replicas;
  }

  /**
   * A previous ReplicaSet that may have to be scaled down.
   *
   * @param name the ReplicaSet name
   * @param revision its {@code rollout.argoproj.io/revision}
   * @param replicas its {@code spec.replicas}
   * @param deadline its parsed {@code scale-down-deadline} annotation, or null when absent
   * @param hasDeadline whether the annotation is present (an unparsable value counts as present and
   *     due)
   */
  public record OldReplicaSet(
      String name, long revision, int replicas, Instant deadline, boolean hasDeadline) {}

  /**
   * What to do with one previous ReplicaSet this pass.
   *
   * @param name the ReplicaSet name
   * @param annotateDeadline the {@code scale-down-deadline} to write, or null to leave the
   *     annotation as is
   * @param replicas the replicas it should have after this pass
   * @param requeueAfter when to reconcile again for it, or null
   */
  public record ScaleDown(
      String name, Instant annotateDeadline, int replicas, Duration requeueAfter) {}

  /**
   * Plans the scale-down of previous ReplicaSets (docs/compatibility.md §7.6, §5.8): newest
   * revision first, a ReplicaSet without a deadline gets one ({@code now + delay}) and keeps its
   * pods while at most {@code revisionLimit} ReplicaSets are under a deadline; the rest, and those
   * whose deadline passed, go to 0. A delay of 0 scales down at once.
   *
   * @param olds the previous ReplicaSets (neither new, stable nor referenced by a Service or the
   *     status)
   * @param now the current time
   * @param delaySeconds {@code scaleDownDelaySeconds} (default applied), seconds
   * @param revisionLimit {@code scaleDownDelayRevisionLimit} (default unlimited)
   * @return one decision per ReplicaSet with replicas above 0, in the order considered
   */
  public static List<ScaleDown> planScaleDown(
      List<OldReplicaSet> olds, Instant now, int delaySeconds, int revisionLimit) {
    List<OldReplicaSet> sorted = new ArrayList<>(olds);
    sorted.sort(
        Comparator.comparingLong(OldReplicaSet::revision)
            .reversed()
            .thenComparing(OldReplicaSet::name));
    List<ScaleDown> plan = new ArrayList<>();
    int annotated = 0;
    for (OldReplicaSet rs : sorted) {
      if (rs.replicas() == 0) {
        continue;
      }
      if (delaySeconds <= 0) {
        plan.add(new ScaleDown(rs.name(), null, 0, null));
        continue;
      }
      if (!rs.hasDeadline()) {
        if (annotated < revisionLimit) {
          annotated++;
          Instant deadline = now.plusSeconds(delaySeconds);
          plan.add(
              new ScaleDown(rs.name(), deadline, rs.replicas(), Duration.ofSeconds(delaySeconds)));
        } else {
          plan.add(new ScaleDown(rs.name(), null, 0, null));
        }
        continue;
      }
      annotated++;
      if (annotated > revisionLimit || rs.deadline() == null || !rs.deadline().isAfter(now)) {
        plan.add(new ScaleDown(rs.name(), null, 0, null));
      } else {
        plan.add(
            new ScaleDown(rs.name(), null, rs.replicas(), Duration.between(now, rs.deadline())));
      }
    }
    return plan;
  }
}
