package io.rollgate.e2e.analysis.providers;

import io.rollgate.e2e.support.TestHttpServer;
import io.rollgate.e2e.support.TestHttpServer.Request;
import io.rollgate.e2e.support.TestHttpServer.Response;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTPS authenticating gateway in front of the real Prometheus, as users put one (an ingress
 * with basic auth, an OAuth2 proxy): {@code /api/v1/*} is forwarded to Prometheus only with the
 * basic-auth pair {@code admin:s3cret} or a bearer token issued by its own client-credentials
 * endpoint {@code /oauth/token} (client {@code rollgate} / secret {@code client-s3cret}); {@code
 * /slow/api/v1/query} never answers; {@code /warn/api/v1/query} answers a vector with Prometheus
 * warnings.
 */
final class PrometheusGateway implements AutoCloseable {

  static final String BASIC =
      "Basic "
          + Base64.getEncoder().encodeToString("admin:s3cret".getBytes(StandardCharsets.UTF_8));
  static final String CLIENT_BASIC =
      "Basic "
          + Base64.getEncoder()
              .encodeToString("rollgate:client-s3cret".getBytes(StandardCharsets.UTF_8));

  final TestHttpServer server = TestHttpServer.https();
  final AtomicInteger tokensIssued = new AtomicInteger();
  private final Set<String> tokens = ConcurrentHashMap.newKeySet();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String prometheus;

  PrometheusGateway(String prometheusAddress) {
    this.prometheus = prometheusAddress;
    server.route("/oauth/token", this::token);
    server.route("/api/v1/query", this::forward);
    server.route("/api/v1/query_range", this::forward);
    server.route("/slow/api/v1/query", r -> null);
    server.route(
        "/warn/api/v1/query",
        r ->
            Response.json(
                200,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
                    + "[{\"metric\":{},\"value\":[1700000000,\"0.25\"]}]},"
                    + "\"warnings\":[\"query was partially evaluated\",\"a store was slow\"]}"));
  }

  String url(String path) {
    return server.url(path);
  }

  private Response token(Request r) {
    boolean clientOk =
        CLIENT_BASIC.equals(r.header("Authorization"))
            || r.body().contains("client_id=rollgate")
                && r.body().contains("client_secret=client-s3cret");
    if (!"POST".equals(r.method())
        || !r.body().contains("grant_type=client_credentials")
        || !clientOk) {
      return Response.json(401, "{\"error\":\"invalid_client\"}");
    }
    String token = "tok-" + tokensIssued.incrementAndGet();
    tokens.add(token);
    return Response.json(
        200, "{\"access_token\":\"" + token + "\",\"token_type\":\"bearer\",\"expires_in\":3600}");
  }

  private Response forward(Request r) throws Exception {
    String auth = r.header("Authorization");
    boolean ok =
        BASIC.equals(auth)
            || auth != null && auth.startsWith("Bearer ") && tokens.contains(auth.substring(7));
    if (!ok) {
      return Response.json(
          401, "{\"status\":\"error\",\"errorType\":\"unauthorized\",\"error\":\"who are you\"}");
    }
    String url = prometheus + r.path() + (r.query() == null ? "" : "?" + r.query());
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20));
    if ("POST".equals(r.method())) {
      b.header("Content-Type", r.header("Content-Type"))
          .POST(HttpRequest.BodyPublishers.ofString(r.body()));
    }
    HttpResponse<String> answer = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return Response.json(answer.statusCode(), answer.body());
  }

  @Override
  public void close() {
    server.close();
  }
}
