/**
 * The pure parts of the AnalysisRuns a Rollout creates (argo-spec.md 9.8): template resolution and flattening,
 * argument merging and resolution from the Rollout, run names and labels, history selection and the Rollout's reaction
 * to a run's phase. No I/O: the Rollout reconciler reads the caches and performs the writes.
 */
package io.rollgate.controller.rollout.analysis;
