package io.rollgate.controller.analysis.provider.wavefront;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WavefrontMetricProviderTest {

  static final Instant NOW = Instant.ofEpochSecond(1_700_000_000);

  @Test
  void addressIsAHostOrAUrl() {
    assertEquals(
        "https://example.wavefront.com", WavefrontMetricProvider.baseUrl("example.wavefront.com"));
    assertEquals(
        "example.wavefront.com", WavefrontMetricProvider.tokenKey("example.wavefront.com"));
    assertEquals(
        "http://127.0.0.1:8080", WavefrontMetricProvider.baseUrl("http://127.0.0.1:8080/"));
    assertEquals("127.0.0.1", WavefrontMetricProvider.tokenKey("http://127.0.0.1:8080"));
    assertEquals(
        "https://w/api/v2/chart/api?q=ts%28%22cpu%22%29&s=1700000000000&e=1700000000000&g=s&p=1&i=true&strict=false",
        WavefrontMetricProvider.url("https://w", "ts(\"cpu\")", NOW));
  }

  @Test
  void takesThePointClosestToTheMeasurementTime() {
    ProviderResult.Value v =
        WavefrontMetricProvider.parse(
            200,
            "{\"warnings\":\"slow\",\"timeseries\":[{\"data\":[[1699999990,1.5],[1700000003,2.25],[1700000010,9]]}]}",
            NOW);
    assertEquals(2.25, v.value());
    assertEquals("2.25", v.text());
    assertEquals(
        Map.of("warnings", "slow", "timestamps", "1700000003", "drift", "3"), v.metadata());
    ProviderResult.Value many =
        WavefrontMetricProvider.parse(
            200,
            "{\"timeseries\":[{\"data\":[[1700000000,1]]},{\"data\":[[1699999999,0.333]]}]}",
            NOW);
    assertEquals(List.of(1.0, 0.333), many.value());
    assertEquals("[1.00,0.33]", many.text());
    assertEquals("[0,-1]", many.metadata().get("drift"));
  }

  @Test
  void noSeriesAndBadAnswersAreErrors() {
    assertEquals(
        "No TimeSeries found in response from Wavefront",
        assertThrows(
                MetricProviderException.class,
                () -> WavefrontMetricProvider.parse(200, "{\"timeseries\":[]}", NOW))
            .getMessage());
    assertEquals(
        "server returned 401: {\"message\":\"no\"}",
        assertThrows(
                MetricProviderException.class,
                () -> WavefrontMetricProvider.parse(401, "{\"message\":\"no\"}", NOW))
            .getMessage());
  }
}
