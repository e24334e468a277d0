/**
 * Validation of {@code RolloutPolicy} objects, evaluation of their rules against Rollouts, and
 * label-selector matching. Pure: the admission webhook (on apply) and its audit (on existing
 * Rollouts) judge a Rollout identically.
 */
package io.rollgate.policy;
