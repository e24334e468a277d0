package io.rollgate.kube;

import java.util.function.LongSupplier;

/**
 * A token bucket as client-go's {@code flowcontrol.NewTokenBucketRateLimiter(qps, burst)}: the
 * bucket holds up to {@code burst} tokens, refills at {@code qps} tokens per second, and every API
 * call takes one token.
 *
 * <p>It never blocks: {@link #reserve()} takes a token (possibly borrowing against the future, so
 * the balance may go negative) and returns how long the caller must wait before using it, like Go's
 * {@code rate.Limiter.Reserve}. The caller waits with a timer. Reservations are granted in call
 * order, so waiting callers are served first come, first served. Thread-safe.
 */
public final class TokenBucket {

  private static final double NANOS_PER_SECOND = 1_000_000_000d;

  private final double qps;
  private final double burst;
  private final LongSupplier nanoTime;
  private double tokens;
  private long last;

  /**
   * Creates a full bucket.
   *
   * @param qps the sustained rate, in calls per second ({@code --qps}, default 40); must be
   *     positive
   * @param burst the bucket size, in calls ({@code --burst}, default 80); must be at least 1
   * @param nanoTime a monotonic clock in nanoseconds ({@code System::nanoTime} outside tests)
   */
  public TokenBucket(double qps, int burst, LongSupplier nanoTime) {
    if (!(qps > 0)) {
      throw new IllegalArgumentException("qps must be positive, got " + qps);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, got " + burst);
    }
    this.qps = qps;
    this.burst = burst;
    this.nanoTime = nanoTime;
    this.tokens = burst;
    this.last = nanoTime.getAsLong();
  }

  /**
   * Takes one token.
   *
   * @return how long the caller must wait before making its call, in nanoseconds; 0 when a token
   *     was available
   */
  public synchronized long reserve() {
    long now = nanoTime.getAsLong();
    tokens = Math.min(burst, tokens + (now - last) / NANOS_PER_SECOND * qps);
    last = now;
    tokens -= 1;
    if (tokens >= 0) {
      return 0;
    }
    return (long) Math.ceil(-tokens / qps * NANOS_PER_SECOND);
  }

  /**
   * Takes one token only when one is there now, that is when no reserved call is waiting for the
   * tokens to come: the bucket's idle capacity, which low-priority calls use ({@link IdleLane}).
   *
   * @return 0 when a token was taken; otherwise, without taking one, how long until the balance
   *     reaches one token if nothing else reserves in the meantime, in nanoseconds (at least 1)
   */
  public synchronized long takeIfIdle() {
    long now = nanoTime.getAsLong();
    tokens = Math.min(burst, tokens + (now - last) / NANOS_PER_SECOND * qps);
    last = now;
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return Math.max(1, (long) Math.ceil((1 - tokens) / qps * NANOS_PER_SECOND));
  }

  /**
   * Returns the tokens currently available (negative while callers wait); for tests and
   * diagnostics.
   *
   * @return the balance, in tokens
   */
  public synchronized double available() {
    long now = nanoTime.getAsLong();
    return Math.min(burst, tokens + (now - last) / NANOS_PER_SECOND * qps);
  }
}
