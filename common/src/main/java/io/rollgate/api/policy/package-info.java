/**
 * Rollgate's own cluster-wide rollout policy, {@code rollgate.io/v1alpha1} kind {@code
 * RolloutPolicy} (cluster-scoped, plural {@code rolloutpolicies}). It lives in Rollgate's group,
 * never in {@code argoproj.io}: Argo Rollouts objects stay exactly as Argo defines them.
 *
 * <p>A policy selects namespaces (label selector; absent selects every namespace) and optionally
 * Rollouts (label selector), states rules, and says what happens to a Rollout that breaks one
 * ({@code enforcementAction} {@code deny}, {@code warn} or {@code audit}). The admission webhook
 * enforces it on apply, and its leader audits existing Rollouts into the policy's status. The CRD
 * is generated from {@link io.rollgate.api.policy.RolloutPolicy} into {@code
 * META-INF/fabric8/rolloutpolicies.rollgate.io-v1.yml}.
 */
package io.rollgate.api.policy;
