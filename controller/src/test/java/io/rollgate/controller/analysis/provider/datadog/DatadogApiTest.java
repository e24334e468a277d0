package io.rollgate.controller.analysis.provider.datadog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.vertx.core.http.HttpMethod;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DatadogApiTest {

  static final Instant NOW = Instant.ofEpochSecond(1_700_000_000);

  static DatadogConfig config(
      String version, String query, Map<String, String> queries, String formula, String agg) {
    return new DatadogConfig(version, "5m", query, queries, formula, agg, null, null);
  }

  @Test
  void v1QueriesTheMetricsApiOverTheInterval() {
    DatadogApi.Request r =
        DatadogApi.request(
            config(null, "avg:errors{service:a b}", null, null, null),
            "http://dd",
            NOW,
            Duration.ofMinutes(5));
    assertEquals(HttpMethod.GET, r.method());
    assertEquals(
        "http://dd/api/v1/query?from=1699999700&query=avg%3Aerrors%7Bservice%3Aa+b%7D&to=1700000000",
        r.url());
    assertNull(r.body());
  }

  @Test
  void v2PostsAScalarRequestInMilliseconds() {
    DatadogApi.Request one =
        DatadogApi.request(
            config("v2", "sum:errors", null, null, null), "http://dd", NOW, Duration.ofMinutes(1));
    assertEquals(HttpMethod.POST, one.method());
    assertEquals("http://dd/api/v2/query/scalar", one.url());
    assertEquals(
        "{\"data\":{\"attributes\":{\"from\":1699999940000,\"to\":1700000000000,\"queries\":[{\"aggregator\":\"last\","
            + "\"data_source\":\"metrics\",\"name\":\"query\",\"query\":\"sum:errors\"}],\"formulas\":[]},"
            + "\"type\":\"scalar_request\"}}",
        one.body().toString());
    DatadogApi.Request formula =
        DatadogApi.request(
            config("v2", null, Map.of("b", "sum:hits", "a", "sum:errors"), "a/b", "sum"),
            "http://dd",
            NOW,
            Duration.ofMinutes(1));
    assertEquals(
        "{\"data\":{\"attributes\":{\"from\":1699999940000,\"to\":1700000000000,\"queries\":["
            + "{\"aggregator\":\"sum\",\"data_source\":\"metrics\",\"name\":\"a\",\"query\":\"sum:errors\"},"
            + "{\"aggregator\":\"sum\",\"data_source\":\"metrics\",\"name\":\"b\",\"query\":\"sum:hits\"}],"
            + "\"formulas\":[{\"formula\":\"a/b\"}]},\"type\":\"scalar_request\"}}",
        formula.body().toString());
  }

  @Test
  void readsTheLastPointOrTheFirstScalar() {
    ProviderResult.Value v1 =
        DatadogApi.parse(
            false,
            200,
            "{\"series\":[{\"pointlist\":[[1.0,0.5],[2.0,0.25]]},{\"pointlist\":[[1,9]]}]}");
    assertEquals(0.25, v1.value());
    assertEquals("0.25", v1.text());
    ProviderResult.Value v2 =
        DatadogApi.parse(
            true,
            200,
            "{\"data\":{\"attributes\":{\"columns\":[{\"name\":\"a\",\"values\":[12.0]}]}}}");
    assertEquals(12.0, v2.value());
    assertEquals("12", v2.text());
  }

  @Test
  void noDataIsANilValue() {
    ProviderResult.Value v1 = DatadogApi.parse(false, 200, "{\"series\":[]}");
    assertNull(v1.value());
    assertEquals("[]", v1.text());
    ProviderResult.Value v2 =
        DatadogApi.parse(true, 200, "{\"data\":{\"attributes\":{\"columns\":[{\"values\":[]}]}}}");
    assertNull(v2.value());
    assertEquals("[]", v2.text());
    assertNull(
        DatadogApi.parse(
                true, 200, "{\"data\":{\"attributes\":{\"columns\":[{\"values\":[null]}]}}}")
            .value());
  }

  @Test
  void errorsCarryDatadogsAnswer() {
    assertEquals(
        "received authentication error response code: 403 {\"errors\":[\"Forbidden\"]}",
        assertThrows(
                MetricProviderException.class,
                () -> DatadogApi.parse(false, 403, "{\"errors\":[\"Forbidden\"]}"))
            .getMessage());
    assertEquals(
        "received non 2xx response code: 500 oops",
        assertThrows(MetricProviderException.class, () -> DatadogApi.parse(true, 500, "oops"))
            .getMessage());
    assertEquals(
        "There were errors in your query: bad metric",
        assertThrows(
                MetricProviderException.class,
                () -> DatadogApi.parse(true, 200, "{\"data\":{\"errors\":\"bad metric\"}}"))
            .getMessage());
    assertEquals(
        "Datapoint does not have 2 values",
        assertThrows(
                MetricProviderException.class,
                () -> DatadogApi.parse(false, 200, "{\"series\":[{\"pointlist\":[[1]]}]}"))
            .getMessage());
    assertEquals(
        "received non 2xx response code: 502 " + "<".repeat(512) + "...",
        assertThrows(
                MetricProviderException.class, () -> DatadogApi.parse(false, 502, "<".repeat(2000)))
            .getMessage());
    String malformed =
        assertThrows(
                MetricProviderException.class, () -> DatadogApi.parse(false, 200, "{\"series\":"))
            .getMessage();
    assertEquals(true, malformed.startsWith("Could not parse JSON body: "), malformed);
  }
}
