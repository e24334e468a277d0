package io.rollgate.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.webhook.tls.CertBundle;
import io.rollgate.webhook.tls.CertificateIssuer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HTTPS server in-process: admission routes, bad input, health and metrics, certificate reload.
 */
@ExtendWith(VertxExtension.class)
class AdmissionRouterTest {

  static final CertificateIssuer ISSUER = new CertificateIssuer(Clock.systemUTC());
  static Vertx vertx;
  static CertBundle bundle;
  static WebhookServer server;
  static int port;
  static WebClient client;

  @BeforeAll
  static void start() throws Exception {
    vertx =
        Vertx.vertx(
            new VertxOptions()
                .setMaxEventLoopExecuteTime(200)
                .setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS));
    bundle =
        ISSUER.issue(
            "localhost",
            List.of("localhost", "127.0.0.1"),
            Duration.ofDays(10),
            Duration.ofDays(5));
    WebhookMetrics metrics = new WebhookMetrics();
    server =
        new WebhookServer(
            vertx,
            AdmissionRouter.create(
                vertx, metrics, true, AdmissionRouter.DEFAULT_BODY_LIMIT, () -> server.ready()),
            "127.0.0.1",
            0);
    port = server.start(bundle).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    client = client(bundle, Set.of("TLSv1.2", "TLSv1.3"));
  }

  static WebClient client(CertBundle trusted, Set<String> protocols) {
    return WebClient.create(
        vertx,
        new WebClientOptions()
            .setSsl(true)
            .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(trusted.caCrt())))
            .setVerifyHost(true)
            .setEnabledSecureTransportProtocols(protocols)
            .setDefaultHost("127.0.0.1")
            .setDefaultPort(port));
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  static Future<HttpResponse<Buffer>> post(String path, Buffer body) {
    return client
        .post(path)
        .putHeader("Content-Type", "application/json")
        .timeout(20_000)
        .sendBuffer(body);
  }

  static void expect400(VertxTestContext ctx, Buffer body, String messagePart) {
    post("/validate", body)
        .onComplete(
            ctx.succeeding(
                r ->
                    ctx.verify(
                        () -> {
                          assertEquals(400, r.statusCode(), r.bodyAsString());
                          JsonNode status = AdmissionReviews.mapper().readTree(r.bodyAsString());
                          assertEquals("Status", status.get("kind").asText());
                          assertTrue(
                              status.get("message").asText().contains(messagePart),
                              status.get("message").asText());
                          ctx.completeNow();
                        })));
  }

  @Test
  void validateAnswersDeniedReviewWithEchoedUid(VertxTestContext ctx) {
    ObjectNode rollout = Reviews.validRollout();
    ((ObjectNode) rollout.get("spec")).remove("selector");
    post("/validate", Buffer.buffer(Reviews.review("CREATE", rollout).toString()))
        .onComplete(
            ctx.succeeding(
                r ->
                    ctx.verify(
                        () -> {
                          assertEquals(200, r.statusCode());
                          JsonNode review = AdmissionReviews.mapper().readTree(r.bodyAsString());
                          assertEquals(
                              "705ab4f5-6393-11e8-b7cc-42010a800002",
                              review.at("/response/uid").asText());
                          assertFalse(review.at("/response/allowed").asBoolean());
                          ctx.completeNow();
                        })));
  }

  @Test
  void mutateAnswersPatch(VertxTestContext ctx) {
    post("/mutate", Buffer.buffer(Reviews.review("CREATE", Reviews.validRollout()).toString()))
        .onComplete(
            ctx.succeeding(
                r ->
                    ctx.verify(
                        () -> {
                          assertEquals(200, r.statusCode());
                          JsonNode review = AdmissionReviews.mapper().readTree(r.bodyAsString());
                          assertEquals("JSONPatch", review.at("/response/patchType").asText());
                          ctx.completeNow();
                        })));
  }

  @Test
  void malformedJsonIs400(VertxTestContext ctx) {
    expect400(ctx, Buffer.buffer("{\"apiVersion\": \"admission.k8s.io/v1\", "), "malformed JSON");
  }

  @Test
  void emptyBodyIs400(VertxTestContext ctx) {
    expect400(ctx, Buffer.buffer(), "empty body");
  }

  @Test
  void wrongApiVersionIs400(VertxTestContext ctx) {
    ObjectNode review = Reviews.review("CREATE", Reviews.validRollout());
    review.put("apiVersion", "admission.k8s.io/v1beta1");
    expect400(
        ctx,
        Buffer.buffer(review.toString()),
        "expected apiVersion admission.k8s.io/v1 kind AdmissionReview");
  }

  @Test
  void wrongKindIs400(VertxTestContext ctx) {
    ObjectNode review = Reviews.review("CREATE", Reviews.validRollout());
    review.put("kind", "Rollout");
    expect400(ctx, Buffer.buffer(review.toString()), "kind 'Rollout'");
  }

  @Test
  void missingRequestIs400(VertxTestContext ctx) {
    ObjectNode review = Reviews.review("CREATE", Reviews.validRollout());
    review.remove("request");
    expect400(ctx, Buffer.buffer(review.toString()), "no request");
  }

  @Test
  void arrayBodyIs400(VertxTestContext ctx) {
    expect400(ctx, Buffer.buffer("[1,2,3]"), "expected a JSON object");
  }

  @Test
  void deeplyNestedJsonIs400(VertxTestContext ctx) {
    int depth = 100_000;
    StringBuilder sb = new StringBuilder(depth * 2 + 200);
    sb.append("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":");
    sb.append("[".repeat(depth)).append("]".repeat(depth)).append('}');
    expect400(ctx, Buffer.buffer(sb.toString()), "too deeply nested");
  }

  @Test
  void hugeBodyIs413(VertxTestContext ctx) {
    ObjectNode review = Reviews.review("CREATE", Reviews.validRollout());
    ((ObjectNode) review.at("/request/object/metadata"))
        .putObject("annotations")
        .put("big", "x".repeat(4 * 1024 * 1024));
    post("/validate", Buffer.buffer(review.toString()))
        .onComplete(
            ctx.succeeding(
                r ->
                    ctx.verify(
                        () -> {
                          assertEquals(413, r.statusCode());
                          ctx.completeNow();
                        })));
  }

  @Test
  void chunkedBodyIsRead(VertxTestContext ctx) {
    byte[] body =
        Reviews.review("CREATE", Reviews.validRollout())
            .toString()
            .getBytes(StandardCharsets.UTF_8);
    int third = body.length / 3;
    sendChunked(
            Buffer.buffer(java.util.Arrays.copyOfRange(body, 0, third)),
            Buffer.buffer(java.util.Arrays.copyOfRange(body, third, 2 * third)),
            Buffer.buffer(java.util.Arrays.copyOfRange(body, 2 * third, body.length)))
        .onComplete(
            ctx.succeeding(
                r ->
                    ctx.verify(
                        () -> {
                          assertEquals(200, r.statusCode(), r.body().toString());
                          JsonNode review = AdmissionReviews.mapper().readTree(r.body().toString());
                          assertTrue(review.at("/response/allowed").asBoolean(), review.toString());
                          ctx.completeNow();
                        })));
  }

  @Test
  void chunkedBodyOverTheLimitIs413(VertxTestContext ctx) {
    // No Content-Length: the limit is found while the body streams in.
    Buffer mib = Buffer.buffer("x".repeat(1024 * 1024));
    sendChunked(Buffer.buffer("{\"a\":\""), mib, mib, mib, mib, Buffer.buffer("\"}"))
        .onComplete(
            ctx.succeeding(
                r ->
                    ctx.verify(
                        () -> {
                          assertEquals(413, r.statusCode(), r.body().toString());
                          ctx.completeNow();
                        })));
  }

  @Test
  void connectionClosedMidBodyIsCountedAndTheServerGoesOn(VertxTestContext ctx) {
    NetClient net =
        vertx.createNetClient(
            new NetClientOptions()
                .setSsl(true)
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(bundle.caCrt())))
                .setHostnameVerificationAlgorithm(""));
    String head =
        "POST /mutate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n";
    net.connect(port, "127.0.0.1")
        .compose(
            socket ->
                socket
                    .write(Buffer.buffer(head + "{\"apiVersion\":"))
                    // Closing a TLS socket may itself report the close: either way the connection
                    // is gone.
                    .transform(
                        written ->
                            socket.close().transform(closed -> Future.<Void>succeededFuture())))
        .compose(
            v ->
                // The server notices the closed connection on its own schedule: poll its counters.
                pollMetrics(
                    text ->
                        text.lines()
                            .anyMatch(
                                l ->
                                    l.startsWith("rollgate_webhook_requests_seconds_count{")
                                        && l.contains("endpoint=\"mutate\"")
                                        && l.contains("verdict=\"bad_request\"")),
                    50))
        .compose(
            v ->
                post(
                    "/mutate",
                    Buffer.buffer(Reviews.review("CREATE", Reviews.validRollout()).toString())))
        .onComplete(
            ctx.succeeding(
                r ->
                    ctx.verify(
                        () -> {
                          assertEquals(200, r.statusCode(), r.bodyAsString());
                          ctx.completeNow();
                        })));
  }

  /** Scrapes /metrics every 100 ms until {@code done} holds, at most {@code attempts} times. */
  private static Future<Void> pollMetrics(java.util.function.Predicate<String> done, int attempts) {
    return client
        .get("/metrics")
        .send()
        .compose(
            m -> {
              if (done.test(m.bodyAsString())) {
                return Future.succeededFuture();
              }
              if (attempts <= 1) {
                return Future.failedFuture(
                    new AssertionError("not in /metrics: " + m.bodyAsString()));
              }
              Promise<Void> later = Promise.promise();
              vertx.setTimer(100, id -> pollMetrics(done, attempts - 1).onComplete(later));
              return later.future();
            });
  }

  /** Posts a body to /validate with chunked transfer encoding, one HTTP chunk per buffer. */
  private static Future<ChunkedAnswer> sendChunked(Buffer... chunks) {
    HttpClientAgent http =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setSsl(true)
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(bundle.caCrt())))
                .setVerifyHost(false));
    return http.request(HttpMethod.POST, port, "127.0.0.1", "/validate")
        .compose(
            req -> {
              req.setChunked(true).putHeader("Content-Type", "application/json");
              Future<HttpClientResponse> answer = req.response();
              for (Buffer chunk : chunks) {
                req.write(chunk);
              }
              req.end();
              return answer.compose(r -> r.body().map(b -> new ChunkedAnswer(r.statusCode(), b)));
            })
        .eventually(http::close);
  }

  private record ChunkedAnswer(int statusCode, Buffer body) {}

  @Test
  void healthReadyAndMetrics(VertxTestContext ctx) {
    client
        .get("/healthz")
        .send()
        .compose(
            h -> {
              ctx.verify(() -> assertEquals(200, h.statusCode()));
              return client.get("/readyz").send();
            })
        .compose(
            r -> {
              ctx.verify(() -> assertEquals(200, r.statusCode()));
              return post(
                  "/validate",
                  Buffer.buffer(Reviews.review("CREATE", Reviews.validRollout()).toString()));
            })
        .compose(v -> client.get("/metrics").send())
        .onComplete(
            ctx.succeeding(
                m ->
                    ctx.verify(
                        () -> {
                          assertEquals(200, m.statusCode());
                          String text = m.bodyAsString();
                          assertTrue(
                              text.lines()
                                  .anyMatch(
                                      l ->
                                          l.startsWith("rollgate_webhook_requests_seconds_count{")
                                              && l.contains("endpoint=\"validate\"")
                                              && l.contains("kind=\"Rollout\"")
                                              && l.contains("operation=\"CREATE\"")
                                              && l.contains("verdict=\"allowed\"")),
                              text);
                          // One answer so far: it lies in the 1 s bucket and in every larger one
                          // (+Inf).
                          assertTrue(
                              text.lines()
                                  .anyMatch(
                                      l ->
                                          l.startsWith("rollgate_webhook_requests_seconds_bucket{")
                                              && l.contains("verdict=\"allowed\"")
                                              && l.contains("le=\"1.0\"")
                                              && l.endsWith(" 1")),
                              text);
                          ctx.completeNow();
                        })));
  }

  @Test
  void refusesTls11(VertxTestContext ctx) {
    client(bundle, Set.of("TLSv1.1"))
        .get("/healthz")
        .send()
        .onComplete(ctx.failing(err -> ctx.completeNow()));
  }

  /** Runs {@code openssl s_client} against the server; returns its exit code and output. */
  static String openssl(String... args) throws Exception {
    List<String> cmd =
        new java.util.ArrayList<>(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + port));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "openssl did not finish");
    return p.exitValue() + "\n" + out;
  }

  @Test
  void offersOnlyAeadSuitesOverTls12AndKeepsTls13() throws Exception {
    String gcm = openssl("-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256");
    assertTrue(gcm.startsWith("0\n") && gcm.contains("ECDHE-ECDSA-AES128-GCM-SHA256"), gcm);
    for (String cbc :
        List.of("ECDHE-ECDSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA", "ECDHE-ECDSA-AES128-SHA256")) {
      String refused = openssl("-tls1_2", "-cipher", cbc);
      assertFalse(
          refused.startsWith("0\n") && refused.contains("Cipher is " + cbc),
          cbc + " was accepted: " + refused);
    }
    String tls13 = openssl("-tls1_3");
    assertTrue(tls13.startsWith("0\n") && tls13.contains("TLSv1.3"), tls13);
  }

  @Test
  void reloadedCertificateIsServedWithoutRestart(VertxTestContext ctx) {
    CertBundle next =
        ISSUER.issue(
            "localhost",
            List.of("localhost", "127.0.0.1"),
            Duration.ofDays(10),
            Duration.ofDays(5));
    WebClient trustsNext = client(next, Set.of("TLSv1.2", "TLSv1.3"));
    server
        .reload(next)
        .compose(v -> trustsNext.get("/healthz").send())
        .compose(
            r -> {
              ctx.verify(() -> assertEquals(200, r.statusCode()));
              return server.reload(bundle);
            })
        .onComplete(ctx.succeedingThenComplete());
  }
}
