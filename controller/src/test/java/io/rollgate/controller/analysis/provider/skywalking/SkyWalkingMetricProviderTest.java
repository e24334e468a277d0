package io.rollgate.controller.analysis.provider.skywalking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SkyWalkingMetricProviderTest {

  @Test
  void sendsTheQueryWithItsDurationInMinutes() {
    assertEquals(
        "{\"query\":\"query q($duration: Duration!) { x }\",\"variables\":{\"duration\":"
            + "{\"start\":\"2024-05-01 1157\",\"end\":\"2024-05-01 1200\",\"step\":\"MINUTE\"}}}",
        SkyWalkingMetricProvider.body(
                "query q($duration: Duration!) { x }",
                Instant.parse("2024-05-01T12:00:30Z"),
                Duration.ofMinutes(3))
            .toString());
  }

  @Test
  void theDataObjectIsTheValue() {
    ProviderResult.Value v =
        SkyWalkingMetricProvider.parse(
            200, "{\"data\":{\"service_sla\":{\"values\":{\"values\":[{\"value\":9990}]}}}}");
    assertEquals(
        Map.of(
            "service_sla",
            Map.of("values", Map.of("values", java.util.List.of(Map.of("value", 9990.0))))),
        v.value());
    assertEquals("{\"service_sla\":{\"values\":{\"values\":[{\"value\":9990}]}}}", v.text());
  }

  @Test
  void graphQlErrorsAndBadAnswersAreErrors() {
    assertEquals(
        "graphql: Field 'x' is undefined",
        assertThrows(
                MetricProviderException.class,
                () ->
                    SkyWalkingMetricProvider.parse(
                        200, "{\"errors\":[{\"message\":\"Field 'x' is undefined\"}]}"))
            .getMessage());
    assertEquals(
        "graphql: server returned a non-200 status code: 502",
        assertThrows(
                MetricProviderException.class, () -> SkyWalkingMetricProvider.parse(502, "<html>"))
            .getMessage());
    assertEquals(
        "no results returned from SkyWalking query",
        assertThrows(
                MetricProviderException.class,
                () -> SkyWalkingMetricProvider.parse(200, "{\"data\":null}"))
            .getMessage());
  }
}
