package io.rollgate.controller.analysis.provider.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.controller.analysis.provider.common.GoFormat;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The two Prometheus HTTP API calls the provider makes, {@code /api/v1/query} and {@code
 * /api/v1/query_range}, sent as the Prometheus Go client sends them (form-encoded POST, GET when
 * the server answers 405 or 501) and answered with the Go client's error texts: {@code <errorType>:
 * <error>} from an error body, {@code server_error: server error: <code>} / {@code client_error:
 * client error: <code>} for other non-2xx answers.
 */
public final class PrometheusApi {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A successful answer: {@code data.resultType}, {@code data.result} and the top-level {@code
   * warnings}.
   */
  public record Answer(String resultType, JsonNode result, List<String> warnings) {}

  /** A range query's bounds; step in seconds (Prometheus' float seconds). */
  public record Range(Instant start, Instant end, Duration step) {}

  private final MetricHttpClient http;

  /**
   * Creates the API client.
   *
   * @param http the shared HTTP client
   */
  public PrometheusApi(MetricHttpClient http) {
    this.http = http;
  }

  /**
   * Runs an instant query at {@code time}, or a range query when {@code range} is given.
   *
   * @param address the server base URL (a trailing slash is ignored)
   * @param query the PromQL expression
   * @param time evaluation time of an instant query
   * @param range the range, or null for an instant query
   * @param headers request headers (user headers and the Authorization header)
   * @param insecure skip TLS verification
   * @param timeout total bound of the call
   * @return the answer, or a failure with the Go client's message
   */
  public Future<Answer> query(
      String address,
      String query,
      Instant time,
      Range range,
      List<Map.Entry<String, String>> headers,
      boolean insecure,
      Duration timeout) {
    String base = address.endsWith("/") ? address.substring(0, address.length() - 1) : address;
    MultiMap form = MultiMap.caseInsensitiveMultiMap().add("query", query);
    String url;
    if (range == null) {
      url = base + "/api/v1/query";
      form.add("time", unixSeconds(time));
    } else {
      url = base + "/api/v1/query_range";
      form.add("start", unixSeconds(range.start()));
      form.add("end", unixSeconds(range.end()));
      form.add("step", GoFormat.formatFloat(range.step().toNanos() / 1e9));
    }
    return http.send(
            new MetricHttpClient.Call(HttpMethod.POST, url, headers, null, form, insecure, timeout))
        .compose(
            r -> {
              if (r.statusCode() == 405 || r.statusCode() == 501) {
                StringBuilder q = new StringBuilder();
                form.forEach(
                    e -> {
                      q.append(q.length() == 0 ? "?" : "&")
                          .append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8))
                          .append('=')
                          .append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
                    });
                return http.send(
                    new MetricHttpClient.Call(
                        HttpMethod.GET, url + q, headers, null, null, insecure, timeout));
              }
              return Future.succeededFuture(r);
            })
        .compose(PrometheusApi::answer);
  }

  /** Unix seconds with a fraction, as the Go client writes times ({@code 1700000000.123}). */
  static String unixSeconds(Instant t) {
    return GoFormat.formatFloat(t.getEpochSecond() + t.getNano() / 1e9);
  }

  static Future<Answer> answer(HttpResponse<Buffer> r) {
    int code = r.statusCode();
    boolean apiError = code == 400 || code == 422 || code == 503;
    if (code / 100 != 2 && !apiError) {
      return Future.failedFuture(
          new MetricProviderException(
              code / 100 == 5
                  ? "server_error: server error: " + code
                  : "client_error: client error: " + code));
    }
    JsonNode body;
    try {
      body = JSON.readTree(r.body() == null ? new byte[0] : r.body().getBytes());
    } catch (IOException e) {
      return Future.failedFuture(new MetricProviderException("bad_response: " + e.getMessage()));
    }
    if (body == null || body.isMissingNode()) {
      return Future.failedFuture(new MetricProviderException("bad_response: empty body"));
    }
    String status = body.path("status").asText("");
    if ("error".equals(status)) {
      return Future.failedFuture(
          new MetricProviderException(
              body.path("errorType").asText("") + ": " + body.path("error").asText("")));
    }
    if (apiError) {
      return Future.failedFuture(
          new MetricProviderException("bad_response: inconsistent body for response code"));
    }
    List<String> warnings = new ArrayList<>();
    for (JsonNode w : body.path("warnings")) {
      warnings.add(w.asText());
    }
    JsonNode data = body.path("data");
    return Future.succeededFuture(
        new Answer(data.path("resultType").asText(""), data.path("result"), warnings));
  }
}
