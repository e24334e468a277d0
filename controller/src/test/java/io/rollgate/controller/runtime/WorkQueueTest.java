package io.rollgate.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.Checkpoint;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class WorkQueueTest {

  private static final Duration BASE_DELAY = Duration.ofMillis(40);
  private static final Duration MAX_DELAY = Duration.ofSeconds(1);
  private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);

  @Test
  void rejectsFewerThanOneWorker(Vertx vertx) {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new WorkQueue(
                vertx,
                "Rollout",
                ctx -> done(),
                0,
                BASE_DELAY,
                MAX_DELAY,
                RUN_TIMEOUT,
                Clock.systemUTC()));
  }

  @Test
  void runsKeyOnce_whenAddedManyTimesWhileQueued(Vertx vertx, VertxTestContext test) {
    AtomicReference<WorkQueue> queue = new AtomicReference<>();
    Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    queue.set(
        queue(
            vertx,
            ctx -> {
              runs.computeIfAbsent(ctx.key(), k -> new AtomicInteger()).incrementAndGet();
              switch (ctx.name()) {
                case "blocker":
                  // the only worker is busy: every add of "a" lands while "a" waits in the queue
                  for (int i = 0; i < 10; i++) {
                    queue.get().add("shop/a", "watch");
                  }
                  queue.get().add("shop/sentinel", "watch");
                  return onContext(vertx, ReconcileOutcome.done());
                case "sentinel":
                  // FIFO: a second copy of "a" would have run before the sentinel
                  test.verify(
                      () -> {
                        assertEquals(1, runs.get("shop/a").get());
                        assertEquals(1, runs.get("shop/blocker").get());
                      });
                  test.completeNow();
                  return done();
                default:
                  return done();
              }
            },
            1));
    queue.get().add("shop/blocker", "watch");
  }

  @Test
  void runsAgainExactlyOnce_whenAddedWhileRunning(Vertx vertx, VertxTestContext test) {
    AtomicReference<WorkQueue> queue = new AtomicReference<>();
    List<String> triggers = new CopyOnWriteArrayList<>();
    queue.set(
        queue(
            vertx,
            ctx -> {
              triggers.add(ctx.trigger());
              if (triggers.size() == 1) {
                for (int i = 0; i < 5; i++) {
                  queue.get().add("shop/a", i == 0 ? "resync" : "watch");
                }
                // completes after the adds above were handled, so all of them saw the key running
                return onContext(vertx, ReconcileOutcome.done());
              }
              if (triggers.size() == 2) {
                vertx.setTimer(
                    300,
                    t -> {
                      test.verify(() -> assertEquals(List.of("watch", "resync"), triggers));
                      test.completeNow();
                    });
              }
              return done();
            },
            4));
    queue.get().add("shop/a", "watch");
  }

  @Test
  void neverRunsOneKeyConcurrently(Vertx vertx, VertxTestContext test) {
    AtomicReference<WorkQueue> queue = new AtomicReference<>();
    Map<String, AtomicInteger> active = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    queue.set(
        queue(
            vertx,
            ctx -> {
              int now =
                  active.computeIfAbsent(ctx.key(), k -> new AtomicInteger()).incrementAndGet();
              runs.computeIfAbsent(ctx.key(), k -> new AtomicInteger()).incrementAndGet();
              if (now > 1) {
                test.failNow(new AssertionError(now + " concurrent runs of " + ctx.key()));
              }
              if (!test.failed() && !test.completed()) {
                // keys re-add themselves while running, as an informer event during a reconcile
                // would
                queue.get().add(ctx.key(), "watch");
              }
              Promise<ReconcileOutcome> p = Promise.promise();
              vertx.setTimer(
                  15,
                  t -> {
                    active.get(ctx.key()).decrementAndGet();
                    p.complete(ReconcileOutcome.done());
                  });
              return p.future();
            },
            4));
    AtomicInteger ticks = new AtomicInteger();
    vertx.setPeriodic(
        5,
        id -> {
          int tick = ticks.incrementAndGet();
          queue.get().add("shop/a", "watch");
          queue.get().add("shop/" + (tick % 3 == 0 ? "a" : "b"), "resync");
          queue.get().addAfter("shop/a", Duration.ofMillis(tick % 7), "timer");
          AtomicInteger runsOfA = runs.get("shop/a");
          if (tick >= 40 && runsOfA != null && runsOfA.get() >= 5) {
            vertx.cancelTimer(id);
            queue
                .get()
                .shutdown()
                .onComplete(
                    test.succeeding(
                        v -> {
                          test.verify(
                              () -> {
                                assertTrue(
                                    runs.get("shop/b").get() >= 1,
                                    "runs of b: " + runs.get("shop/b"));
                                assertEquals(0, active.get("shop/a").get());
                              });
                          test.completeNow();
                        }));
          }
        });
  }

  @Test
  void runsAtMostWorkersKeysAtOnce(Vertx vertx, VertxTestContext test) {
    AtomicInteger active = new AtomicInteger();
    AtomicInteger maxActive = new AtomicInteger();
    AtomicInteger finished = new AtomicInteger();
    int keys = 8;
    Reconciler reconciler =
        ctx -> {
          int now = active.incrementAndGet();
          maxActive.accumulateAndGet(now, Math::max);
          Promise<ReconcileOutcome> p = Promise.promise();
          vertx.setTimer(
              60,
              t -> {
                active.decrementAndGet();
                p.complete(ReconcileOutcome.done());
                if (finished.incrementAndGet() == keys) {
                  test.verify(() -> assertEquals(3, maxActive.get()));
                  test.completeNow();
                }
              });
          return p.future();
        };
    // created and fed on one context, so all keys are queued before any run can finish
    vertx.runOnContext(
        v -> {
          WorkQueue queue = queue(vertx, reconciler, 3);
          for (int i = 0; i < keys; i++) {
            queue.add("shop/k" + i, "watch");
          }
        });
  }

  @Test
  void retriesFailuresWithGrowingBackoff(Vertx vertx, VertxTestContext test) {
    List<Long> starts = new CopyOnWriteArrayList<>();
    List<String> triggers = new CopyOnWriteArrayList<>();
    queue(
            vertx,
            ctx -> {
              starts.add(System.nanoTime());
              triggers.add(ctx.trigger());
              switch (starts.size()) {
                case 1:
                  return Future.failedFuture(new IllegalStateException("failed future"));
                case 2:
                  throw new IllegalStateException("thrown");
                case 3:
                  return Future.succeededFuture(
                      ReconcileOutcome.retry(new IllegalStateException("retry outcome")));
                case 4:
                  return Future.failedFuture(new IllegalStateException("again"));
                default:
                  test.verify(
                      () -> {
                        assertEquals(
                            List.of("watch", "retry", "retry", "retry", "retry"), triggers);
                        long[] gaps = gapsMillis(starts);
                        for (int i = 0; i < gaps.length; i++) {
                          long nominal = BASE_DELAY.toMillis() << i;
                          assertTrue(
                              gaps[i] >= nominal * 9 / 10,
                              "gap " + i + " " + gaps[i] + "ms < " + nominal);
                        }
                        for (int i = 1; i < gaps.length; i++) {
                          // non-decreasing, with room for a late timer on a loaded machine
                          assertTrue(
                              gaps[i] + 250 >= gaps[i - 1],
                              "gaps shrink: " + Arrays.toString(gaps));
                        }
                      });
                  test.completeNow();
                  return done();
              }
            },
            1)
        .add("shop/a", "watch");
  }

  @Test
  void capsBackoffAtMaxDelay(Vertx vertx, VertxTestContext test) {
    List<Long> starts = new CopyOnWriteArrayList<>();
    new WorkQueue(
            vertx,
            "Rollout",
            ctx -> {
              starts.add(System.nanoTime());
              if (starts.size() <= 6) {
                return Future.failedFuture(new IllegalStateException("boom"));
              }
              test.verify(
                  () -> {
                    long[] gaps = gapsMillis(starts);
                    // uncapped, the sixth delay would be 20ms * 2^5 = 640ms
                    assertTrue(gaps[5] >= 45 && gaps[5] < 600, "sixth gap " + gaps[5] + "ms");
                  });
              test.completeNow();
              return done();
            },
            1,
            Duration.ofMillis(20),
            Duration.ofMillis(50),
            RUN_TIMEOUT,
            Clock.systemUTC())
        .add("shop/a", "watch");
  }

  @Test
  void forgetsFailures_afterSuccess(Vertx vertx, VertxTestContext test) {
    List<Long> starts = new CopyOnWriteArrayList<>();
    AtomicReference<WorkQueue> queue = new AtomicReference<>();
    queue.set(
        new WorkQueue(
            vertx,
            "Rollout",
            ctx -> {
              starts.add(System.nanoTime());
              switch (starts.size()) {
                case 1:
                case 2:
                case 3:
                  return Future.failedFuture(new IllegalStateException("boom"));
                case 4:
                  queue.get().add("shop/a", "watch");
                  return done();
                case 5:
                  return Future.failedFuture(new IllegalStateException("boom"));
                default:
                  test.verify(
                      () -> {
                        long[] gaps = gapsMillis(starts);
                        // third delay 4 * 80ms; after the success the next one is back at 80ms, not
                        // 8 * 80ms
                        assertTrue(gaps[2] >= 288, "third gap " + gaps[2]);
                        assertTrue(
                            gaps[4] >= 72 && gaps[4] < 500, "first gap after success " + gaps[4]);
                      });
                  test.completeNow();
                  return done();
              }
            },
            1,
            Duration.ofMillis(80),
            Duration.ofSeconds(5),
            RUN_TIMEOUT,
            Clock.systemUTC()));
    queue.get().add("shop/a", "watch");
  }

  @Test
  void runsKeyAgain_whenReconcilerAsksForRequeueAfter(Vertx vertx, VertxTestContext test) {
    List<Long> starts = new CopyOnWriteArrayList<>();
    List<String> triggers = new CopyOnWriteArrayList<>();
    queue(
            vertx,
            ctx -> {
              starts.add(System.nanoTime());
              triggers.add(ctx.trigger());
              if (starts.size() == 1) {
                return Future.succeededFuture(
                    ReconcileOutcome.requeueAfter(Duration.ofMillis(150)));
              }
              test.verify(
                  () -> {
                    assertEquals(List.of("watch", "timer"), triggers);
                    assertTrue(
                        gapsMillis(starts)[0] >= 135,
                        "requeued after " + gapsMillis(starts)[0] + "ms");
                  });
              test.completeNow();
              return done();
            },
            2)
        .add("shop/a", "watch");
  }

  @Test
  void keepsEarliestTimer_whenAddedAfterTwice(Vertx vertx, VertxTestContext test) {
    Map<String, List<String>> triggers = new ConcurrentHashMap<>();
    long start = System.nanoTime();
    Map<String, Long> firstRunMillis = new ConcurrentHashMap<>();
    WorkQueue queue =
        queue(
            vertx,
            ctx -> {
              triggers
                  .computeIfAbsent(ctx.key(), k -> new CopyOnWriteArrayList<>())
                  .add(ctx.trigger());
              firstRunMillis.putIfAbsent(ctx.key(), (System.nanoTime() - start) / 1_000_000);
              return done();
            },
            2);
    // a: the earlier timer comes second and replaces the later one
    queue.addAfter("shop/a", Duration.ofMillis(600), "late");
    queue.addAfter("shop/a", Duration.ofMillis(100), "early");
    // b: the later timer comes second and is ignored
    queue.addAfter("shop/b", Duration.ofMillis(100), "early");
    queue.addAfter("shop/b", Duration.ofMillis(600), "late");
    vertx.setTimer(
        1_000,
        t -> {
          test.verify(
              () -> {
                assertEquals(List.of("early"), triggers.get("shop/a"));
                assertEquals(List.of("early"), triggers.get("shop/b"));
                assertTrue(
                    firstRunMillis.get("shop/a") >= 90,
                    "a ran after " + firstRunMillis.get("shop/a"));
                assertTrue(
                    firstRunMillis.get("shop/b") >= 90,
                    "b ran after " + firstRunMillis.get("shop/b"));
              });
          test.completeNow();
        });
  }

  @Test
  void runsAtOnce_whenAddedAfterNonPositiveDelay(Vertx vertx, VertxTestContext test) {
    Checkpoint ran = test.checkpoint(2);
    WorkQueue queue =
        queue(
            vertx,
            ctx -> {
              test.verify(() -> assertEquals("now", ctx.trigger()));
              ran.flag();
              return done();
            },
            2);
    queue.addAfter("shop/a", Duration.ZERO, "now");
    queue.addAfter("shop/b", Duration.ofMillis(-5), "now");
  }

  @Test
  void passesNamespaceNameAndTriggerToReconciler(Vertx vertx, VertxTestContext test) {
    queue(
            vertx,
            ctx -> {
              test.verify(
                  () -> {
                    assertEquals("Rollout", ctx.kind());
                    assertEquals("shop", ctx.namespace());
                    assertEquals("web", ctx.name());
                    assertEquals("resync", ctx.trigger());
                  });
              test.completeNow();
              return done();
            },
            1)
        .add("shop/web", "resync");
  }

  @Test
  void completesShutdownAfterRunsInFlight_andRunsNothingAfterwards(
      Vertx vertx, VertxTestContext test) {
    AtomicReference<WorkQueue> queue = new AtomicReference<>();
    AtomicInteger started = new AtomicInteger();
    AtomicInteger finished = new AtomicInteger();
    List<String> keys = new CopyOnWriteArrayList<>();
    queue.set(
        queue(
            vertx,
            ctx -> {
              keys.add(ctx.key());
              if (started.incrementAndGet() == 2) {
                // both workers busy: queue more work of every kind, then shut down
                queue.get().add("shop/c", "watch");
                queue.get().addAfter("shop/d", Duration.ofMillis(30), "timer");
                queue.get().add("shop/a", "watch");
                vertx.runOnContext(
                    v -> {
                      Future<Void> shutdown = queue.get().shutdown();
                      queue.get().add("shop/e", "watch");
                      queue.get().addAfter("shop/f", Duration.ofMillis(10), "timer");
                      shutdown.onComplete(
                          test.succeeding(
                              x -> {
                                test.verify(
                                    () ->
                                        assertEquals(
                                            2, finished.get(), "runs finished before shutdown"));
                                vertx.setTimer(
                                    300, t -> assertOnlyRan(test, keys, "shop/a", "shop/b"));
                              }));
                    });
              }
              Promise<ReconcileOutcome> p = Promise.promise();
              vertx.setTimer(
                  150,
                  t -> {
                    finished.incrementAndGet();
                    // a failure and a requeue would both normally bring the key back
                    p.complete(
                        ctx.name().equals("a")
                            ? ReconcileOutcome.retry(new IllegalStateException("boom"))
                            : ReconcileOutcome.requeueAfter(Duration.ofMillis(10)));
                  });
              return p.future();
            },
            2));
    queue.get().add("shop/a", "watch");
    queue.get().add("shop/b", "watch");
  }

  @Test
  void completesShutdownAtOnce_whenIdle(Vertx vertx, VertxTestContext test) {
    WorkQueue queue = queue(vertx, ctx -> done(), 1);
    queue.shutdown().onComplete(test.succeedingThenComplete());
  }

  // ---------------------------------------------------------------------------------------------------------------

  private static WorkQueue queue(Vertx vertx, Reconciler reconciler, int workers) {
    return new WorkQueue(
        vertx,
        "Rollout",
        reconciler,
        workers,
        BASE_DELAY,
        MAX_DELAY,
        RUN_TIMEOUT,
        Clock.systemUTC());
  }

  private static Future<ReconcileOutcome> done() {
    return Future.succeededFuture(ReconcileOutcome.done());
  }

  /** Completes on a later turn of the current context, after the tasks already queued on it. */
  private static Future<ReconcileOutcome> onContext(Vertx vertx, ReconcileOutcome outcome) {
    Promise<ReconcileOutcome> p = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> p.complete(outcome));
    return p.future();
  }

  private static void assertOnlyRan(VertxTestContext test, List<String> ran, String... keys) {
    test.verify(() -> assertEquals(List.of(keys), ran.stream().sorted().toList()));
    test.completeNow();
  }

  private static long[] gapsMillis(List<Long> nanos) {
    long[] gaps = new long[nanos.size() - 1];
    for (int i = 1; i < nanos.size(); i++) {
      gaps[i - 1] = (nanos.get(i) - nanos.get(i - 1)) / 1_000_000;
    }
    return gaps;
  }
}
