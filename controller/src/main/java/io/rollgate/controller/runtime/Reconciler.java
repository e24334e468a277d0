package io.rollgate.controller.runtime;

import io.vertx.core.Future;

/** Reconciles one object identified by its key; one implementation per kind. */
@FunctionalInterface
public interface Reconciler {

  /**
   * Brings the object named by the context towards its desired state.
   *
   * @param ctx the run's identity
   * @return a Future completing with what should happen next; it never fails for expected
   *     conditions (those become {@link ReconcileOutcome#retry(Throwable)}), and a failed Future is
   *     treated like a retry
   */
  Future<ReconcileOutcome> reconcile(ReconcileContext ctx);
}
