package io.rollgate.webhook.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.kube.KubeApiException;
import io.rollgate.kube.KubeCalls;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fence as the webhook sets it: only the leader's writes wait for the Lease. No request reaches
 * a server here.
 */
class WebhookApiTest {

  final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close();
  }

  static Throwable failure(Future<?> f) throws Exception {
    try {
      f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    }
    throw new AssertionError("the call succeeded");
  }

  @Test
  void policyStatusWritesAreRefusedUnsentWithoutTheLease_certificateWritesAreNot()
      throws Exception {
    // No client: a call that is not refused fails when it tries to use it, which tells the two
    // apart.
    WebhookApi api =
        new WebhookApi(
            new KubeCalls(vertx, null, "test", 1, Duration.ofSeconds(5), null, null, true));
    AtomicBoolean leading = new AtomicBoolean(false);
    api.leaderOnly(leading::get);

    Throwable refused = failure(api.patchPolicyStatus("production", "{}"));
    assertEquals(0, assertInstanceOf(KubeApiException.class, refused).code());
    assertTrue(refused.getMessage().contains("refused"), refused.getMessage());

    Throwable sent = failure(api.patchSecret("ops", "certs", "{}"));
    assertFalse(
        String.valueOf(sent.getMessage()).contains("refused"), String.valueOf(sent.getMessage()));
  }

  @Test
  void afterTheShutdownFenceEveryWriteIsRefused() throws Exception {
    WebhookApi api =
        new WebhookApi(
            new KubeCalls(vertx, null, "test", 1, Duration.ofSeconds(5), null, null, true));
    api.fence("shutting down");
    Throwable refused = failure(api.patchSecret("ops", "certs", "{}"));
    assertTrue(refused.getMessage().contains("refused: shutting down"), refused.getMessage());
  }
}
