package io.rollgate.controller.analysis.provider.influxdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Secret;
import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.rollgate.controller.analysis.provider.common.ProviderConfigs;
import io.rollgate.controller.analysis.provider.common.ProviderSecrets;
import io.rollgate.expr.GoValues;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Argo's InfluxDB provider ({@code metrics[].provider.influxdb}, docs/compatibility.md §9.7;
 * docs/metric-providers.md): runs the Flux {@code query} through InfluxDB's v2 query API ({@code
 * POST <address>/api/v2/query?org=<org>}, header {@code Authorization: Token <authToken>}) and
 * answers the {@code _value} of every returned record, across all tables, as a list: the value the
 * conditions see as {@code result} (for example {@code result[0] < 0.05}).
 *
 * <p>Credentials: the Secret named by {@code profile}, else {@code influxdb}, in the controller's
 * namespace, with the keys {@code address}, {@code authToken} and {@code org} (all three required).
 * Each query times out after 30 seconds. Errors (Secret missing or incomplete, server unreachable,
 * a rejected query, an answer without records) are Error measurements with the reason as message.
 */
public final class InfluxdbMetricProvider implements MetricProvider {

  /** The Secret read when {@code profile} is not set (Argo's). */
  public static final String DEFAULT_SECRET = "influxdb";

  /** The time one query may take: 30 seconds, Argo's. */
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Reads a Secret; completes with {@code null} when it does not exist. */
  @FunctionalInterface
  public interface SecretReader {
    /**
     * Reads a Secret.
     *
     * @param namespace the namespace
     * @param name the name
     * @return the Secret, or {@code null} when there is none; fails when it cannot be read
     */
    Future<Secret> get(String namespace, String name);
  }

  private record Credentials(String address, String authToken, String org) {}

  private final MetricHttpClient http;
  private final ProviderSecrets secrets;

  /**
   * Creates the provider.
   *
   * @param http the shared metric HTTP client
   * @param secrets reads the credentials Secret (the controller's {@code KubeApi#getSecret})
   * @param namespace the controller's namespace, where the Secret is read
   */
  public InfluxdbMetricProvider(MetricHttpClient http, SecretReader secrets, String namespace) {
    this.http = http;
    this.secrets = new ProviderSecrets(secrets::get, namespace);
  }

  @Override
  public String type() {
    return "influxdb";
  }

  @Override
  public Future<ProviderResult> run(MeasurementContext ctx) {
    String profile;
    String query;
    try {
      Map<String, Object> config = ProviderConfigs.of(ctx.metric(), type());
      profile = ProviderConfigs.string(config, type(), "profile");
      query = ProviderConfigs.string(config, type(), "query");
    } catch (MetricProviderException e) {
      return Future.failedFuture(e);
    }
    String secretName = profile == null || profile.isEmpty() ? DEFAULT_SECRET : profile;
    return secrets
        .require(secrets.controllerNamespace(), secretName)
        .compose(InfluxdbMetricProvider::credentials)
        .compose(credentials -> query(credentials, query == null ? "" : query))
        .map(InfluxdbMetricProvider::toResult);
  }

  private static Future<Credentials> credentials(Map<String, String> data) {
    String address = data.getOrDefault("address", "");
    String token = data.getOrDefault("authToken", "");
    String org = data.getOrDefault("org", "");
    if (address.isEmpty() || token.isEmpty() || org.isEmpty()) {
      return Future.failedFuture(
          new MetricProviderException("authToken, org, or address not found"));
    }
    return Future.succeededFuture(new Credentials(address, token, org));
  }

  private Future<List<Object>> query(Credentials credentials, String query) {
    String url;
    try {
      url = FluxQuery.url(credentials.address(), credentials.org());
    } catch (MetricProviderException e) {
      return Future.failedFuture(e);
    }
    // No Accept header, as InfluxDB's client library: with "Accept: text/csv" InfluxDB 1.8 writes
    // its errors as CSV instead of JSON with the X-Influxdb-Error header.
    MetricHttpClient.Call call =
        new MetricHttpClient.Call(
            HttpMethod.POST,
            url,
            List.of(
                Map.entry("Authorization", "Token " + credentials.authToken()),
                Map.entry("Content-Type", "application/json")),
            Buffer.buffer(FluxQuery.body(query)),
            null,
            false,
            TIMEOUT);
    return http.send(call).map(InfluxdbMetricProvider::values);
  }

