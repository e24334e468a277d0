package io.rollgate.controller.rollout.bluegreen;

import io.rollgate.api.Rollout;
import io.rollgate.controller.ReconcileContext;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The promotion gate used until AnalysisRuns are implemented: configured pre- and post-promotion analyses are not
 * evaluated and count as passed. Each use is logged, so an operator can see that no analysis guarded the promotion.
 */
public final class NoAnalysisPromotionGate implements PromotionGate {

  private static final Logger LOG = LoggerFactory.getLogger(NoAnalysisPromotionGate.class);

  /** Creates the gate. */
  public NoAnalysisPromotionGate() {}

  /**
   * Always passes, logging that the analysis was not evaluated.
   *
   * @param ctx the reconcile context (log prefix)
   * @param rollout the Rollout
   * @param podHash the pod-template hash of the new ReplicaSet
   * @param stage which analysis
   * @return a Future completing with {@link Verdict#PASSED}; never fails
   */
  @Override
  public Future<Verdict> check(ReconcileContext ctx, Rollout rollout, String podHash, Stage stage) {
    String field = stage == Stage.PRE_PROMOTION ? "prePromotionAnalysis" : "postPromotionAnalysis";
    LOG.info("{} {} is configured but analysis is not evaluated yet; treated as passed (podHash={})", ctx, field, podHash);
    return Future.succeededFuture(Verdict.PASSED);
  }
}
