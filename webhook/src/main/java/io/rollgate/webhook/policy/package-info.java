/**
 * The audit of existing Rollouts against RolloutPolicies, run by the webhook leader, writing the
 * policy status.
 */
package io.rollgate.webhook.policy;
