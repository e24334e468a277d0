package io.rollgate.controller.analysis.provider.datadog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.GoFormat;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The two Datadog HTTP APIs the provider calls, as pure request builders and response parsers: v1
 * {@code GET /api/v1/query?from=&query=&to=} (unix seconds) and v2 {@code POST
 * /api/v2/query/scalar} with a {@code scalar_request} body (unix milliseconds).
 */
final class DatadogApi {

  /** Datadog's public API address, used when the credentials carry no {@code address}. */
  static final String DEFAULT_ADDRESS = "https://api.datadoghq.com";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A request to send: method, absolute URL and body (null for GET). */
  record Request(HttpMethod method, String url, Buffer body) {}

  private DatadogApi() {}

  /**
   * Builds the query request.
   *
   * @param config the metric's configuration
   * @param address the API base URL, without a trailing slash
   * @param now the measurement time (the window's end)
   * @param interval the window's length
   * @return the request
   */
  static Request request(DatadogConfig config, String address, Instant now, Duration interval) {
    long to = now.getEpochSecond();
    long from = to - interval.toSeconds();
    if (!config.v2()) {
      String url =
          address
              + "/api/v1/query?from="
              + from
              + "&query="
              + URLEncoder.encode(config.query(), StandardCharsets.UTF_8)
              + "&to="
              + to;
      return new Request(HttpMethod.GET, url, null);
    }
    Map<String, String> queries =
        config.query() != null && !config.query().isEmpty()
            ? Map.of("query", config.query())
            : new TreeMap<>(config.queries());
    String aggregator =
        config.aggregator() == null || config.aggregator().isEmpty() ? "last" : config.aggregator();
    ObjectNode attributes = JSON.createObjectNode();
    attributes.put("from", from * 1000);
    attributes.put("to", to * 1000);
    ArrayNode q = attributes.putArray("queries");
    queries.forEach(
        (name, query) ->
            q.addObject()
                .put("aggregator", aggregator)
                .put("data_source", "metrics")
                .put("name", name)
                .put("query", query));
    ArrayNode formulas = attributes.putArray("formulas");
    if (config.formula() != null && !config.formula().isEmpty()) {
      formulas.addObject().put("formula", config.formula());
    }
    ObjectNode body = JSON.createObjectNode();
    ObjectNode data = body.putObject("data");
    data.set("attributes", attributes);
    data.put("type", "scalar_request");
    return new Request(
        HttpMethod.POST, address + "/api/v2/query/scalar", Buffer.buffer(body.toString()));
  }

  /**
   * Reads the answer: the last point of the first v1 series, or the first value of the first v2
   * column. No data is a {@code null} value, which the conditions can test ({@code isNil(result)},
   * {@code default(result, 0)}).
   *
   * @param v2 whether the v2 API answered
   * @param status the HTTP status code
   * @param body the response body
   * @return the value
   * @throws MetricProviderException for a non-200 answer, a body that is not the expected JSON, or
   *     query errors
   */
  static ProviderResult.Value parse(boolean v2, int status, String body) {
    if (status == 401 || status == 403) {
      throw new MetricProviderException(
          "received authentication error response code: "
              + status
              + " "
              + MetricHttpClient.excerpt(body));
    }
    if (status != 200) {
      throw new MetricProviderException(
          "received non 2xx response code: " + status + " " + MetricHttpClient.excerpt(body));
    }
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new MetricProviderException("Could not parse JSON body: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new MetricProviderException(
          "Could not parse JSON body: expected an object, got " + MetricHttpClient.excerpt(body));
    }
    return v2 ? parseV2(root) : parseV1(root);
  }

  private static ProviderResult.Value parseV1(JsonNode root) {
    JsonNode series = root.path("series");
    JsonNode points = series.path(0).path("pointlist");
    if (!points.isArray() || points.isEmpty()) {
      List<Object> empty = new ArrayList<>();
      for (JsonNode s : series) {
        empty.add(Map.of("pointlist", s.path("pointlist").isArray() ? List.of() : "null"));
      }
      return new ProviderResult.Value(
          null, series.isArray() ? GoFormat.marshalJson(empty) : "null", Map.of());
    }
    JsonNode last = points.get(points.size() - 1);
    if (!last.isArray() || last.size() != 2) {
      throw new MetricProviderException("Datapoint does not have 2 values");
    }
    if (last.get(1).isNull()) {
      return new ProviderResult.Value(null, "null", Map.of());
    }
    return number(last.get(1));
  }

  private static ProviderResult.Value parseV2(JsonNode root) {
    JsonNode data = root.path("data");
    String errors = data.path("errors").asText("");
    if (!errors.isEmpty()) {
      throw new MetricProviderException("There were errors in your query: " + errors);
    }
    JsonNode columns = data.path("attributes").path("columns");
    JsonNode first = columns.path(0).path("values").path(0);
    if (first.isMissingNode() || first.isNull()) {
      String text;
      if (columns.isArray() && columns.size() == 1) {
        JsonNode values = columns.get(0).path("values");
        text =
            values.isArray()
                ? GoFormat.marshalJson(
                    GoFormat.numbersAsFloat64(JSON.convertValue(values, List.class)))
                : "null";
      } else {
        text = "{\"Columns\":" + (columns.isArray() && !columns.isEmpty() ? "[]" : "null") + "}";
      }
      return new ProviderResult.Value(null, text, Map.of());
    }
    return number(first);
  }

  private static ProviderResult.Value number(JsonNode node) {
    if (!node.isNumber()) {
      throw new MetricProviderException(
          "Could not parse JSON body: value " + node + " is not a number");
    }
    double v = node.asDouble();
    return new ProviderResult.Value(v, GoFormat.formatFloat(v), Map.of());
  }
}
