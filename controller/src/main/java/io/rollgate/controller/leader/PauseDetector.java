package io.rollgate.controller.leader;

import io.rollgate.kube.lease.WriteFence;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices that the whole process stood still (a long GC pause, a stopped or starved VM, SIGSTOP): a
 * periodic timer that fires much later than due. It then logs how long the pause was and which
 * writes had left the fence but were not answered when it began ({@link
 * WriteFence#inFlightAcross}): those may reach the API server after the pause, even after another
 * replica took the Lease, as requests delayed by the network would (docs/reliability.md).
 */
public final class PauseDetector {

  private static final Logger LOG = LoggerFactory.getLogger(PauseDetector.class);

  /** The log line's start, which the fault tests look for. */
  public static final String PAUSED = "process paused for";

  private final WriteFence fence;
  private final LongSupplier nanoTime;
  private final long periodNanos;
  private final long thresholdNanos;
  private long last;

  /**
   * Creates the detector (not started).
   *
   * @param fence the write fence whose in-flight writes are reported
   * @param periodMillis how often the timer fires (ms)
   * @param thresholdMillis how late a tick must be to count as a pause (ms)
   * @param nanoTime the monotonic clock
   */
  public PauseDetector(
      WriteFence fence, long periodMillis, long thresholdMillis, LongSupplier nanoTime) {
    this.fence = fence;
    this.nanoTime = nanoTime;
    this.periodNanos = periodMillis * 1_000_000L;
    this.thresholdNanos = thresholdMillis * 1_000_000L;
  }

  /**
   * Starts the periodic timer.
   *
   * @param vertx the Vert.x instance whose timer is used
   * @return the timer id
   */
  public long start(Vertx vertx) {
    last = nanoTime.getAsLong();
    return vertx.setPeriodic(periodNanos / 1_000_000L, id -> tick());
  }

  /**
   * One timer tick: compares the time since the last tick with the period.
   *
   * @return the writes in flight at the start of a pause just detected, or null when there was none
   */
  List<String> tick() {
    long now = nanoTime.getAsLong();
    long late = now - last - periodNanos;
    long before = last;
    last = now;
    if (late < thresholdNanos) {
      return null;
    }
    // The pause began after the last tick and no later than (now - late): the process was frozen
    // from its start until this tick, and the tick was due at most one period after the last.
    List<String> inFlight = fence.inFlightAcross(before, now - late);
    LOG.warn(
        "{} {} ms (GC, CPU starvation or a stopped process); writes sent before and not answered then, which may reach"
            + " the API server late: {}",
        PAUSED,
        late / 1_000_000L,
        inFlight.isEmpty() ? "none" : String.join(", ", inFlight));
    return inFlight;
  }
}
