package io.rollgate.controller.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.Measurement;
import io.rollgate.api.Metric;
import io.rollgate.controller.analysis.provider.ProviderResult;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MeasurementOutcomeTest {

  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
  private static final Clock CLOCK = Clock.fixed(T0.plusSeconds(2), ZoneOffset.UTC);

  @Test
  void judgesValuesWithTheMetricsConditions() {
    Metric m = metric("result[0] >= 0.9", "result[0] < 0.5");

    assertEquals("Successful", judge(m, List.of(0.95)).getPhase());
    assertEquals("Failed", judge(m, List.of(0.4)).getPhase());
    Measurement inconclusive = judge(m, List.of(0.7));
    assertEquals("Inconclusive", inconclusive.getPhase());
    assertEquals("[0.7]", inconclusive.getValue());
    assertEquals("2026-11-30T10:00:00Z", inconclusive.getStartedAt());
    assertEquals("2026-11-30T10:00:02Z", inconclusive.getFinishedAt());
    assertEquals(
        "Successful", judge(metric(null, null), "anything").getPhase(), "no condition: Successful");
  }

  @Test
  void anUnevaluableConditionIsAnError() {
    Measurement noData = judge(metric("result[0] > 1", null), List.of());
    assertEquals("Error", noData.getPhase());
    assertEquals(
        "metric result is nil or empty: no data returned from the metric provider",
        noData.getMessage());

    Measurement notBool = judge(metric("result", null), 3.0);
    assertEquals("Error", notBool.getPhase());
    assertTrue(
        notBool.getMessage().startsWith("could not evaluate successCondition \"result\": "),
        notBool.getMessage());
  }

  @Test
  void splitsMetricResultMetadataAndMasksSecrets() {
    ProviderResult.Value value =
        new ProviderResult.Value(
            1.0,
            "1 token=hunter2",
            Map.of(
                "warnings", "w", "metricResult.ResolvedPrometheusQuery", "up{token=\"hunter2\"}"));

    MeasurementOutcome o =
        MeasurementOutcome.of(
            metric(null, null), null, false, Set.of("hunter2"), value, null, T0, CLOCK);

    assertEquals(Map.of("warnings", "w"), o.measurement().getMetadata());
    assertEquals(Map.of("ResolvedPrometheusQuery", "up{token=\"hunter2\"}"), o.resultMetadata());
    assertEquals("1 token=*****", o.measurement().getValue());

    MeasurementOutcome failed =
        MeasurementOutcome.of(
            metric(null, null),
            null,
            false,
            Set.of("hunter2"),
            null,
            "GET http://x?k=hunter2: 401",
            T0,
            CLOCK);
    assertEquals("Error", failed.measurement().getPhase());
    assertEquals("GET http://x?k=*****: 401", failed.measurement().getMessage());
  }

  @Test
  void keepsRunningMeasurementsOpenAndCompletesThemInPlace() {
    ProviderResult.Running running =
        new ProviderResult.Running(
            T0.plusMillis(1500), Map.of("job-name", "j", "job-namespace", "ns"));

    MeasurementOutcome open =
        MeasurementOutcome.of(metric(null, null), null, false, Set.of(), running, null, T0, CLOCK);
    Measurement m = open.measurement();
    assertEquals("Running", m.getPhase());
    assertEquals(
        "2026-11-30T10:00:02Z",
        m.getResumeAt(),
        "resumeAt is rounded up, never earlier than asked");
    assertNull(m.getFinishedAt());

    MeasurementOutcome done =
        MeasurementOutcome.of(
            metric(null, null),
            m,
            false,
            Set.of(),
            new ProviderResult.Verdict("Successful", null, Map.of("job-name", "j")),
            null,
            T0.plusSeconds(5),
            CLOCK);
    assertTrue(done.replacesLast());
    assertEquals("2026-11-30T10:00:00Z", done.measurement().getStartedAt());
    assertNull(done.measurement().getResumeAt());
    assertEquals("ns", done.measurement().getMetadata().get("job-namespace"));
  }

  @Test
  void marksTerminatedMeasurements() {
    Measurement running = new Measurement();
    running.setPhase("Running");
    running.setStartedAt("2026-11-30T10:00:00Z");

    MeasurementOutcome o =
        MeasurementOutcome.of(
            metric(null, null),
            running,
            true,
            Set.of(),
            new ProviderResult.Verdict("Successful", "done", null),
            null,
            T0,
            CLOCK);

    assertEquals("Successful", o.measurement().getPhase());
    assertEquals("Metric Terminated", o.measurement().getMessage());
  }

  private static Measurement judge(Metric m, Object value) {
    return MeasurementOutcome.of(
            m,
            null,
            false,
            Set.of(),
            new ProviderResult.Value(
                value,
                value instanceof List<?> l
                    ? "["
                        + l.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElse("")
                        + "]"
                    : String.valueOf(value),
                null),
            null,
            T0,
            CLOCK)
        .measurement();
  }

  private static Metric metric(String success, String failure) {
    Metric m = new Metric();
    m.setName("m");
    m.setSuccessCondition(success);
    m.setFailureCondition(failure);
    return m;
  }
}
