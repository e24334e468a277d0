/**
 * The canary strategy's reconcile ({@link io.rollgate.controller.rollout.canary.CanaryReconciler},
 * docs/compatibility.md §5): one pass of revisions, restarts, metadata, Services, traffic, runs,
 * scaling, pause and plugin steps, and status. The step decisions it applies are in {@code
 * io.rollgate.controller.rollout.canary.steps}.
 */
package io.rollgate.controller.rollout.canary;
