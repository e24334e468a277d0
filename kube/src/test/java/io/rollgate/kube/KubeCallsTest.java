package io.rollgate.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class KubeCallsTest {

  final Vertx vertx = Vertx.vertx();
  final List<String> requests = new CopyOnWriteArrayList<>();
  final AtomicLong throttledNanos = new AtomicLong();
  final ApiCallMetrics metrics =
      new ApiCallMetrics() {
        @Override
        public void apiRequest(String verb, String resource, String statusCode) {
          requests.add(verb + " " + resource + " " + statusCode);
        }

        @Override
        public void throttled(long nanos) {
          throttledNanos.addAndGet(nanos);
        }
      };

  @AfterEach
  void close() {
    vertx.close();
  }

  KubeCalls calls(Duration timeout, TokenBucket limiter, boolean timeoutAsApiError) {
    return new KubeCalls(
        vertx,
        null,
        "test-kube-api",
        2,
        timeout,
        limiter == null ? null : RequestBudgets.shared(limiter),
        metrics,
        timeoutAsApiError);
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  static Throwable failure(Future<?> f) throws Exception {
    try {
      await(f);
    } catch (ExecutionException e) {
      return e.getCause();
    }
    throw new AssertionError("the call succeeded");
  }

  @Test
  void apiErrorsCarryTheHttpCode_andAreCountedByIt() throws Exception {
    KubeCalls calls = calls(Duration.ofSeconds(5), null, true);
    Throwable err =
        failure(
            calls.call(
                "patch",
                "secrets",
                () -> {
                  throw new KubernetesClientException("stale", 409, null);
                }));
    KubeApiException k = assertInstanceOf(KubeApiException.class, err);
    assertEquals(409, k.code());
    assertTrue(KubeApiException.isConflict(err));
    assertEquals(List.of("patch secrets 409"), requests);
  }

  @Test
  void aCallThatOutlivesTheTimeoutFailsWithAnApiErrorOfCodeZero() throws Exception {
    KubeCalls calls = calls(Duration.ofMillis(100), null, true);
    CountDownLatch never = new CountDownLatch(1);
    try {
      Throwable err =
          failure(calls.call("get", "secrets", () -> never.await(10, TimeUnit.SECONDS)));
      KubeApiException k = assertInstanceOf(KubeApiException.class, err);
      assertEquals(0, k.code());
      assertTrue(k.getMessage().contains("timed out after 100 ms"), k.getMessage());
      assertEquals(List.of("get secrets timeout"), requests);
    } finally {
      never.countDown();
    }
  }

  @Test
  void aTimeoutStaysATimeoutException_whenNotMappedToAnApiError() throws Exception {
    KubeCalls calls = calls(Duration.ofMillis(100), null, false);
    CountDownLatch never = new CountDownLatch(1);
    try {
      assertInstanceOf(
          TimeoutException.class,
          failure(calls.call("get", "pods", () -> never.await(10, TimeUnit.SECONDS))));
      assertEquals(List.of("get pods timeout"), requests);
    } finally {
      never.countDown();
    }
  }

  @Test
  void afterTheFenceWritesAreRefusedUnsent_whileReadsStillGo() throws Exception {
    KubeCalls calls = calls(Duration.ofSeconds(5), null, true);
    calls.fence("shutting down");
    AtomicBoolean sent = new AtomicBoolean();
    Throwable err =
        failure(
            calls.call(
                "patch",
                "rolloutpolicies/status",
                () -> {
                  sent.set(true);
                  return "x";
                }));
    assertTrue(err.getMessage().contains("refused: shutting down"), err.getMessage());
    assertEquals(0, ((KubeApiException) err).code());
    assertFalse(sent.get());
    assertEquals("read", await(calls.call("get", "rolloutpolicies", () -> "read")));
  }

  @Test
  void theGuardRefusesOnlyTheWritesItNames() throws Exception {
    KubeCalls calls = calls(Duration.ofSeconds(5), null, true);
    calls.guardWrites(resource -> !resource.startsWith("rolloutpolicies"));
    Throwable err = failure(calls.call("patch", "rolloutpolicies/status", () -> "x"));
    assertTrue(
        err.getMessage().contains("does not certainly hold the leader Lease"), err.getMessage());
    assertEquals("ok", await(calls.call("patch", "secrets", () -> "ok")));
  }

  @Test
  void theGuardIsAskedAgainAfterTheRateLimiterWait_soAWriteQueuedWhileLeadingIsNotSentAfterTheLoss()
      throws Exception {
    // One token, refilled at 5 per second: the second call waits about 200 ms on a timer.
    KubeCalls calls = calls(Duration.ofSeconds(5), new TokenBucket(5, 1, System::nanoTime), true);
    AtomicBoolean leading = new AtomicBoolean(true);
    calls.guardWrites(resource -> leading.get());
    assertEquals("first", await(calls.call("patch", "secrets", () -> "first")));
    AtomicBoolean sent = new AtomicBoolean();
    Future<String> second =
        calls.call(
            "patch",
            "secrets",
            () -> {
              sent.set(true);
              return "second";
            });
    leading.set(false);
    Throwable err = failure(second);
    assertTrue(err.getMessage().contains("refused"), err.getMessage());
    assertFalse(sent.get());
    assertTrue(throttledNanos.get() > 0, "the wait is recorded");
    assertEquals(List.of("patch secrets 200", "patch secrets refused"), requests);
  }

  @Test
  void eventWritesWaitForIdleBudget_soTheyNeverDelayAWriteThatReservedItsToken() throws Exception {
    // One token, refilled at 10 per second.
    KubeCalls calls = calls(Duration.ofSeconds(5), new TokenBucket(10, 1, System::nanoTime), true);
    List<String> sent = new CopyOnWriteArrayList<>();
    // The token goes to a ReplicaSet write; then two Events and two more ReplicaSet writes come.
    Future<String> rs1 = calls.call("patch", "replicasets", () -> add(sent, "rs1"));
    Future<String> ev1 = calls.call("create", "events", () -> add(sent, "ev1"));
    Future<String> ev2 = calls.call("create", "events", () -> add(sent, "ev2"));
    Future<String> rs2 = calls.call("patch", "replicasets", () -> add(sent, "rs2"));
    Future<String> rs3 = calls.call("patch", "replicasets", () -> add(sent, "rs3"));
    for (Future<String> f : List.of(rs1, ev1, ev2, rs2, rs3)) {
      await(f);
    }
    // The ReplicaSet writes reserved the next tokens; the Events, in their own order, come after.
    assertEquals(List.of("rs1", "rs2", "rs3", "ev1", "ev2"), sent);
    assertTrue(throttledNanos.get() > 0, "the Events' wait is recorded");
  }

  private static String add(List<String> sent, String name) {
    sent.add(name);
    return name;
  }
}
