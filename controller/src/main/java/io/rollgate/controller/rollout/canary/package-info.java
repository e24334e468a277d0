/**
 * The canary strategy's decisions, as pure functions: which step is current, whether it is
 * complete, which step comes next, which canary weight applies and how many replicas each
 * ReplicaSet gets (docs/compatibility.md §5).
 *
 * <p>{@link io.rollgate.controller.rollout.canary.CanaryStepDecision#decide} reads an immutable
 * {@link io.rollgate.controller.rollout.canary.CanarySnapshot} of the Rollout and its ReplicaSets
 * and returns an immutable {@link io.rollgate.controller.rollout.canary.CanaryStepPlan}; the
 * reconciler in {@code io.rollgate.controller.rollout} takes the snapshot, applies the plan and
 * does the I/O. No Vert.x, no Kubernetes client, no clock: the time is part of the snapshot.
 */
package io.rollgate.controller.rollout.canary;
