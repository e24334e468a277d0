package io.rollgate.controller.analysis.provider.common;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * OAuth2 client-credentials grant (RFC 6749 section 4.4) for {@code authentication.oauth2
 * {tokenUrl, clientId, clientSecret, scopes}} of the Prometheus and web providers. Tokens are
 * cached per (tokenUrl, clientId, clientSecret, scopes) until 10 seconds before {@code expires_in}
 * runs out (no {@code expires_in}: kept until rejected), and concurrent measurements share one
 * token request. Client authentication is tried in the Authorization header first and, when the
 * server refuses that with 400/401, in the form body; the style that worked is remembered per token
 * URL.
 */
public final class OAuth2ClientCredentials {

  /** Tokens are renewed this long before they expire (the Go oauth2 package's expiryDelta). */
  static final Duration EXPIRY_DELTA = Duration.ofSeconds(10);

  /** The oauth2 fields of a metric provider. */
  public record Config(
      String tokenUrl, String clientId, String clientSecret, List<String> scopes) {}

  /** An access token and the Authorization header value that carries it. */
  public record Token(String accessToken, String tokenType, Instant expiry) {

    /**
     * The Authorization header value: {@code Bearer <token>} (a {@code bearer} type of any case, or
     * none, is spelled {@code Bearer}, as Go's oauth2 package does).
     *
     * @return the header value
     */
    public String authorization() {
      String type =
          tokenType == null || tokenType.isEmpty() || tokenType.equalsIgnoreCase("bearer")
              ? "Bearer"
              : tokenType;
      return type + " " + accessToken;
    }

    boolean validAt(Instant now) {
      return expiry == null || now.isBefore(expiry.minus(EXPIRY_DELTA));
    }
  }

  private final MetricHttpClient http;
  private final Clock clock;
  private final Map<Config, Future<Token>> cache = new ConcurrentHashMap<>();
  private final Map<String, Boolean> credentialsInBody = new ConcurrentHashMap<>();

  /**
   * Creates the token source.
   *
   * @param http the HTTP client
   * @param clock the clock that decides expiry
   */
  public OAuth2ClientCredentials(MetricHttpClient http, Clock clock) {
    this.http = http;
    this.clock = clock;
  }

  /**
   * Returns a valid token, from the cache or fetched now.
   *
   * @param config the oauth2 fields
   * @param insecure skip TLS verification of the token endpoint (the metric's {@code insecure})
   * @param timeout bound of the token request
   * @return the token, or a failure {@code oauth2: cannot fetch token: ...}
   */
  public Future<Token> token(Config config, boolean insecure, Duration timeout) {
    if (config.tokenUrl() == null || config.tokenUrl().isBlank()) {
      return Future.failedFuture(
          new MetricProviderException("oauth2: tokenUrl is required for client credentials"));
    }
    Instant now = clock.instant();
    Future<Token> f =
        cache.compute(
            config,
            (k, existing) -> {
              if (existing != null
                  && (!existing.isComplete()
                      || existing.succeeded() && existing.result().validAt(now))) {
                return existing;
              }
              return fetch(config, insecure, timeout);
            });
    return f.onFailure(e -> cache.remove(config, f));
  }

  /**
   * Forgets a cached token (after the protected endpoint answered 401 with it).
   *
   * @param config the oauth2 fields the token was fetched with
   */
  public void invalidate(Config config) {
    cache.remove(config);
  }

  private Future<Token> fetch(Config config, boolean insecure, Duration timeout) {
    boolean bodyFirst = credentialsInBody.getOrDefault(config.tokenUrl(), false);
    return request(config, bodyFirst, insecure, timeout)
        .compose(
            r -> {
              if (!bodyFirst && (r.statusCode() == 400 || r.statusCode() == 401)) {
                return request(config, true, insecure, timeout)
                    .map(
                        r2 -> {
                          if (r2.statusCode() / 100 == 2) {
                            credentialsInBody.put(config.tokenUrl(), true);
                            return r2;
                          }
                          return r;
                        });
              }
              return Future.succeededFuture(r);
            })
        .compose(this::parse)
        .recover(
            e ->
                Future.failedFuture(
                    e instanceof MetricProviderException && e.getMessage().startsWith("oauth2:")
                        ? e
                        : new MetricProviderException(
                            "oauth2: cannot fetch token: " + e.getMessage(), e)));
  }

  private Future<HttpResponse<Buffer>> request(
      Config config, boolean inBody, boolean insecure, Duration timeout) {
    MultiMap form = MultiMap.caseInsensitiveMultiMap().add("grant_type", "client_credentials");
    if (config.scopes() != null && !config.scopes().isEmpty()) {
      form.add("scope", String.join(" ", config.scopes()));
    }
    List<Map.Entry<String, String>> headers;
    String id = config.clientId() == null ? "" : config.clientId();
    String secret = config.clientSecret() == null ? "" : config.clientSecret();
    if (inBody) {
      form.add("client_id", id);
      form.add("client_secret", secret);
      headers = List.of(Map.entry("Accept", "application/json"));
    } else {
      String basic =
          Base64.getEncoder()
              .encodeToString(
                  (URLEncoder.encode(id, StandardCharsets.UTF_8)
                          + ":"
                          + URLEncoder.encode(secret, StandardCharsets.UTF_8))
                      .getBytes(StandardCharsets.UTF_8));
      headers =
          List.of(
              Map.entry("Authorization", "Basic " + basic),
              Map.entry("Accept", "application/json"));
    }
    return http.send(
        new MetricHttpClient.Call(
            HttpMethod.POST, config.tokenUrl(), headers, null, form, insecure, timeout));
  }

  private Future<Token> parse(HttpResponse<Buffer> r) {
    String body = r.bodyAsString() == null ? "" : r.bodyAsString();
    if (r.statusCode() / 100 != 2) {
      return Future.failedFuture(
          new MetricProviderException(
              "oauth2: cannot fetch token: "
                  + r.statusCode()
                  + " "
                  + r.statusMessage()
                  + " Response: "
                  + body));
    }
    JsonObject json;
    try {
      json = new JsonObject(body);
    } catch (RuntimeException e) {
      return Future.failedFuture(
          new MetricProviderException("oauth2: cannot parse json: " + e.getMessage()));
    }
    String access = json.getString("access_token");
    if (access == null || access.isEmpty()) {
      return Future.failedFuture(
          new MetricProviderException("oauth2: server response missing access_token"));
    }
    Instant expiry = null;
    Object expiresIn = json.getValue("expires_in");
    if (expiresIn instanceof Number n && n.longValue() > 0) {
      expiry = clock.instant().plusSeconds(n.longValue());
    } else if (expiresIn instanceof String s && !s.isBlank()) {
      try {
        long secs = Long.parseLong(s.trim());
        if (secs > 0) {
          expiry = clock.instant().plusSeconds(secs);
        }
      } catch (NumberFormatException e) {
        // Go's oauth2 package ignores an unparsable expires_in as well
      }
    }
    return Future.succeededFuture(new Token(access, json.getString("token_type"), expiry));
  }
}
