package io.rollgate.controller.analysis.provider.wavefront;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.rollgate.controller.analysis.provider.common.ProviderConfigs;
import io.rollgate.controller.analysis.provider.common.ProviderSecrets;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Argo's Wavefront provider ({@code metrics[].provider.wavefront}, docs/compatibility.md §9.7;
 * docs/metric-providers.md): runs {@code query} through the chart API ({@code GET
 * https://<address>/api/v2/chart/api}) at the measurement time, with the token stored under the key
 * {@code <address>} of the {@code wavefront-api-tokens} Secret in the controller's namespace (sent
 * as {@code Authorization: Bearer}). From each returned series the point closest to the measurement
 * time is taken: one series gives a number, several a list of numbers. Measurement metadata: {@code
 * timestamps} (unix seconds of the points used), {@code drift} (their distance from the measurement
 * time, seconds) and Wavefront's {@code warnings}.
 *
 * <p>Rollgate also accepts an {@code address} with a scheme ({@code http://wavefront-proxy:8080}),
 * used as the base URL; its token is then the Secret key named by the address's host, since Secret
 * keys cannot hold {@code :} or {@code /}.
 */
public final class WavefrontMetricProvider implements MetricProvider {

  /** The Secret holding one API token per Wavefront address. */
  public static final String SECRET_NAME = "wavefront-api-tokens";

  /** Bound of one chart API call. */
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * {@code metrics[].provider.wavefront}.
   *
   * @param address the Wavefront host ({@code example.wavefront.com})
   * @param query the Wavefront query
   */
  record Config(@JsonProperty("address") String address, @JsonProperty("query") String query) {}

  private final MetricHttpClient http;
  private final ProviderSecrets secrets;

  /**
   * Creates the provider.
   *
   * @param http the shared HTTP client
   * @param secrets where the token Secret is read
   */
  public WavefrontMetricProvider(MetricHttpClient http, ProviderSecrets secrets) {
    this.http = http;
    this.secrets = secrets;
  }

  @Override
  public String type() {
    return "wavefront";
  }

  @Override
  public Future<ProviderResult> run(MeasurementContext ctx) {
    return ProviderConfigs.bind(ctx.metric(), type(), Config.class)
        .compose(config -> query(config, ctx.now()));
  }

  private Future<ProviderResult> query(Config config, Instant now) {
    String base = baseUrl(config.address());
    String key = tokenKey(config.address());
    return secrets
        .require(secrets.controllerNamespace(), SECRET_NAME)
        .compose(
            data -> {
              String token = data.get(key);
              if (token == null || token.isEmpty()) {
                return Future.failedFuture(new MetricProviderException("API token not found"));
              }
              return http.send(
                  new MetricHttpClient.Call(
                      HttpMethod.GET,
                      url(base, config.query(), now),
                      List.of(
                          Map.entry("Authorization", "Bearer " + token),
                          Map.entry("Accept", "application/json")),
                      null,
                      null,
                      false,
                      TIMEOUT));
            })
        .map(r -> parse(r.statusCode(), MetricHttpClient.bodyText(r), now));
  }

  static String baseUrl(String address) {
    String a = address.endsWith("/") ? address.substring(0, address.length() - 1) : address;
    return a.contains("://") ? a : "https://" + a;
  }

  static String tokenKey(String address) {
    if (!address.contains("://")) {
      return address;
    }
    String host = URI.create(address).getHost();
    return host == null ? address : host;
  }

  /** The chart API URL: one point per series, second granularity, at the measurement time. */
  static String url(String base, String query, Instant now) {
    String millis = Long.toString(now.getEpochSecond() * 1000);
    return base
        + "/api/v2/chart/api?q="
        + URLEncoder.encode(query, StandardCharsets.UTF_8)
        + "&s="
        + millis
        + "&e="
        + millis
        + "&g=s&p=1&i=true&strict=false";
  }

  /** Reads the chart answer. */
  static ProviderResult.Value parse(int status, String body, Instant now) {
    if (status != 200) {
      throw new MetricProviderException(
          "server returned " + status + ": " + MetricHttpClient.excerpt(body));
    }
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new MetricProviderException(
          "could not parse the Wavefront response: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new MetricProviderException(
          "could not parse the Wavefront response: expected an object");
    }
    Map<String, String> metadata = new HashMap<>();
    String warnings = root.path("warnings").asText("");
    if (!warnings.isEmpty()) {
      metadata.put("warnings", warnings);
    }
    JsonNode series = root.path("timeseries");
    if (!series.isArray() || series.isEmpty()) {
      throw new MetricProviderException("No TimeSeries found in response from Wavefront");
    }
    List<Double> values = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    List<String> epochs = new ArrayList<>();
    List<String> drifts = new ArrayList<>();
    long at = now.getEpochSecond();
    for (JsonNode s : series) {
      double value = 0;
      double time = 0;
      double delta = Double.POSITIVE_INFINITY;
      for (JsonNode point : s.path("data")) {
        double d = point.path(0).asDouble() - at;
        if (Math.abs(d) < Math.abs(delta)) {
          value = point.path(1).asDouble();
          time = point.path(0).asDouble();
          delta = d;
        }
      }
      values.add(value);
      texts.add(String.format(Locale.ROOT, "%.2f", value));
      epochs.add(Long.toString((long) time));
      drifts.add(Double.isInfinite(delta) ? "0" : Long.toString((long) delta));
    }
    if (values.size() == 1) {
      metadata.put("timestamps", epochs.get(0));
      metadata.put("drift", drifts.get(0));
      return new ProviderResult.Value(values.get(0), texts.get(0), metadata);
    }
    metadata.put("timestamps", "[" + String.join(",", epochs) + "]");
    metadata.put("drift", "[" + String.join(",", drifts) + "]");
    return new ProviderResult.Value(values, "[" + String.join(",", texts) + "]", metadata);
  }
}
