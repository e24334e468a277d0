package io.rollgate.controller.analysis.provider.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.api.OAuth2Config;
import io.rollgate.api.WebMetric;
import io.rollgate.api.WebMetricHeader;
import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.GoFormat;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.rollgate.controller.analysis.provider.common.OAuth2ClientCredentials;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Argo's web provider ({@code metrics[].provider.web}, docs/compatibility.md §9.7): calls {@code
 * url} with {@code method} ({@code GET} by default, {@code POST} or {@code PUT}), {@code
 * headers[]}, and a {@code body} string or a {@code jsonBody} object (sent as JSON with {@code
 * Content-Type: application/json}); {@code timeoutSeconds} bounds the call (default 10), {@code
 * insecure} skips TLS verification and {@code authentication.oauth2} adds a client-credentials
 * bearer token. A 2xx JSON answer is decoded (numbers as float64) and {@code jsonPath} (Kubernetes
 * JSONPath, default {@code {$}}) selects the value the conditions see as {@code result}: the single
 * value of a path like {@code {$.data.ok}}, or the list of values a wildcard or filter selects. A
 * body that is not JSON is the value as the raw string. The measurement's {@code value} is the JSON
 * encoding of the selected value as Go writes it (or the raw body).
 *
 * <p>Errors (Error measurements): a non-2xx answer ({@code received non 2xx response code:
 * <code>}), a transport failure or timeout, a JSONPath that matches nothing, and invalid settings:
 * a body with {@code GET}, both {@code body} and {@code jsonBody}, an unsupported method or an
 * unparsable {@code jsonPath}.
 */
public final class WebMetricProvider implements MetricProvider {

  /** Default {@code timeoutSeconds}: 10 seconds. */
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final MetricHttpClient http;
  private final OAuth2ClientCredentials oauth2;

  /**
   * Creates the provider.
   *
   * @param http the shared HTTP client
   * @param oauth2 the shared OAuth2 token source
   */
  public WebMetricProvider(MetricHttpClient http, OAuth2ClientCredentials oauth2) {
    this.http = http;
    this.oauth2 = oauth2;
  }

  @Override
  public String type() {
    return "web";
  }

  private record Settings(
      HttpMethod method,
      String url,
      List<Map.Entry<String, String>> headers,
      Buffer body,
      Duration timeout,
      boolean insecure,
      JsonPath jsonPath) {}

  @Override
  public Future<ProviderResult> run(MeasurementContext ctx) {
    WebMetric config =
        ctx.metric().getProvider() == null ? null : ctx.metric().getProvider().getWeb();
    if (config == null) {
      return Future.failedFuture(new MetricProviderException("metric has no web provider"));
    }
    Settings settings;
    try {
      settings = settings(config);
    } catch (MetricProviderException e) {
      return Future.failedFuture(e);
    } catch (RuntimeException e) {
      return Future.failedFuture(new MetricProviderException(e.getMessage(), e));
    }
    OAuth2Config o =
        config.getAuthentication() == null ? null : config.getAuthentication().getOauth2();
    Future<List<Map.Entry<String, String>>> headers;
    if (o != null && o.getTokenUrl() != null && !o.getTokenUrl().isBlank()) {
      headers =
          oauth2
              .token(
                  new OAuth2ClientCredentials.Config(
                      o.getTokenUrl(), o.getClientId(), o.getClientSecret(), o.getScopes()),
                  settings.insecure(),
                  settings.timeout())
              .map(
                  t -> {
                    List<Map.Entry<String, String>> all = new ArrayList<>(settings.headers());
                    all.add(Map.entry("Authorization", t.authorization()));
                    return all;
                  });
    } else {
      headers = Future.succeededFuture(settings.headers());
    }
    return headers
        .compose(
            h ->
                http.send(
                    new MetricHttpClient.Call(
                        settings.method(),
                        settings.url(),
                        h,
                        settings.body(),
                        null,
                        settings.insecure(),
                        settings.timeout())))
        .map(
            r -> {
              if (r.statusCode() == 401 && o != null) {
                // the server no longer accepts the cached token: fetch a new one for the next
                // measurement
                oauth2.invalidate(
                    new OAuth2ClientCredentials.Config(
                        o.getTokenUrl(), o.getClientId(), o.getClientSecret(), o.getScopes()));
              }
              return parse(r, settings.jsonPath());
            });
  }

