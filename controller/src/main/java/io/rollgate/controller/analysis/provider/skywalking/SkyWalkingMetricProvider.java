package io.rollgate.controller.analysis.provider.skywalking;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.GoFormat;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.rollgate.controller.analysis.provider.common.ProviderConfigs;
import io.rollgate.defaults.GoDurations;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * Argo's SkyWalking provider ({@code metrics[].provider.skywalking}, docs/compatibility.md §9.7;
 * docs/metric-providers.md): sends the GraphQL {@code query} to {@code <address>/graphql} with the
 * variable {@code duration {start, end, step: MINUTE}} covering the last {@code interval} (times as
 * {@code yyyy-MM-dd HHmm}, UTC). The value the conditions see is the answer's whole {@code data}
 * object; GraphQL {@code errors} are an Error. The call is bounded by 30 seconds.
 */
public final class SkyWalkingMetricProvider implements MetricProvider {

  /** Bound of one query. */
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  static final DateTimeFormatter MINUTE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HHmm").withZone(ZoneOffset.UTC);

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * {@code metrics[].provider.skywalking}.
   *
   * @param address the OAP server's base URL
   * @param query the GraphQL query; it may use {@code $duration}
   * @param interval the Go duration the query looks back over
   */
  record Config(
      @JsonProperty("address") String address,
      @JsonProperty("query") String query,
      @JsonProperty("interval") String interval) {}

  private final MetricHttpClient http;

  /**
   * Creates the provider.
   *
   * @param http the shared HTTP client
   */
  public SkyWalkingMetricProvider(MetricHttpClient http) {
    this.http = http;
  }

  @Override
  public String type() {
    return "skywalking";
  }

  @Override
  public Future<ProviderResult> run(MeasurementContext ctx) {
    return ProviderConfigs.bind(ctx.metric(), type(), Config.class)
        .compose(config -> query(config, ctx.now()));
  }

  private Future<ProviderResult> query(Config config, Instant now) {
    Duration interval =
        GoDurations.parse(config.interval())
            .orElseThrow(
                () ->
                    new MetricProviderException(
                        "skywalking.interval: invalid duration " + config.interval()));
    String address =
        config.address().endsWith("/")
            ? config.address().substring(0, config.address().length() - 1)
            : config.address();
    return http.send(
            new MetricHttpClient.Call(
                HttpMethod.POST,
                address + "/graphql",
                List.of(
                    Map.entry("Content-Type", "application/json"),
                    Map.entry("Accept", "application/json")),
                body(config.query(), now, interval),
                null,
                false,
                TIMEOUT))
        .map(r -> parse(r.statusCode(), MetricHttpClient.bodyText(r)));
  }

  /** The GraphQL request: the query and its {@code duration} variable. */
  static Buffer body(String query, Instant now, Duration interval) {
    ObjectNode body = JSON.createObjectNode();
    body.put("query", query);
    ObjectNode duration = body.putObject("variables").putObject("duration");
    duration.put("start", MINUTE.format(now.minus(interval)));
    duration.put("end", MINUTE.format(now));
    duration.put("step", "MINUTE");
    return Buffer.buffer(body.toString());
  }

  /** Reads the GraphQL answer. */
  static ProviderResult.Value parse(int status, String body) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      if (status != 200) {
        throw new MetricProviderException(
            "graphql: server returned a non-200 status code: " + status);
      }
      throw new MetricProviderException("graphql: decoding response: " + e.getOriginalMessage());
    }
    String errors = ProviderConfigs.graphQlErrors(root);
    if (errors != null) {
      throw new MetricProviderException("graphql: " + errors);
    }
    if (status != 200) {
      throw new MetricProviderException(
          "graphql: server returned a non-200 status code: " + status);
    }
    JsonNode data = root == null ? null : root.get("data");
    if (data == null || data.isNull()) {
      throw new MetricProviderException("no results returned from SkyWalking query");
    }
    Object value = GoFormat.numbersAsFloat64(JSON.convertValue(data, Object.class));
    return new ProviderResult.Value(value, GoFormat.marshalJson(value), Map.of());
  }
}
