package io.rollgate.analysis;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Labels;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which of a Rollout's non-current AnalysisRuns to delete (docs/compatibility.md §9.8 "History"):
 * runs without a {@code rollouts-pod-template-hash} label, or whose ReplicaSet is gone or being
 * deleted, always; of the others, newest first, all but {@code successfulRunHistoryLimit}
 * Successful and {@code unsuccessfulRunHistoryLimit} Failed/Error/Inconclusive runs. Runs still
 * running are kept (they are terminated first).
 */
public final class RunHistory {

  private RunHistory() {}

  /**
   * Selects the runs to delete.
   *
   * @param nonCurrent the Rollout's runs that are not referenced by its status (not being deleted)
   * @param liveHashes pod-template hashes of the Rollout's ReplicaSets that are not being deleted
   * @param successfulLimit {@code spec.analysis.successfulRunHistoryLimit} (default 5)
   * @param unsuccessfulLimit {@code spec.analysis.unsuccessfulRunHistoryLimit} (default 5)
   * @return the runs to delete
   */
  public static List<AnalysisRun> toDelete(
      List<AnalysisRun> nonCurrent,
      Set<String> liveHashes,
      int successfulLimit,
      int unsuccessfulLimit) {
    List<AnalysisRun> delete = new ArrayList<>();
    List<AnalysisRun> rest = new ArrayList<>();
    for (AnalysisRun run : nonCurrent) {
      Map<String, String> labels = run.getMetadata().getLabels();
      String hash = labels == null ? null : labels.get(Labels.POD_TEMPLATE_HASH);
      if (hash == null || !liveHashes.contains(hash)) {
        delete.add(run);
      } else {
        rest.add(run);
      }
    }
    rest.sort(
        Comparator.comparing(
                (AnalysisRun r) ->
                    r.getMetadata().getCreationTimestamp() == null
                        ? ""
                        : r.getMetadata().getCreationTimestamp())
            .thenComparing(r -> r.getMetadata().getName())
            .reversed());
    int ok = 0;
    int bad = 0;
    for (AnalysisRun run : rest) {
      String phase = run.getStatus() == null ? null : run.getStatus().getPhase();
      if (AnalysisPhase.SUCCESSFUL.equals(phase)) {
        if (ok < successfulLimit) {
          ok++;
        } else {
          delete.add(run);
        }
      } else if (AnalysisPhase.isCompleted(phase)) {
        if (bad < unsuccessfulLimit) {
          bad++;
        } else {
          delete.add(run);
        }
      }
    }
    return delete;
  }
}
