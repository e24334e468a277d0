/**
 * The reconcile runtime every kind's controller runs on: the {@link
 * io.rollgate.controller.runtime.WorkQueue} of {@code namespace/name} keys (deduplication, one run
 * per key, bounded concurrency, per-key exponential backoff, timers), the {@link
 * io.rollgate.controller.runtime.Reconciler} contract with its {@link
 * io.rollgate.controller.runtime.ReconcileContext} and {@link
 * io.rollgate.controller.runtime.ReconcileOutcome}, and the wiring from informers to a queue.
 *
 * <p>It sits below the feature packages (rollout, analysis, experiment, traffic, ...), which depend
 * on it, and depends on none of them.
 */
package io.rollgate.controller.runtime;
