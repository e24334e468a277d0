package io.rollgate.controller.runtime;

import io.rollgate.kube.KubeApiException;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What every reconciler does with the end of a pass, so the kinds handle failures alike. */
public final class Reconciles {

  private static final Logger LOG = LoggerFactory.getLogger(Reconciles.class);

  private Reconciles() {}

  /**
   * Runs one pass and turns its failures into outcomes: a 409 from a write guarded by the
   * resourceVersion read (the object changed meanwhile) re-queues the key at once, to be reconciled
   * again from the newer object; any other failure, thrown or in the Future, is a retry with the
   * key's backoff.
   *
   * @param ctx the run's identity (for the log)
   * @param pass the pass
   * @return a Future that never fails
   */
  public static Future<ReconcileOutcome> guarded(
      ReconcileContext ctx, Supplier<Future<ReconcileOutcome>> pass) {
    try {
      return pass.get()
          .recover(
              err -> {
                if (KubeApiException.isConflict(err)) {
                  LOG.info("{} conflict on write, requeue: {}", ctx, err.getMessage());
                  LOG.debug("{} conflict", ctx, err);
                  return Future.succeededFuture(ReconcileOutcome.requeueAfter(Duration.ZERO));
                }
                return Future.succeededFuture(ReconcileOutcome.retry(err));
              });
    } catch (RuntimeException e) {
      return Future.succeededFuture(ReconcileOutcome.retry(e));
    }
  }
}
