/**
 * The canary steps: where the current step, its completion, the next step, the canary weight and
 * the replicas of each ReplicaSet get decided (docs/compatibility.md §5), and how plugin steps run.
 *
 * <p>{@link io.rollgate.controller.rollout.canary.steps.CanaryStepDecision#decide} reads an
 * immutable {@link io.rollgate.controller.rollout.canary.steps.CanarySnapshot} of the Rollout and
 * its ReplicaSets and returns an immutable {@link
 * io.rollgate.controller.rollout.canary.steps.CanaryStepPlan}: pure functions, no Vert.x, no
 * Kubernetes client, no clock (the time is part of the snapshot). {@link
 * io.rollgate.controller.rollout.canary.steps.CanarySnapshots} takes that snapshot from a pass, and
 * {@link io.rollgate.controller.rollout.canary.steps.CanaryStepPlugins} calls the step plugins of
 * {@code plugin} steps. The reconciler in {@code io.rollgate.controller.rollout.canary} and the
 * traffic routing in {@code io.rollgate.controller.rollout.trafficrouting} apply the plan and do
 * the I/O.
 */
package io.rollgate.controller.rollout.canary.steps;
