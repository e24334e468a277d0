package io.rollgate.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.rollgate.kube.KubeApiException;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReconcilesTest {

  private static final ReconcileContext CTX =
      new ReconcileContext("Rollout", "shop", "web", 1, "test", Instant.EPOCH);

  @Test
  void aConflictRequeuesAtOnce() {
    KubeApiException conflict =
        new KubeApiException("patch", "rollouts/status", 409, "the object has been modified", null);
    ReconcileOutcome o = Reconciles.guarded(CTX, () -> Future.failedFuture(conflict)).result();

    assertEquals(Duration.ZERO, o.requeueDelay());
    assertEquals(null, o.error());
  }

  @Test
  void anyOtherFailureIsARetry() {
    KubeApiException forbidden =
        new KubeApiException("patch", "rollouts/status", 403, "forbidden", null);
    assertSame(
        forbidden, Reconciles.guarded(CTX, () -> Future.failedFuture(forbidden)).result().error());
    IllegalStateException thrown = new IllegalStateException("bug");
    assertSame(
        thrown,
        Reconciles.guarded(
                CTX,
                () -> {
                  throw thrown;
                })
            .result()
            .error());
  }

  @Test
  void anOutcomePassesThrough() {
    ReconcileOutcome later = ReconcileOutcome.requeueAfter(Duration.ofSeconds(5));
    assertSame(later, Reconciles.guarded(CTX, () -> Future.succeededFuture(later)).result());
  }
}
