/**
 * The pure parts of the AnalysisRuns a Rollout creates (docs/compatibility.md §9.8): template
 * resolution and flattening, argument merging and resolution from the Rollout, run names and
 * labels, history selection and the Rollout's reaction to a run's phase, and the checks of every
 * analysis a Rollout names ({@link io.rollgate.analysis.AnalysisReferences}), which the controller
 * reports as InvalidSpec and the webhook answers on apply. No I/O: callers read the templates and
 * perform the writes.
 */
package io.rollgate.analysis;
