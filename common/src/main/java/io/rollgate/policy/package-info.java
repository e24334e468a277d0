/**
 * Evaluation of {@code RolloutPolicy} rules against Rollouts, and label-selector matching. Pure: the admission webhook
 * (on apply) and its audit (on existing Rollouts) judge a Rollout identically.
 */
package io.rollgate.policy;
