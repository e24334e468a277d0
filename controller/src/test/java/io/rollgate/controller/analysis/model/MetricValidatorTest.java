package io.rollgate.controller.analysis.model;

import static io.rollgate.controller.analysis.model.Metrics.i;
import static io.rollgate.controller.analysis.model.Metrics.web;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rollgate.api.JobMetric;
import io.rollgate.api.Metric;
import io.rollgate.api.MetricProviderConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MetricValidatorTest {

  @Test
  void acceptsAPlainMetric() {
    assertEquals(Optional.empty(), MetricValidator.validate(List.of(web("a"))));
  }

  @Test
  void reportsArgosMessages() {
    assertEquals("no metrics specified", problem(List.of()));
    assertEquals("metrics[1]: duplicate name 'a'", problem(List.of(web("a"), web("a"))));

    Metric m = web("m");
    m.setConsecutiveSuccessLimit(i(-1));
    assertEquals("metrics[0]: consecutiveSuccessLimit must be >= 0", problem(List.of(m)));
    m = web("m");
    m.setFailureLimit(i(-2));
    assertEquals(
        "metrics[0]: failureLimit must be >= 0, or -1 to be disabled", problem(List.of(m)));
    m = web("m");
    m.setFailureLimit(i(-1));
    assertEquals(
        "metrics[0]: failureLimit and consecutiveSuccessLimit cannot both be disabled",
        problem(List.of(m)));
    m = web("m");
    m.setInconclusiveLimit(i(-1));
    assertEquals("metrics[0]: inconclusiveLimit must be >= 0", problem(List.of(m)));
    m = web("m");
    m.setConsecutiveErrorLimit(i(-1));
    assertEquals("metrics[0]: consecutiveErrorLimit must be >= 0", problem(List.of(m)));
  }

  @Test
  void checksCountAgainstLimits() {
    Metric m = web("m");
    m.setInterval("1s");
    m.setCount(i(3));
    m.setFailureLimit(i(2));
    m.setConsecutiveSuccessLimit(i(2));
    assertEquals(
        "metrics[0]: count (3) must be >= failureLimit + consecutiveSuccessLimit (2 + 2) if both >= 0",
        problem(List.of(m)));
    m.setFailureLimit(i(-1));
    m.setConsecutiveSuccessLimit(i(4));
    assertEquals("metrics[0]: count must be >= consecutiveSuccessLimit", problem(List.of(m)));
    m = web("m");
    m.setInterval("1s");
    m.setCount(i(2));
    m.setInconclusiveLimit(i(3));
    assertEquals("metrics[0]: count must be >= inconclusiveLimit", problem(List.of(m)));
  }

  @Test
  void checksIntervalsAndProviders() {
    Metric m = web("m");
    m.setCount(i(2));
    assertEquals("metrics[0]: interval must be specified when count > 1", problem(List.of(m)));
    m.setInterval("5x");
    assertEquals(
        "metrics[0]: invalid interval string: time: invalid duration \"5x\"", problem(List.of(m)));
    m.setInterval("5");
    assertEquals(
        "metrics[0]: invalid interval string: time: missing unit in duration \"5\"",
        problem(List.of(m)));
    m = web("m");
    m.setInitialDelay("soon");
    assertEquals(
        "metrics[0]: invalid startDelay string: time: invalid duration \"soon\"",
        problem(List.of(m)));
    m = web("m");
    m.setProvider(null);
    assertEquals("metrics[0]: no provider specified", problem(List.of(m)));
    m = web("m");
    m.getProvider().setJob(new JobMetric());
    assertEquals("metrics[0]: multiple providers specified", problem(List.of(m)));
    m = web("m");
    MetricProviderConfig other = new MetricProviderConfig();
    other.setAdditionalProperty("datadog", Map.of("query", "q"));
    m.setProvider(other);
    assertEquals(
        Optional.empty(),
        MetricValidator.validate(List.of(m)),
        "an unmodelled provider is still one provider");
  }

  private static String problem(List<Metric> metrics) {
    return MetricValidator.validate(metrics).orElse("<valid>");
  }
}
