/**
 * The state of one reconcile pass over a Rollout ({@link
 * io.rollgate.controller.rollout.pass.RolloutPass}: what was read and the intents collected before
 * the status is written) and the bookkeeping both strategies do on it: pause conditions, the
 * rollback window, the status conditions, and {@link
 * io.rollgate.controller.rollout.pass.SharedSteps}, the steps the top-level reconcile carries out
 * for the strategies (invalid spec, revisions, new ReplicaSet, status write).
 */
package io.rollgate.controller.rollout.pass;
