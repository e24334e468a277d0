package io.rollgate.controller.rollout;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.BlueGreenStatus;
import io.rollgate.api.Labels;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutAnalysisRunStatus;
import io.rollgate.controller.rollout.bluegreen.PromotionGate;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.runs.RolloutAnalysisRuns;
import io.rollgate.controller.runtime.ReconcileContext;
import io.vertx.core.Future;

/**
 * The blue-green promotion gate backed by AnalysisRuns (docs/compatibility.md §7.3-7.5, §9.8): a
 * stage passes when the run the Rollout status names for it ({@code
 * status.blueGreen.prePromotionAnalysisRunStatus} / {@code postPromotionAnalysisRunStatus}) belongs
 * to the new ReplicaSet and is Successful; anything else holds the promotion. Creating the runs and
 * aborting or pausing on their failure is {@link RolloutAnalysisRuns}' part.
 */
final class AnalysisPromotionGate implements PromotionGate {

  private final RolloutCache cache;

  AnalysisPromotionGate(RolloutCache cache) {
    this.cache = cache;
  }

  @Override
  public Future<Verdict> check(ReconcileContext ctx, Rollout rollout, String podHash, Stage stage) {
    BlueGreenStatus bg = rollout.getStatus() == null ? null : rollout.getStatus().getBlueGreen();
    RolloutAnalysisRunStatus ref =
        bg == null
            ? null
            : stage == Stage.PRE_PROMOTION
                ? bg.getPrePromotionAnalysisRunStatus()
                : bg.getPostPromotionAnalysisRunStatus();
    if (ref == null || ref.getName() == null) {
      return Future.succeededFuture(Verdict.PENDING);
    }
    for (AnalysisRun run : cache.ownedAnalysisRuns(rollout)) {
      if (ref.getName().equals(run.getMetadata().getName())) {
        var labels = run.getMetadata().getLabels();
        boolean ofNewRS = labels != null && podHash.equals(labels.get(Labels.POD_TEMPLATE_HASH));
        boolean ok = ofNewRS && AnalysisPhase.SUCCESSFUL.equals(RolloutAnalysisRuns.phase(run));
        return Future.succeededFuture(ok ? Verdict.PASSED : Verdict.PENDING);
      }
    }
    return Future.succeededFuture(Verdict.PENDING);
  }
}
