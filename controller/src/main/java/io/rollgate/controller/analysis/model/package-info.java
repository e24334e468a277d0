/**
 * Pure rules of AnalysisRuns (docs/compatibility.md §9): spec validation, argument substitution,
 * dry-run and measurement-retention rules, measurement scheduling, metric and run assessment, and
 * the TTL of completed runs. No I/O and no Vert.x: every function takes the run and the current
 * time and returns a decision, so the rules are unit-tested without a cluster.
 */
package io.rollgate.controller.analysis.model;
