package io.rollgate.controller.analysis.provider.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
@Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
class OAuth2ClientCredentialsTest {

  static final Duration TIMEOUT = Duration.ofSeconds(5);

  /** A clock the test moves by hand. */
  static final class TestClock extends Clock {
    final AtomicReference<Instant> now =
        new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now.get();
    }

    void advance(Duration d) {
      now.updateAndGet(t -> t.plus(d));
    }
  }

  /**
   * Token endpoint: answers each POST with the next token; {@code headerRefused} makes it demand
   * body credentials.
   */
  static Future<HttpServer> tokenServer(Vertx vertx, List<String> bodies, boolean headerRefused) {
    return vertx
        .createHttpServer()
        .requestHandler(
            req ->
                req.body()
                    .onSuccess(
                        b -> {
                          String body = b.toString();
                          bodies.add(body + "|" + req.getHeader("Authorization"));
                          if (headerRefused && !body.contains("client_secret=")) {
                            req.response().setStatusCode(401).end("{\"error\":\"invalid_client\"}");
                            return;
                          }
                          if (body.contains("client_secret=wrong")
                              || "Basic Yzp3cm9uZw==".equals(req.getHeader("Authorization"))) {
                            req.response().setStatusCode(400).end("{\"error\":\"invalid_client\"}");
                            return;
                          }
                          req.response()
                              .putHeader("Content-Type", "application/json")
                              .end(
                                  "{\"access_token\":\"t"
                                      + bodies.size()
                                      + "\",\"token_type\":\"bearer\",\"expires_in\":60}");
                        }))
        .listen(0, "127.0.0.1");
  }

  static OAuth2ClientCredentials.Config config(HttpServer server, String secret) {
    return new OAuth2ClientCredentials.Config(
        "http://127.0.0.1:" + server.actualPort() + "/token", "c", secret, List.of("read"));
  }

  @Test
  void cachesTheTokenUntilTenSecondsBeforeItExpires(Vertx vertx, VertxTestContext test) {
    List<String> requests = new CopyOnWriteArrayList<>();
    TestClock clock = new TestClock();
    OAuth2ClientCredentials oauth2 =
        new OAuth2ClientCredentials(new MetricHttpClient(vertx), clock);
    tokenServer(vertx, requests, false)
        .compose(
            server -> {
              OAuth2ClientCredentials.Config cfg = config(server, "s");
              return Future.all(
                      oauth2.token(cfg, false, TIMEOUT), oauth2.token(cfg, false, TIMEOUT))
                  .compose(
                      both -> {
                        test.verify(
                            () -> {
                              assertEquals(
                                  1, requests.size(), "concurrent callers share one token request");
                              assertEquals(
                                  "Bearer t1",
                                  both.<OAuth2ClientCredentials.Token>resultAt(1).authorization());
                              assertTrue(
                                  requests.get(0).contains("grant_type=client_credentials"),
                                  requests.get(0));
                              assertTrue(requests.get(0).contains("scope=read"), requests.get(0));
                              assertTrue(requests.get(0).endsWith("|Basic Yzpz"), requests.get(0));
                            });
                        clock.advance(Duration.ofSeconds(49));
                        return oauth2.token(cfg, false, TIMEOUT);
                      })
                  .compose(
                      t -> {
                        test.verify(() -> assertEquals("Bearer t1", t.authorization()));
                        clock.advance(Duration.ofSeconds(2));
                        return oauth2.token(cfg, false, TIMEOUT);
                      })
                  .onSuccess(
                      t ->
                          test.verify(
                              () -> {
                                assertEquals("Bearer t2", t.authorization());
                                assertEquals(2, requests.size());
                              }));
            })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsCredentialsInTheBodyWhenTheServerRefusesTheHeader(Vertx vertx, VertxTestContext test) {
    List<String> requests = new CopyOnWriteArrayList<>();
    OAuth2ClientCredentials oauth2 =
        new OAuth2ClientCredentials(new MetricHttpClient(vertx), Clock.systemUTC());
    tokenServer(vertx, requests, true)
        .compose(server -> oauth2.token(config(server, "s"), false, TIMEOUT))
        .onComplete(
            test.succeeding(
                t ->
                    test.verify(
                        () -> {
                          assertEquals(2, requests.size());
                          assertTrue(
                              requests.get(1).contains("client_id=c")
                                  && requests.get(1).contains("client_secret=s"));
                          test.completeNow();
                        })));
  }

  @Test
  void failuresAreReportedAndNotCached(Vertx vertx, VertxTestContext test) {
    List<String> requests = new CopyOnWriteArrayList<>();
    OAuth2ClientCredentials oauth2 =
        new OAuth2ClientCredentials(new MetricHttpClient(vertx), Clock.systemUTC());
    tokenServer(vertx, requests, false)
        .compose(
            server ->
                oauth2
                    .token(config(server, "wrong"), false, TIMEOUT)
                    .transform(
                        first -> {
                          test.verify(
                              () -> {
                                assertTrue(first.failed());
                                assertTrue(
                                    first
                                        .cause()
                                        .getMessage()
                                        .startsWith("oauth2: cannot fetch token: 400"),
                                    first.cause().getMessage());
                              });
                          return oauth2.token(config(server, "wrong"), false, TIMEOUT);
                        }))
        .onComplete(
            second ->
                test.verify(
                    () -> {
                      assertTrue(second.failed());
                      assertEquals(
                          4, requests.size(), "header then body style, twice: " + requests);
                      test.completeNow();
                    }));
  }
}
