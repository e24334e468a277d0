/**
 * The read side of the Rollout reconciler: the informer caches of Rollouts, ReplicaSets, Services,
 * AnalysisRuns, Experiments and templates ({@link
 * io.rollgate.controller.rollout.cache.RolloutCache}), and what a Rollout refers to by name.
 */
package io.rollgate.controller.rollout.cache;
