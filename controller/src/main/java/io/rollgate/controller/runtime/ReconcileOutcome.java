package io.rollgate.controller.runtime;

import java.time.Duration;
import java.util.Objects;

/**
 * What a reconciler wants to happen next with the key it just reconciled.
 *
 * <p>A run that ends with {@link #done()} waits for the next watch event or resync; {@link
 * #requeueAfter(Duration)} schedules a timer (pause expiry, deadlines); {@link #retry(Throwable)}
 * re-queues with the key's exponential backoff.
 */
public final class ReconcileOutcome {

  private static final ReconcileOutcome DONE = new ReconcileOutcome(null, null);

  private final Duration requeueAfter;
  private final Throwable error;

  private ReconcileOutcome(Duration requeueAfter, Throwable error) {
    this.requeueAfter = requeueAfter;
    this.error = error;
  }

  /**
   * Nothing more to do until something changes.
   *
   * @return the shared "done" outcome
   */
  public static ReconcileOutcome done() {
    return DONE;
  }

  /**
   * Reconcile the key again after a delay, unless an event brings it back earlier.
   *
   * @param delay the delay; zero or negative means as soon as possible
   * @return the outcome
   */
  public static ReconcileOutcome requeueAfter(Duration delay) {
    Objects.requireNonNull(delay, "delay");
    return new ReconcileOutcome(delay.isNegative() ? Duration.ZERO : delay, null);
  }

  /**
   * The run failed in a retryable way; the key is re-queued with its exponential backoff.
   *
   * @param error the cause, logged by the queue
   * @return the outcome
   */
  public static ReconcileOutcome retry(Throwable error) {
    return new ReconcileOutcome(null, Objects.requireNonNull(error, "error"));
  }

  /**
   * Combines two outcomes: a retry wins, then the earlier requeue, then done.
   *
   * @param other the other outcome
   * @return the more urgent of the two
   */
  public ReconcileOutcome and(ReconcileOutcome other) {
    if (error != null) {
      return this;
    }
    if (other.error != null) {
      return other;
    }
    if (requeueAfter == null) {
      return other;
    }
    if (other.requeueAfter == null) {
      return this;
    }
    return requeueAfter.compareTo(other.requeueAfter) <= 0 ? this : other;
  }

  /**
   * Returns the requested delay.
   *
   * @return the delay, or {@code null} when no timed requeue was asked for
   */
  public Duration requeueDelay() {
    return requeueAfter;
  }

  /**
   * Returns the failure to retry.
   *
   * @return the error, or {@code null} when the run succeeded
   */
  public Throwable error() {
    return error;
  }

  @Override
  public String toString() {
    if (error != null) {
      return "retry(" + error + ")";
    }
    return requeueAfter == null ? "done" : "requeueAfter(" + requeueAfter.toMillis() + "ms)";
  }
}
