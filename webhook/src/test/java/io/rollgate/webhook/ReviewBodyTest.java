package io.rollgate.webhook;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Request bodies as clients really send them, over raw connections: memory follows the bytes that
 * arrived, not the declared length; a shared budget refuses what would exceed it; a body that
 * trickles in past the deadline is cut off.
 */
class ReviewBodyTest {

  private Vertx vertx;
  private HttpServer server;
  private NetClient net;
  private final List<NetSocket> sockets = new ArrayList<>();

  private ReviewBody.Budget start(long budgetBytes, long deadlineMillis) throws Exception {
    vertx = Vertx.vertx();
    ReviewBody.Budget budget = new ReviewBody.Budget(budgetBytes);
    server =
        vertx
            .createHttpServer()
            .requestHandler(
                AdmissionRouter.create(
                    vertx,
                    new WebhookMetrics(),
                    new AdmissionHandler(ClusterView.NONE),
                    true,
                    AdmissionRouter.DEFAULT_BODY_LIMIT,
                    budget,
                    deadlineMillis,
                    () -> true))
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    net = vertx.createNetClient();
    return budget;
  }

  @AfterEach
  void stop() throws Exception {
    if (vertx != null) {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  /**
   * Opens a connection and sends the request head with a Content-Length, and the first bytes of the
   * body.
   */
  private CompletableFuture<String> open(long contentLength, String firstBytes) throws Exception {
    NetSocket socket =
        net.connect(server.actualPort(), "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    sockets.add(socket);
    CompletableFuture<String> answer = new CompletableFuture<>();
    StringBuilder received = new StringBuilder();
    socket.handler(b -> received.append(b.toString(StandardCharsets.ISO_8859_1)));
    socket.closeHandler(v -> answer.complete(received.toString()));
    socket.write(
        "POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
            + contentLength
            + "\r\n\r\n"
            + firstBytes);
    return answer;
  }

  private String review() {
    return Reviews.review("CREATE", Reviews.validRollout()).toString();
  }

  /**
   * Sends a whole review on a fresh connection and returns the whole answer (status line, headers,
   * body).
   */
  private String send(String body) throws Exception {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    NetSocket socket =
        net.connect(server.actualPort(), "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    CompletableFuture<String> answer = new CompletableFuture<>();
    StringBuilder received = new StringBuilder();
    socket.handler(
        b -> {
          received.append(b.toString(StandardCharsets.ISO_8859_1));
          int end = received.indexOf("\r\n\r\n");
          if (end >= 0) {
            String head = received.substring(0, end);
            int at = head.toLowerCase().indexOf("content-length: ");
            int length = Integer.parseInt(head.substring(at + 16).split("\r\n")[0].trim());
            if (received.length() >= end + 4 + length) {
              answer.complete(received.toString());
            }
          }
        });
    socket.write(
        Buffer.buffer(
                "POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                    + bytes.length
                    + "\r\n\r\n")
            .appendBytes(bytes));
    try {
      return answer.get(10, TimeUnit.SECONDS);
    } finally {
      socket.close();
    }
  }

  @Test
  void aDeclaredLengthReservesNoMoreThanTheFirstArray() throws Exception {
    ReviewBody.Budget budget = start(64L * 1024 * 1024, 60_000);
    for (int i = 0; i < 20; i++) {
      open(3_000_000, "{");
    }
    // Twenty clients promised 3 MB each and sent one byte: they hold 64 KiB each, not 60 MB in all.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> budget.used() == 20L * ReviewBody.FIRST_CAPACITY);
    String answer = send(review());
    assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
    assertTrue(answer.contains("\"allowed\":true"), answer);
  }

  @Test
  void aRequestThatWouldExceedTheBudgetGets503AndTheNextOneGoesThrough() throws Exception {
    String review = review();
    ReviewBody.Budget budget = start(ReviewBody.FIRST_CAPACITY + review.length() - 1, 60_000);
    CompletableFuture<String> holder = open(ReviewBody.FIRST_CAPACITY, "{");
    await().atMost(Duration.ofSeconds(10)).until(() -> budget.used() == ReviewBody.FIRST_CAPACITY);
    String refused = send(review);
    assertTrue(refused.startsWith("HTTP/1.1 503"), refused);
    assertTrue(refused.contains("too many request bodies being read at once"), refused);

    sockets.get(0).close();
    holder.get(10, TimeUnit.SECONDS);
    // A closed connection gives its bytes back.
    await().atMost(Duration.ofSeconds(10)).until(() -> budget.used() == 0);
    String accepted = send(review);
    assertTrue(accepted.startsWith("HTTP/1.1 200"), accepted);
  }

  @Test
  void aBodyLargerThanTheWholeBudgetGets503() throws Exception {
    start(100, 60_000);
    String refused = send(review());
    assertTrue(refused.startsWith("HTTP/1.1 503"), refused);
  }

  @Test
  void aBodyThatTricklesPastTheDeadlineGets408AndTheConnectionIsClosed() throws Exception {
    ReviewBody.Budget budget = start(64L * 1024 * 1024, 300);
    String answer = open(1000, "{\"apiVersion\":").get(10, TimeUnit.SECONDS);
    assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
    assertTrue(answer.contains("request body not received whole within 300 ms"), answer);
    assertEquals(0, budget.used());
  }

  @Test
  void unknownPathsAndMethodsGetAStatus() throws Exception {
    start(64L * 1024 * 1024, 10_000);
    io.vertx.core.http.HttpClientAgent http = vertx.createHttpClient();
    try {
      String notFound =
          http.request(io.vertx.core.http.HttpMethod.GET, server.actualPort(), "127.0.0.1", "/nope")
              .compose(r -> r.send().compose(a -> a.body().map(b -> a.statusCode() + " " + b)))
              .toCompletionStage()
              .toCompletableFuture()
              .get(10, TimeUnit.SECONDS);
      assertTrue(notFound.startsWith("404 "), notFound);
      assertTrue(
          notFound.contains("\"reason\":\"NotFound\"") && notFound.contains("no such path: /nope"),
          notFound);
      String wrongMethod =
          http.request(
                  io.vertx.core.http.HttpMethod.GET, server.actualPort(), "127.0.0.1", "/validate")
              .compose(r -> r.send().compose(a -> a.body().map(b -> a.statusCode() + " " + b)))
              .toCompletionStage()
              .toCompletableFuture()
              .get(10, TimeUnit.SECONDS);
      assertTrue(wrongMethod.startsWith("405 "), wrongMethod);
      assertTrue(wrongMethod.contains("method GET not allowed on /validate"), wrongMethod);
    } finally {
      http.close();
    }
  }
}
