package io.rollgate.kube;

import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The low-priority calls of one token bucket, first come, first served: each starts only when the
 * bucket has a token that no other call waits for ({@link TokenBucket#takeIfIdle()}), so they never
 * delay a call that reserved its token.
 *
 * <p>Used for Event writes ({@link KubeCalls}): while ReplicaSet, Service or Lease writes use the
 * whole {@code --qps} budget of the Kubernetes client, Events wait; they are written as soon as the
 * budget has room. One timer at a time waits for the next free token, however many calls wait.
 * Thread-safe.
 */
final class IdleLane {

  private final Vertx vertx;
  private final TokenBucket bucket;
  private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
  private boolean timerSet;

  /**
   * Creates an empty lane.
   *
   * @param vertx the Vert.x instance whose timer waits for the next free token
   * @param bucket the bucket the calls take their tokens from
   */
  IdleLane(Vertx vertx, TokenBucket bucket) {
    this.vertx = vertx;
    this.bucket = bucket;
  }

  /**
   * Starts a call now when the bucket has an idle token and no earlier low-priority call waits;
   * otherwise queues it behind those.
   *
   * @param start starts the call; run on the caller's thread or on the timer's event loop
   */
  void submit(Runnable start) {
    synchronized (this) {
      if (!waiting.isEmpty()) {
        waiting.add(start);
        return;
      }
      long wait = bucket.takeIfIdle();
      if (wait != 0) {
        waiting.add(start);
        arm(wait);
        return;
      }
    }
    start.run();
  }

  /**
   * Whether a call submitted now would start at once: no call waits in the lane and the bucket has
   * a token no one waits for. A snapshot; another thread may take the token first.
   *
   * @return true when the lane is empty and the bucket holds at least one token
   */
  synchronized boolean idle() {
    return waiting.isEmpty() && bucket.available() >= 1;
  }

  /**
   * How many calls wait; for tests and diagnostics.
   *
   * @return the number of queued calls
   */
  synchronized int waiting() {
    return waiting.size();
  }

  private void drain() {
    List<Runnable> ready = new ArrayList<>();
    synchronized (this) {
      timerSet = false;
      while (!waiting.isEmpty()) {
        long wait = bucket.takeIfIdle();
        if (wait != 0) {
          arm(wait);
          break;
        }
        ready.add(waiting.poll());
      }
    }
    ready.forEach(Runnable::run);
  }

  /** Sets the timer for the next free token, unless one is set. Called holding the lock. */
  private void arm(long waitNanos) {
    if (timerSet) {
      return;
    }
    timerSet = true;
    vertx.setTimer(Math.max(1, (waitNanos + 999_999) / 1_000_000), id -> drain());
  }
}