  private static List<Object> values(HttpResponse<Buffer> response) {
    int status = response.statusCode();
    if (status < 200 || status >= 300) {
      throw new MetricProviderException(
          FluxQuery.httpError(
              status,
              response.statusMessage(),
              response.getHeader("Content-Type"),
              response.getHeader("X-Influxdb-Error"),
              response.bodyAsString()));
    }
    return FluxCsv.values(response.bodyAsString());
  }

  private static ProviderResult toResult(List<Object> values) {
    if (values.isEmpty()) {
      throw new MetricProviderException("no results returned from flux query");
    }
    return new ProviderResult.Value(values, GoValues.sprint(values), null);
  }

  /** The request and error shapes of the v2 query API. */
  static final class FluxQuery {

    private FluxQuery() {}

    /** {@code <address>/api/v2/query?org=<org>}; the address must be an absolute http(s) URL. */
    static String url(String address, String org) {
      java.net.URI uri;
      try {
        uri = new java.net.URI(address.trim());
      } catch (java.net.URISyntaxException e) {
        throw new MetricProviderException("influxdb address " + address + " is not a valid URL", e);
      }
      if (uri.getScheme() == null
          || uri.getRawAuthority() == null
          || !List.of("http", "https")
              .contains(uri.getScheme().toLowerCase(java.util.Locale.ROOT))) {
        throw new MetricProviderException("influxdb address " + address + " is not a valid URL");
      }
      String path = uri.getRawPath() == null ? "" : uri.getRawPath();
      path = (path.endsWith("/") ? path : path + "/") + "api/v2/query";
      return uri.getScheme()
          + "://"
          + uri.getRawAuthority()
          + path
          + "?org="
          + java.net.URLEncoder.encode(org, StandardCharsets.UTF_8);
    }

    /**
     * The JSON body: the query, type {@code flux} and the annotated-CSV dialect {@link FluxCsv}
     * reads.
     */
    static String body(String query) {
      ObjectNode body = JSON.createObjectNode();
      body.put("query", query);
      body.put("type", "flux");
      ObjectNode dialect = body.putObject("dialect");
      dialect.putArray("annotations").add("datatype").add("group").add("default");
      dialect.put("delimiter", ",");
      dialect.put("header", true);
      return body.toString();
    }

    /**
     * The message of a non-2xx answer: {@code <code>: <message>} from a JSON body with those
     * fields, else {@code <status line>: <X-Influxdb-Error header>} (InfluxDB 1.8 sends the reason
     * there and as {@code error} in its JSON body), else {@code Unexpected status code <status>}.
     */
    static String httpError(
        int status, String reason, String contentType, String errorHeader, String body) {
      String code = "";
      String message = "";
      String bodyError = "";
      if (contentType != null
          && contentType.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
        try {
          JsonNode json = JSON.readTree(body == null ? "" : body);
          if (json != null && json.isObject()) {
            code = json.path("code").asText("");
            message = json.path("message").asText("");
            bodyError = json.path("error").asText("");
          }
        } catch (java.io.IOException e) {
          return "Unexpected status code " + status + ": " + e.getMessage();
        }
      } else if (body != null && !body.isBlank()) {
        code = status + " " + reason;
        message = body.strip();
      }
      if (code.isEmpty() && message.isEmpty()) {
        if (status == 429) {
          return "too many requests: exceeded rate limit";
        }
        if (status == 503) {
          return "unavailable: service temporarily unavailable";
        }
        code = status + " " + reason;
        message = errorHeader != null && !errorHeader.isEmpty() ? errorHeader : bodyError;
      }
      if (!code.isEmpty() && !message.isEmpty()) {
        return code + ": " + message;
      }
      return "Unexpected status code " + status;
    }
  }
}
