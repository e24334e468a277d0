/**
 * The runs a Rollout starts: its AnalysisRuns (canary steps and background analysis, blue-green
 * pre- and post-promotion analysis; docs/compatibility.md §9) and the Experiments of its experiment
 * steps (§12), with what they mean for the pass (pause, abort, step completion).
 */
package io.rollgate.controller.rollout.runs;
