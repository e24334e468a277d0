package io.rollgate.controller.analysis.provider.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rollgate.api.Metric;
import io.rollgate.api.MetricProviderConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProviderConfigsTest {

  static Metric metric(String type, Object config) {
    MetricProviderConfig provider = new MetricProviderConfig();
    provider.getAdditionalProperties().put(type, config);
    Metric m = new Metric();
    m.setProvider(provider);
    return m;
  }

  @Test
  void readsTheProvidersObjectAndItsStringFields() {
    Map<String, Object> config =
        ProviderConfigs.of(metric("graphite", Map.of("address", "http://g")), "graphite");
    assertEquals("http://g", ProviderConfigs.string(config, "graphite", "address"));
    assertNull(ProviderConfigs.string(config, "graphite", "query"));
  }

  @Test
  void missingProviderOrWrongTypesAreNamed() {
    assertEquals(
        "metric has no influxdb provider",
        assertThrows(
                MetricProviderException.class,
                () -> ProviderConfigs.of(metric("graphite", Map.of()), "influxdb"))
            .getMessage());
    assertEquals(
        "provider.graphite must be an object",
        assertThrows(
                MetricProviderException.class,
                () -> ProviderConfigs.of(metric("graphite", "x"), "graphite"))
            .getMessage());
    assertEquals(
        "provider.graphite.query must be a string",
        assertThrows(
                MetricProviderException.class,
                () -> ProviderConfigs.string(Map.of("query", 5), "graphite", "query"))
            .getMessage());
  }
}
