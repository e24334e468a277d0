package io.rollgate.controller.rollout.bluegreen;

import io.rollgate.api.Rollout;
import io.rollgate.controller.runtime.ReconcileContext;
import io.vertx.core.Future;

/**
 * The gate a blue-green Rollout passes before the active Service is switched to the new ReplicaSet
 * ({@code spec.strategy.blueGreen.prePromotionAnalysis}) and before the new ReplicaSet is marked
 * stable ({@code spec.strategy.blueGreen.postPromotionAnalysis}), docs/compatibility.md §7.3-7.5.
 *
 * <p>The blue-green reconciler consults the gate only when the corresponding analysis is
 * configured. The Rollout reconciler's implementation answers from the AnalysisRuns it created per
 * pod-template hash (labelled {@code rollout-type: PrePromotion} / {@code PostPromotion}); a failed
 * run aborts the Rollout through the analysis stage, so that implementation answers {@link
 * Verdict#PASSED} or {@link Verdict#PENDING} only.
 */
public interface PromotionGate {

  /** Which of the two blue-green analyses is asked about. */
  enum Stage {
    /** Before the active Service switch ({@code prePromotionAnalysis}). */
    PRE_PROMOTION,
    /**
     * After the switch, before the new ReplicaSet becomes stable ({@code postPromotionAnalysis}).
     */
    POST_PROMOTION
  }

  /** The gate's answer. */
  enum Verdict {
    /** The analysis succeeded: go on. */
    PASSED,
    /** The analysis is still running: hold, and ask again on a later pass. */
    PENDING,
    /** The analysis failed or errored: the Rollout is aborted. */
    FAILED
  }

  /**
   * Evaluates one stage for the Rollout's new ReplicaSet.
   *
   * @param ctx the reconcile context (log prefix)
   * @param rollout the Rollout being reconciled (read only)
   * @param podHash the pod-template hash of the new ReplicaSet
   * @param stage which analysis
   * @return a Future completing with the verdict; it fails only on an I/O error, which retries the
   *     reconcile
   */
  Future<Verdict> check(ReconcileContext ctx, Rollout rollout, String podHash, Stage stage);
}