  private static Settings settings(WebMetric config) {
    String url = config.getUrl();
    if (url == null || url.isBlank()) {
      throw new MetricProviderException("web metric url is required");
    }
    String m =
        config.getMethod() == null || config.getMethod().isBlank()
            ? "GET"
            : config.getMethod().toUpperCase(Locale.ROOT);
    HttpMethod method;
    switch (m) {
      case "GET" -> method = HttpMethod.GET;
      case "POST" -> method = HttpMethod.POST;
      case "PUT" -> method = HttpMethod.PUT;
      default ->
          throw new MetricProviderException(
              "web metric method \""
                  + config.getMethod()
                  + "\" is not supported; valid values are GET, POST and PUT");
    }
    boolean hasBody = config.getBody() != null && !config.getBody().isEmpty();
    boolean hasJsonBody = config.getJsonBody() != null && !config.getJsonBody().isNull();
    if (hasBody && hasJsonBody) {
      throw new MetricProviderException(
          "use either Body or JSONBody; both cannot exists for WebMetric payload");
    }
    if ((hasBody || hasJsonBody) && method == HttpMethod.GET) {
      throw new MetricProviderException(
          "Body can only be used with POST or PUT WebMetric Method types");
    }
    Map<String, Map.Entry<String, String>> headers = new LinkedHashMap<>();
    if (config.getHeaders() != null) {
      for (WebMetricHeader h : config.getHeaders()) {
        if (h.getKey() == null || h.getKey().isBlank()) {
          throw new MetricProviderException("web metric headers: key must not be empty");
        }
        headers.put(
            h.getKey().toLowerCase(Locale.ROOT),
            Map.entry(h.getKey(), h.getValue() == null ? "" : h.getValue()));
      }
    }
    Buffer body = null;
    if (hasBody) {
      body = Buffer.buffer(config.getBody());
    } else if (hasJsonBody) {
      try {
        body = Buffer.buffer(JSON.writeValueAsBytes(config.getJsonBody()));
      } catch (JsonProcessingException e) {
        throw new MetricProviderException("web metric jsonBody: " + e.getOriginalMessage(), e);
      }
      headers.put("content-type", Map.entry("Content-Type", "application/json"));
    }
    Duration timeout =
        config.getTimeoutSeconds() != null && config.getTimeoutSeconds() > 0
            ? Duration.ofSeconds(config.getTimeoutSeconds())
            : DEFAULT_TIMEOUT;
    JsonPath path;
    try {
      path = JsonPath.parse(config.getJsonPath());
    } catch (IllegalArgumentException e) {
      throw new MetricProviderException(e.getMessage(), e);
    }
    return new Settings(
        method,
        url,
        List.copyOf(headers.values()),
        body,
        timeout,
        Boolean.TRUE.equals(config.getInsecure()),
        path);
  }

  private static ProviderResult parse(HttpResponse<Buffer> response, JsonPath path) {
    if (response.statusCode() < 200 || response.statusCode() >= 300) {
      throw new MetricProviderException("received non 2xx response code: " + response.statusCode());
    }
    String body = response.body() == null ? "" : response.body().toString();
    Object document;
    try {
      document = GoFormat.numbersAsFloat64(JSON.readValue(body, Object.class));
    } catch (JsonProcessingException e) {
      return new ProviderResult.Value(body, body, Map.of());
    }
    List<Object> found;
    try {
      found = path.find(document);
    } catch (IllegalArgumentException e) {
      throw new MetricProviderException("Could not find JSONPath in body: " + e.getMessage());
    }
    if (found.isEmpty()) {
      throw new MetricProviderException(
          "Could not find JSONPath in body: " + path.source() + " selected no value");
    }
    Object value = path.definite() && found.size() == 1 ? found.get(0) : found;
    String text;
    try {
      text = GoFormat.marshalJson(value);
    } catch (IllegalArgumentException e) {
      throw new MetricProviderException(e.getMessage());
    }
    return new ProviderResult.Value(value, text, Map.of());
  }
}
