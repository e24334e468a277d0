package io.rollgate.controller.rollout.pass;

import io.rollgate.api.RolloutStatus;
import io.rollgate.controller.runtime.ReconcileOutcome;
import io.rollgate.validation.FieldError;
import io.vertx.core.Future;
import java.util.List;

/**
 * The steps of a pass that both strategies share and the top-level Rollout reconcile carries out:
 * reporting an invalid spec, keeping revisions in sync, creating the new ReplicaSet and writing the
 * status. The strategy reconcilers reach them through this interface only.
 */
public interface SharedSteps {

  /**
   * Reports the first error as the {@code InvalidSpec} condition (phase Degraded) and re-queues, as
   * references (Services, templates) may appear later (docs/compatibility.md §2.1).
   *
   * @param pass the pass
   * @param errors the problems found, first one reported; not empty
   * @return a Future completing with the outcome of the pass, or failing with the write's error
   */
  Future<ReconcileOutcome> invalidSpec(RolloutPass pass, List<FieldError> errors);

  /**
   * Keeps the new ReplicaSet's revision above every older one and the Rollout's revision annotation
   * equal to it.
   *
   * @param pass the pass, with {@code newRS} set
   * @return a Future completing once both are in sync, or failing with the write's error
   */
  Future<Void> syncRevisions(RolloutPass pass);

  /**
   * Creates the new ReplicaSet at 0 replicas (docs/compatibility.md §4 item 4); the pass ends after
   * the write.
   *
   * @param pass the pass, without a new ReplicaSet
   * @return a Future completing with the outcome of the pass, or failing with the write's error
   */
  Future<ReconcileOutcome> createNewReplicaSet(RolloutPass pass);

  /**
   * Persists the status against the status as read, guarded by the resourceVersion read, and
   * records the pass's pending events; writes nothing when nothing changed.
   *
   * @param pass the pass
   * @param status the new status
   * @return a Future completing once written, or failing with a 409 {@code KubeApiException} when
   *     the Rollout changed meanwhile
   */
  Future<Void> persistStatus(RolloutPass pass, RolloutStatus status);

  /**
   * Ends a strategy's pass: persists the status, then asks to be queued again after the pass's
   * requeue delay (a pause or deadline that expires), or to wait for the next event when there is
   * none.
   *
   * @param pass the pass
   * @param status the new status
   * @return a Future completing with the outcome, or failing as {@link #persistStatus} does
   */
  default Future<ReconcileOutcome> persistAndFinish(RolloutPass pass, RolloutStatus status) {
    return persistStatus(pass, status)
        .map(
            v ->
                pass.requeue == null
                    ? ReconcileOutcome.done()
                    : ReconcileOutcome.requeueAfter(pass.requeue));
  }
}
