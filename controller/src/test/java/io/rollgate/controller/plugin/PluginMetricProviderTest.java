package io.rollgate.controller.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.Metric;
import io.rollgate.api.ModelJson;
import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.vertx.core.Future;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Answers of metric-provider plugins and the plugin a metric names (docs/plugins.md,
 * "Metric-provider plugins").
 */
class PluginMetricProviderTest {

  static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");

  static JsonNode json(String text) {
    try {
      return ModelJson.mapper().readTree(text);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static ProviderResult decoded(String answer) {
    Future<ProviderResult> f = PluginMetricProvider.decode("org/p", "run", json(answer), NOW);
    assertTrue(f.succeeded(), () -> String.valueOf(f.cause()));
    return f.result();
  }

  static String failure(String answer) {
    Future<ProviderResult> f = PluginMetricProvider.decode("org/p", "run", json(answer), NOW);
    assertTrue(f.failed());
    return f.cause().getMessage();
  }

  @Test
  void completedMeasurementKeepsThePluginsPhaseValueMessageAndMetadata() {
    ProviderResult r =
        decoded(
            "{\"measurement\":{\"phase\":\"Failed\",\"value\":\"[3]\",\"message\":\"too high\","
                + "\"metadata\":{\"query\":\"vector(3)\"}},\"error\":\"\"}");
    assertEquals(
        new ProviderResult.Verdict("Failed", "too high", Map.of("query", "vector(3)"), "[3]"), r);
  }

  @Test
  void runningMeasurementIsResumedAtItsResumeAt_orTenSecondsLater() {
    assertEquals(
        new ProviderResult.Running(Instant.parse("2026-12-02T10:05:00Z"), Map.of()),
        decoded("{\"measurement\":{\"phase\":\"Running\",\"resumeAt\":\"2026-12-02T10:05:00Z\"}}"));
    assertEquals(
        new ProviderResult.Running(NOW.plusSeconds(10), Map.of()),
        decoded("{\"measurement\":{\"phase\":\"Pending\"}}"));
  }

  @Test
  void errorsAndBadAnswersAreNamed() {
    assertEquals(
        "plugin org/p: cannot reach prometheus",
        failure("{\"error\":\"cannot reach prometheus\"}"));
    assertEquals(
        "plugin org/p: run answered a bad measurement.phase 'Done' is not one of Pending, Running,"
            + " Successful, Failed, Inconclusive, Error",
        failure("{\"measurement\":{\"phase\":\"Done\"}}"));
    assertEquals(
        "plugin org/p: run answered a bad measurement: expected an object, got \"x\"",
        failure("{\"measurement\":\"x\"}"));
  }

  @Test
  void theMetricNamesExactlyOnePlugin() {
    Metric one =
        ModelJson.mapper()
            .convertValue(
                json(
                    "{\"name\":\"m\",\"provider\":{\"plugin\":{\"argoproj/sample-prometheus\":{\"query\":\"up\"}}}}"),
                Metric.class);
    assertEquals(
        "argoproj/sample-prometheus",
        PluginMetricProvider.pluginName(new MeasurementContext(null, one, NOW, Set.of())));
    Metric two =
        ModelJson.mapper()
            .convertValue(
                json("{\"name\":\"m\",\"provider\":{\"plugin\":{\"a/b\":{},\"c/d\":{}}}}"),
                Metric.class);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PluginMetricProvider.pluginName(new MeasurementContext(null, two, NOW, Set.of())));
    assertTrue(
        e.getMessage().startsWith("metric m: provider.plugin must name exactly one plugin"),
        e.getMessage());
  }
}
