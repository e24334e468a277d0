package io.rollgate.controller.analysis.model;

import static io.rollgate.controller.analysis.model.Metrics.i;
import static io.rollgate.controller.analysis.model.Metrics.measurement;
import static io.rollgate.controller.analysis.model.Metrics.result;
import static io.rollgate.controller.analysis.model.Metrics.status;
import static io.rollgate.controller.analysis.model.Metrics.web;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRunSpec;
import io.rollgate.api.AnalysisRunStatus;
import io.rollgate.api.Measurement;
import io.rollgate.api.Metric;
import io.rollgate.api.MetricResult;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MeasurementScheduleTest {

  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

  @Test
  void measuresAtOnceWithoutInitialDelay() {
    Metric m = web("m");

    assertEquals(1, MeasurementSchedule.due(status(T0), List.of(m), false, T0).size());
    assertEquals(Optional.empty(), MeasurementSchedule.nextPass(status(T0), List.of(m)));
  }

  @Test
  void waitsForTheInitialDelayAfterStartedAt() {
    Metric m = web("m");
    m.setInitialDelay("30s");

    assertEquals(
        List.of(), MeasurementSchedule.due(status(T0), List.of(m), false, T0.plusSeconds(29)));
    assertEquals(
        1, MeasurementSchedule.due(status(T0), List.of(m), false, T0.plusSeconds(30)).size());
    assertEquals(
        Optional.of(T0.plusSeconds(30)), MeasurementSchedule.nextPass(status(T0), List.of(m)));
  }

  @Test
  void measuresAgainStrictlyAfterTheInterval() {
    Metric m = web("m");
    m.setInterval("10s");
    AnalysisRunStatus s = status(T0, result("m", measurement(AnalysisPhase.SUCCESSFUL, T0, T0)));

    assertEquals(List.of(), MeasurementSchedule.due(s, List.of(m), false, T0.plusSeconds(10)));
    assertEquals(1, MeasurementSchedule.due(s, List.of(m), false, T0.plusMillis(10_001)).size());
    assertEquals(Optional.of(T0.plusSeconds(10)), MeasurementSchedule.nextPass(s, List.of(m)));
  }

  @Test
  void retriesTenSecondsAfterAnError() {
    Metric m = web("m");
    m.setInterval("5m");
    AnalysisRunStatus s = status(T0, result("m", measurement(AnalysisPhase.ERROR, T0, T0)));

    assertEquals(Optional.of(T0.plusSeconds(10)), MeasurementSchedule.nextPass(s, List.of(m)));
    assertEquals(1, MeasurementSchedule.due(s, List.of(m), false, T0.plusSeconds(11)).size());
  }

  @Test
  void stopsAtTheEffectiveCount() {
    Metric single = web("m");
    AnalysisRunStatus s = status(T0, result("m", measurement(AnalysisPhase.SUCCESSFUL, T0, T0)));
    assertEquals(
        List.of(), MeasurementSchedule.due(s, List.of(single), false, T0.plusSeconds(3600)));

    Metric two = web("m");
    two.setInterval("1s");
    two.setCount(i(2));
    s =
        status(
            T0,
            result(
                "m",
                measurement(AnalysisPhase.SUCCESSFUL, T0, T0),
                measurement(AnalysisPhase.FAILED, T0, T0)));
    assertEquals(List.of(), MeasurementSchedule.due(s, List.of(two), false, T0.plusSeconds(3600)));
    assertEquals(Optional.empty(), MeasurementSchedule.nextPass(s, List.of(two)));

    Metric unbounded = web("m");
    unbounded.setInterval("1s");
    assertEquals(
        1, MeasurementSchedule.due(s, List.of(unbounded), false, T0.plusSeconds(2)).size());
  }

  @Test
  void resumesAnUnfinishedMeasurementOnlyOnceResumeAtPassed() {
    Metric m = web("m");
    Measurement running = measurement(AnalysisPhase.RUNNING, T0, null);
    running.setResumeAt(Times.format(T0.plusSeconds(5)));
    AnalysisRunStatus s = status(T0, result("m", running));

    assertEquals(List.of(), MeasurementSchedule.due(s, List.of(m), true, T0.plusSeconds(4)));
    List<MeasurementSchedule.Task> due =
        MeasurementSchedule.due(s, List.of(m), true, T0.plusSeconds(5));
    assertSame(running, due.get(0).incomplete());
    assertEquals(Optional.of(T0.plusSeconds(5)), MeasurementSchedule.nextPass(s, List.of(m)));
  }

  @Test
  void takesNoNewMeasurementWhileTerminating() {
    Metric m = web("m");
    m.setInterval("1s");

    assertEquals(List.of(), MeasurementSchedule.due(status(T0), List.of(m), true, T0));
  }

  @Test
  void skipsCompletedMetrics() {
    Metric m = web("m");
    m.setInterval("1s");
    MetricResult r = result("m", measurement(AnalysisPhase.FAILED, T0, T0));
    r.setPhase(AnalysisPhase.FAILED);

    assertEquals(
        List.of(), MeasurementSchedule.due(status(T0, r), List.of(m), false, T0.plusSeconds(60)));
    assertEquals(Optional.empty(), MeasurementSchedule.nextPass(status(T0, r), List.of(m)));
  }

  @Test
  void terminatesOnSpecTerminateOrABadMetricThatIsNotDryRun() {
    AnalysisRunSpec spec = new AnalysisRunSpec();
    MetricResult failed = result("a");
    failed.setPhase(AnalysisPhase.FAILED);

    assertFalse(MeasurementSchedule.terminating(spec, status(T0)));
    assertTrue(MeasurementSchedule.terminating(spec, status(T0, failed)));
    failed.setDryRun(true);
    assertFalse(MeasurementSchedule.terminating(spec, status(T0, failed)));
    spec.setTerminate(true);
    assertTrue(MeasurementSchedule.terminating(spec, status(T0, failed)));
  }
}
