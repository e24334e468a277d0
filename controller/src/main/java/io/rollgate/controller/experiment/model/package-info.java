/**
 * The pure parts of the Experiment controller (docs/compatibility.md §12.1): defaults, spec checks,
 * template status, the terminating decision and the phase. No I/O: the reconciler reads the caches
 * and performs the writes.
 */
package io.rollgate.controller.experiment.model;
