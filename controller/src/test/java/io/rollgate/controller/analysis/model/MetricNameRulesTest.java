package io.rollgate.controller.analysis.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rollgate.api.DryRun;
import io.rollgate.api.MeasurementRetention;
import io.rollgate.api.Metric;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MetricNameRulesTest {

  private static final List<Metric> METRICS =
      List.of(Metrics.web("success-rate"), Metrics.web("latency-p99"), Metrics.web("error-rate"));

  @Test
  void matchesUnanchored() throws Exception {
    assertEquals(
        Set.of("success-rate", "error-rate"),
        MetricNameRules.dryRunMetrics(List.of(dry("rate")), METRICS));
    assertEquals(
        Set.of("success-rate", "latency-p99", "error-rate"),
        MetricNameRules.dryRunMetrics(List.of(dry(".*")), METRICS));
    assertEquals(
        Set.of("latency-p99"), MetricNameRules.dryRunMetrics(List.of(dry("^lat")), METRICS));
    assertEquals(Set.of(), MetricNameRules.dryRunMetrics(null, METRICS));
  }

  @Test
  void rejectsARuleMatchingNothing() {
    var e =
        assertThrows(
            MetricNameRules.RuleException.class,
            () -> MetricNameRules.dryRunMetrics(List.of(dry("rate"), dry("^cpu$")), METRICS));
    assertEquals("dryRun[1]: Rule didn't match any metric name(s)", e.getMessage());
    e =
        assertThrows(
            MetricNameRules.RuleException.class,
            () -> MetricNameRules.retentionLimits(List.of(retention("[", 3)), METRICS));
    assertEquals("measurementRetention[0]: Rule didn't match any metric name(s)", e.getMessage());
  }

  @Test
  void appliesTheLastMatchingRetentionAndDefaultsToTen() throws Exception {
    Map<String, Integer> limits =
        MetricNameRules.retentionLimits(
            List.of(retention(".*", 20), retention("latency", 3)), METRICS);

    assertEquals(20, MetricNameRules.historyLimit(limits, "success-rate"));
    assertEquals(3, MetricNameRules.historyLimit(limits, "latency-p99"));
    assertEquals(10, MetricNameRules.historyLimit(Map.of(), "success-rate"));
    assertEquals(
        10, MetricNameRules.historyLimit(Map.of("x", 0), "x"), "a limit of 0 means the default");
  }

  private static DryRun dry(String name) {
    DryRun d = new DryRun();
    d.setMetricName(name);
    return d;
  }

  private static MeasurementRetention retention(String name, int limit) {
    MeasurementRetention r = new MeasurementRetention();
    r.setMetricName(name);
    r.setLimit(limit);
    return r;
  }
}
