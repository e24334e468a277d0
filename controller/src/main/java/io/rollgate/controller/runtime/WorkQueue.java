package io.rollgate.controller.runtime;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rate-limited work queue of {@code namespace/name} keys in front of one {@link Reconciler}.
 *
 * <p>Guarantees, as a Kubernetes controller's work queue does: a key waiting in the queue is held
 * once however often it is added; a key is never reconciled by two runs at once (an add during a
 * run marks it dirty and it runs again right after); at most {@code workers} runs are in flight; a
 * failed run re-queues its key with per-key exponential backoff ({@code baseDelay} doubling up to
 * {@code maxDelay}); {@link #addAfter(String, Duration, String)} is a Vert.x timer, never a
 * sleeping thread, and keeps only the earliest timer per key.
 *
 * <p>All state lives on one Vert.x context; {@link #add(String, String)} may be called from any
 * thread (informer callbacks) and hops onto that context.
 */
public final class WorkQueue {

  /** The first retry delay after a failure, of {@link #withDefaultBackoff}. */
  public static final Duration DEFAULT_BASE_DELAY = Duration.ofMillis(5);

  /** The cap of the exponential retry delay, of {@link #withDefaultBackoff}. */
  public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(WorkQueue.class);

  private final Vertx vertx;
  private final Context context;
  private final String kind;
  private final Reconciler reconciler;
  private final int workers;
  private final Duration baseDelay;
  private final Duration maxDelay;
  private final Duration runTimeout;
  private final Clock clock;
  private final AtomicLong runIds = new AtomicLong();

  private final ArrayDeque<String> ready = new ArrayDeque<>();
  private final Map<String, String> queuedTriggers = new HashMap<>();
  private final Set<String> running = new HashSet<>();
  private final Map<String, String> dirty = new HashMap<>();
  private final Map<String, Timer> timers = new HashMap<>();
  private final Map<String, Integer> failures = new LinkedHashMap<>();
  private boolean stopped;
  private boolean held;
  private Promise<Void> drained;
  private RunObserver observer = (ctx, nanos, failed) -> {};
  private volatile int depthSnapshot;
  private volatile int inFlightSnapshot;

  /** Observes every finished run, for metrics. Called on the queue's context; must not block. */
  @FunctionalInterface
  public interface RunObserver {
    /**
     * Called once per finished run.
     *
     * @param ctx the run's context (kind, namespace, name)
     * @param nanos how long the run took, in nanoseconds
     * @param failed whether it failed (and is retried with backoff)
     */
    void finished(ReconcileContext ctx, long nanos, boolean failed);
  }

  private record Timer(long id, Instant due) {}

  /**
   * Creates a queue bound to the caller's Vert.x context (or a new one when called off-context).
   *
   * @param vertx the Vert.x instance
   * @param kind the kind reconciled, used in logs and metrics
   * @param reconciler the reconciler to run
   * @param workers the maximum number of concurrent runs (Argo's {@code --rollout-threads}, default
   *     10)
   * @param baseDelay the first retry delay after a failure
   * @param maxDelay the cap of the exponential retry delay
   * @param runTimeout the time after which a run still in flight is reported in the log (it keeps
   *     its key)
   * @param clock the clock
   */
  public WorkQueue(
      Vertx vertx,
      String kind,
      Reconciler reconciler,
      int workers,
      Duration baseDelay,
      Duration maxDelay,
      Duration runTimeout,
      Clock clock) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be at least 1, got " + workers);
    }
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.kind = kind;
    this.reconciler = reconciler;
    this.workers = workers;
    this.baseDelay = baseDelay;
    this.maxDelay = maxDelay;
    this.runTimeout = runTimeout;
    this.clock = clock;
  }

  /**
   * Creates a queue with the controllers' retry backoff: 5 ms after the first failure, doubling up
   * to 10 s.
   *
   * @param vertx the Vert.x instance
   * @param kind the kind reconciled, used in logs and metrics
   * @param reconciler the reconciler to run
   * @param workers the maximum number of concurrent runs ({@code --rollout-threads}, {@code
   *     --analysis-threads}, {@code --experiment-threads})
   * @param runTimeout the time after which a run still in flight is reported in the log
   * @param clock the clock
   * @return the queue, bound to the caller's Vert.x context
   * @throws IllegalArgumentException when {@code workers} is below 1
   */
  public static WorkQueue withDefaultBackoff(
      Vertx vertx,
      String kind,
      Reconciler reconciler,
      int workers,
      Duration runTimeout,
      Clock clock) {
    return new WorkQueue(
        vertx, kind, reconciler, workers, DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY, runTimeout, clock);
  }

  /**
   * Queues a key now; safe from any thread.
   *
   * @param key {@code namespace/name}
   * @param trigger why: {@code watch}, {@code resync}, ...
   */
  public void add(String key, String trigger) {
    context.runOnContext(v -> addOnContext(key, trigger));
  }

  /**
   * Queues a key after a delay; safe from any thread. An earlier pending timer for the key wins
   * over a later one.
   *
   * @param key {@code namespace/name}
   * @param delay the delay; zero or negative queues now
   * @param trigger why, for logs
   */
  public void addAfter(String key, Duration delay, String trigger) {
    context.runOnContext(v -> addAfterOnContext(key, delay, trigger));
  }

  /**
   * Returns the number of keys waiting to run (not counting keys running or waiting on a timer);
   * safe from any thread.
   *
   * @return the queue depth, in keys
   */
  public int depth() {
    return depthSnapshot;
  }

  /**
   * Returns the number of runs in flight; safe from any thread.
   *
   * @return runs in flight
   */
  public int inFlight() {
    return inFlightSnapshot;
  }

  /**
   * Sets the observer of finished runs (metrics). Call before keys are added.
   *
   * @param observer the observer
   */
  public void observe(RunObserver observer) {
    this.observer = observer;
  }

  /**
   * Stops starting runs while keys keep being collected (deduplicated, timers kept): a standby that
   * is not the leader, or a leader that just lost its Lease. Runs in flight are not interrupted.
   * Takes effect before the next dispatch when called on the queue's context (synchronously),
   * otherwise as soon as the context runs it.
   */
  public void hold() {
    onContext(() -> held = true);
  }

  /** Starts running the collected keys (after {@link #hold()}): this process became the leader. */
  public void resume() {
    onContext(
        () -> {
          held = false;
          dispatch();
        });
  }

  /**
   * Whether the queue currently holds its keys.
   *
   * @return true while held
   */
  public boolean isHeld() {
    return held;
  }

  private void onContext(Runnable action) {
    if (Vertx.currentContext() == context) {
      action.run();
    } else {
      context.runOnContext(v -> action.run());
    }
  }

  private void publish() {
    depthSnapshot = ready.size();
    inFlightSnapshot = running.size();
  }

  /**
   * Stops taking keys: cancels timers and completes when the runs in flight have finished.
   *
   * @return a Future completing once no run is in flight
   */
  public Future<Void> shutdown() {
    Promise<Void> promise = Promise.promise();
    context.runOnContext(
        v -> {
          stopped = true;
          timers.values().forEach(t -> vertx.cancelTimer(t.id()));
          timers.clear();
          ready.clear();
          queuedTriggers.clear();
          publish();
          if (running.isEmpty()) {
            promise.complete();
          } else {
            drained = promise;
          }
        });
    return promise.future();
  }

  private void addOnContext(String key, String trigger) {
    if (stopped) {
      return;
    }
    if (running.contains(key)) {
      dirty.putIfAbsent(key, trigger);
      return;
    }
    if (queuedTriggers.putIfAbsent(key, trigger) == null) {
      ready.addLast(key);
    }
    dispatch();
  }

  private void addAfterOnContext(String key, Duration delay, String trigger) {
    if (stopped) {
      return;
    }
    if (delay.isZero() || delay.isNegative()) {
      addOnContext(key, trigger);
      return;
    }
    Instant due = clock.instant().plus(delay);
    Timer existing = timers.get(key);
    if (existing != null) {
      if (!existing.due().isAfter(due)) {
        return;
      }
      vertx.cancelTimer(existing.id());
    }
    long id =
        vertx.setTimer(
            Math.max(1, delay.toMillis()),
            t -> {
              Timer current = timers.get(key);
              if (current != null && current.id() == t) {
                timers.remove(key);
                addOnContext(key, trigger);
              }
            });
    timers.put(key, new Timer(id, due));
  }

  private void dispatch() {
    while (!stopped && !held && running.size() < workers && !ready.isEmpty()) {
      String key = ready.pollFirst();
      String trigger = queuedTriggers.remove(key);
      running.add(key);
      run(key, trigger);
    }
    publish();
  }

  private void run(String key, String trigger) {
    int slash = key.indexOf('/');
    ReconcileContext ctx =
        new ReconcileContext(
            kind,
            key.substring(0, slash),
            key.substring(slash + 1),
            runIds.incrementAndGet(),
            trigger,
            clock.instant());
    long started = System.nanoTime();
    Future<ReconcileOutcome> result;
    try {
      result = reconciler.reconcile(ctx);
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    // The key stays exclusive until the run really ends (every API call it makes has its own
    // timeout); a run that takes longer than runTimeout is reported, not abandoned, so two runs of
    // one key never overlap.
    long watchdog =
        vertx.setTimer(
            Math.max(1, runTimeout.toMillis()),
            t -> LOG.warn("{} reconcile still running after {}ms", ctx, runTimeout.toMillis()));
    result.onComplete(
        ar -> {
          vertx.cancelTimer(watchdog);
          long took = System.nanoTime() - started;
          context.runOnContext(
              v -> {
                ReconcileOutcome outcome =
                    ar.succeeded() ? ar.result() : ReconcileOutcome.retry(ar.cause());
                try {
                  observer.finished(ctx, took, outcome.error() != null);
                } catch (RuntimeException e) {
                  LOG.debug("{} run observer failed", ctx, e);
                }
                finish(ctx, outcome);
              });
        });
  }

  private void finish(ReconcileContext ctx, ReconcileOutcome outcome) {
    String key = ctx.key();
    running.remove(key);
    if (outcome.error() != null) {
      int n = failures.merge(key, 1, Integer::sum);
      Duration delay = backoff(n);
      if (LOG.isDebugEnabled()) {
        LOG.debug(
            "{} reconcile failed attempt={} retryIn={}ms",
            ctx,
            n,
            delay.toMillis(),
            outcome.error());
      } else {
        LOG.warn(
            "{} reconcile failed attempt={} retryIn={}ms cause={}",
            ctx,
            n,
            delay.toMillis(),
            describe(outcome.error()));
      }
      addAfterOnContext(key, delay, "retry");
    } else {
      failures.remove(key);
      if (outcome.requeueDelay() != null) {
        addAfterOnContext(key, outcome.requeueDelay(), "timer");
      }
    }
    String again = dirty.remove(key);
    if (again != null) {
      addOnContext(key, again);
    }
    if (stopped && running.isEmpty() && drained != null) {
      drained.complete();
      drained = null;
    }
    dispatch();
  }

  private Duration backoff(int failuresSoFar) {
    long millis = baseDelay.toMillis();
    for (int i = 1; i < failuresSoFar && millis < maxDelay.toMillis(); i++) {
      millis *= 2;
    }
    return Duration.ofMillis(Math.min(millis, maxDelay.toMillis()));
  }

  private static String describe(Throwable t) {
    String msg = t.getMessage();
    return t.getClass().getSimpleName() + (msg == null ? "" : ": " + msg.replace('\n', ' '));
  }
}
