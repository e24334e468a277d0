package io.rollgate.controller.analysis.model;

import static io.rollgate.controller.analysis.model.Metrics.i;
import static io.rollgate.controller.analysis.model.Metrics.measurement;
import static io.rollgate.controller.analysis.model.Metrics.result;
import static io.rollgate.controller.analysis.model.Metrics.status;
import static io.rollgate.controller.analysis.model.Metrics.web;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRunStatus;
import io.rollgate.api.Measurement;
import io.rollgate.api.Metric;
import io.rollgate.api.MetricResult;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AssessmentTest {

  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

  @Test
  void countsMeasurementsAsArgo() {
    MetricResult r =
        result(
            "m",
            done(AnalysisPhase.SUCCESSFUL),
            done(AnalysisPhase.SUCCESSFUL),
            done(AnalysisPhase.ERROR),
            done(AnalysisPhase.ERROR),
            done(AnalysisPhase.INCONCLUSIVE),
            done(AnalysisPhase.FAILED));

    assertEquals(4, r.getCount(), "errors do not count");
    assertEquals(2, r.getSuccessful());
    assertEquals(2, r.getError());
    assertEquals(1, r.getInconclusive());
    assertEquals(1, r.getFailed());
    assertEquals(0, r.getConsecutiveError());
    assertEquals(0, r.getConsecutiveSuccess());
  }

  @Test
  void assessesPendingRunningAndTerminated() {
    Metric m = web("m");
    assertEquals(AnalysisPhase.PENDING, Assessment.assessMetric(m, result("m"), false));
    assertEquals(AnalysisPhase.SUCCESSFUL, Assessment.assessMetric(m, result("m"), true));
    assertEquals(
        AnalysisPhase.RUNNING,
        Assessment.assessMetric(
            m, result("m", measurement(AnalysisPhase.RUNNING, T0, null)), false));
  }

  @Test
  void appliesLimitsLaterOverridingEarlier() {
    Metric m = web("m");
    m.setInterval("1s");
    m.setFailureLimit(i(1));
    assertEquals(
        AnalysisPhase.RUNNING,
        Assessment.assessMetric(m, result("m", done(AnalysisPhase.FAILED)), false));
    MetricResult twoFailed = result("m", done(AnalysisPhase.FAILED), done(AnalysisPhase.FAILED));
    assertEquals(AnalysisPhase.FAILED, Assessment.assessMetric(m, twoFailed, false));
    assertEquals(
        "Metric \"m\" assessed Failed due to failed (2) > failureLimit (1)",
        Assessment.reason(m, twoFailed));

    MetricResult errors =
        result(
            "m",
            done(AnalysisPhase.FAILED),
            done(AnalysisPhase.FAILED),
            done(AnalysisPhase.ERROR),
            done(AnalysisPhase.ERROR),
            done(AnalysisPhase.ERROR),
            done(AnalysisPhase.ERROR),
            done(AnalysisPhase.ERROR));
    assertEquals(AnalysisPhase.ERROR, Assessment.assessMetric(m, errors, false));
    assertEquals(
        "Metric \"m\" assessed Error due to consecutiveErrors (5) > consecutiveErrorLimit (4)",
        Assessment.reason(m, errors));

    m.setFailureLimit(i(-1));
    m.setConsecutiveSuccessLimit(i(2));
    assertEquals(
        AnalysisPhase.RUNNING,
        Assessment.assessMetric(m, twoFailed, false),
        "failureLimit -1 disables it");
  }

  @Test
  void decidesOnceTheCountIsReached() {
    Metric onlyFailureLimit = web("m");
    onlyFailureLimit.setInterval("1s");
    onlyFailureLimit.setCount(i(2));
    onlyFailureLimit.setFailureLimit(i(1));
    MetricResult mixed = result("m", done(AnalysisPhase.FAILED), done(AnalysisPhase.SUCCESSFUL));
    assertEquals(AnalysisPhase.SUCCESSFUL, Assessment.assessMetric(onlyFailureLimit, mixed, false));

    Metric both = web("m");
    both.setInterval("1s");
    both.setCount(i(3));
    both.setFailureLimit(i(1));
    both.setConsecutiveSuccessLimit(i(2));
    MetricResult noStreak =
        result(
            "m",
            done(AnalysisPhase.SUCCESSFUL),
            done(AnalysisPhase.FAILED),
            done(AnalysisPhase.SUCCESSFUL));
    assertEquals(AnalysisPhase.INCONCLUSIVE, Assessment.assessMetric(both, noStreak, false));

    Metric onlySuccess = web("m");
    onlySuccess.setInterval("1s");
    onlySuccess.setCount(i(3));
    onlySuccess.setFailureLimit(i(-1));
    onlySuccess.setConsecutiveSuccessLimit(i(2));
    assertEquals(AnalysisPhase.FAILED, Assessment.assessMetric(onlySuccess, noStreak, false));

    MetricResult streak =
        result(
            "m",
            done(AnalysisPhase.FAILED),
            done(AnalysisPhase.SUCCESSFUL),
            done(AnalysisPhase.SUCCESSFUL));
    assertEquals(AnalysisPhase.SUCCESSFUL, Assessment.assessMetric(onlySuccess, streak, false));
  }

  @Test
  void runIsWorstOfNonDryRunMetricsWithArgosMessage() {
    Metric a = web("a");
    a.setInterval("1s");
    a.setCount(i(1));
    Metric b = web("b");
    Metric dry = web("dry");
    Measurement failed = done(AnalysisPhase.FAILED);
    failed.setMessage("boom");
    AnalysisRunStatus s =
        status(
            T0,
            result("a", done(AnalysisPhase.SUCCESSFUL)),
            result("b", failed),
            result(
                "dry",
                done(AnalysisPhase.ERROR),
                done(AnalysisPhase.ERROR),
                done(AnalysisPhase.ERROR),
                done(AnalysisPhase.ERROR),
                done(AnalysisPhase.ERROR)));

    Assessment.RunVerdict v =
        Assessment.assessRun(s, List.of(a, b, dry), Set.of("dry"), false, false);

    assertEquals(AnalysisPhase.FAILED, v.phase());
    assertEquals(
        "Metric \"b\" assessed Failed due to failed (1) > failureLimit (0): \"Error Message: boom\"",
        v.message());
    assertEquals(2, v.runSummary().getCount());
    assertEquals(1, v.runSummary().getSuccessful());
    assertEquals(1, v.runSummary().getFailed());
    assertEquals(1, v.dryRunSummary().getCount());
    assertEquals(1, v.dryRunSummary().getError());
    assertEquals(3, v.transitions().size());
    assertEquals("boom", s.getMetricResults().get(1).getMessage());
  }

  @Test
  void dryRunFailuresDoNotFailTheRun() {
    Metric dry = web("dry");
    AnalysisRunStatus s = status(T0, result("dry", done(AnalysisPhase.FAILED)));

    Assessment.RunVerdict v = Assessment.assessRun(s, List.of(dry), Set.of("dry"), false, false);

    assertEquals(AnalysisPhase.SUCCESSFUL, v.phase());
    assertEquals(AnalysisPhase.FAILED, s.getMetricResults().get(0).getPhase());
  }

  @Test
  void staysRunningUntilEveryMetricCompletedUnlessTerminating() {
    Metric a = web("a");
    Metric b = web("b");
    AnalysisRunStatus s = status(T0, result("a", done(AnalysisPhase.SUCCESSFUL)));

    assertEquals(
        AnalysisPhase.RUNNING,
        Assessment.assessRun(s, List.of(a, b), Set.of(), false, false).phase());
    Assessment.RunVerdict terminated = Assessment.assessRun(s, List.of(a, b), Set.of(), true, true);
    assertEquals(AnalysisPhase.SUCCESSFUL, terminated.phase());
    assertEquals("Run Terminated", terminated.message());
    assertNull(Results.get(s, "b"));
  }

  @Test
  void aTerminatingRunWaitsForItsMeasurementInFlight() {
    Metric a = web("a");
    AnalysisRunStatus s = status(T0, result("a", measurement(AnalysisPhase.RUNNING, T0, null)));

    Assessment.RunVerdict v = Assessment.assessRun(s, List.of(a), Set.of(), true, true);

    assertEquals(AnalysisPhase.RUNNING, v.phase());
    s.getMetricResults().get(0).getMeasurements().set(0, done(AnalysisPhase.INCONCLUSIVE));
    Assessment.count(s.getMetricResults().get(0), AnalysisPhase.INCONCLUSIVE);
    Assessment.RunVerdict after = Assessment.assessRun(s, List.of(a), Set.of(), true, true);
    assertEquals(AnalysisPhase.INCONCLUSIVE, after.phase());
    assertEquals("Run Terminated", after.message());
  }

  private static Measurement done(String phase) {
    return measurement(phase, T0, T0);
  }
}
