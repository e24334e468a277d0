package io.rollgate.controller.analysis.model;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRunStatus;
import io.rollgate.api.Measurement;
import io.rollgate.api.Metric;
import io.rollgate.api.MetricResult;
import io.rollgate.api.RunSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Metric and run assessment (docs/compatibility.md §9.4 counters, §9.5; Argo's {@code
 * assessMetricStatus} and {@code assessRunStatus}).
 */
public final class Assessment {

  private Assessment() {}

  /**
   * A metric whose phase changed in this pass.
   *
   * @param metric the metric name
   * @param from the previous phase ({@code null} for a new result)
   * @param to the new phase
   */
  public record Transition(String metric, String from, String to) {}

  /**
   * The run's assessment.
   *
   * @param phase the run phase
   * @param message the run message (empty for none)
   * @param runSummary outcome counts of the metrics that are not dry-run
   * @param dryRunSummary outcome counts of the dry-run metrics
   * @param transitions metric phase changes, in metric order
   */
  public record RunVerdict(
      String phase,
      String message,
      RunSummary runSummary,
      RunSummary dryRunSummary,
      List<Transition> transitions) {}

  /**
   * Updates a metric result's counters for a measurement that just completed: Successful, Failed
   * and Inconclusive count towards {@code count}; errors do not.
   *
   * @param r the metric result
   * @param phase the completed measurement's phase
   */
  public static void count(MetricResult r, String phase) {
    switch (phase) {
      case AnalysisPhase.SUCCESSFUL -> {
        r.setSuccessful(Results.intOf(r.getSuccessful()) + 1);
        r.setCount(Results.intOf(r.getCount()) + 1);
        r.setConsecutiveError(0);
        r.setConsecutiveSuccess(Results.intOf(r.getConsecutiveSuccess()) + 1);
      }
      case AnalysisPhase.FAILED -> {
        r.setFailed(Results.intOf(r.getFailed()) + 1);
        r.setCount(Results.intOf(r.getCount()) + 1);
        r.setConsecutiveError(0);
        r.setConsecutiveSuccess(0);
      }
      case AnalysisPhase.INCONCLUSIVE -> {
        r.setInconclusive(Results.intOf(r.getInconclusive()) + 1);
        r.setCount(Results.intOf(r.getCount()) + 1);
        r.setConsecutiveError(0);
        r.setConsecutiveSuccess(0);
      }
      case AnalysisPhase.ERROR -> {
        r.setError(Results.intOf(r.getError()) + 1);
        r.setConsecutiveError(Results.intOf(r.getConsecutiveError()) + 1);
        r.setConsecutiveSuccess(0);
      }
      default -> throw new IllegalArgumentException("not a completed measurement phase: " + phase);
    }
  }

  /**
   * Assesses one metric (Argo's {@code assessMetricStatus}).
   *
   * @param metric the metric (arguments substituted)
   * @param r its result
   * @param terminating whether the run is terminating
   * @return the metric phase
   */
  public static String assessMetric(Metric metric, MetricResult r, boolean terminating) {
    if (AnalysisPhase.isCompleted(r.getPhase())) {
      return r.getPhase();
    }
    Measurement last = Results.last(r);
    if (last == null) {
      return terminating ? AnalysisPhase.SUCCESSFUL : AnalysisPhase.PENDING;
    }
    if (!AnalysisPhase.isCompleted(last.getPhase())) {
      return AnalysisPhase.RUNNING;
    }
    String limited = limitPhase(metric, r);
    if (limited != null) {
      return limited;
    }
    int successLimit = MetricRules.consecutiveSuccessLimit(metric);
    if (successLimit > 0 && Results.intOf(r.getConsecutiveSuccess()) >= successLimit) {
      return AnalysisPhase.SUCCESSFUL;
    }
    OptionalInt count = MetricRules.effectiveCount(metric);
    if (count.isPresent() && Results.intOf(r.getCount()) >= count.getAsInt()) {
      boolean failureLimitApplies =
          metric.getFailureLimit() == null || MetricRules.failureLimit(metric) >= 0;
      if (failureLimitApplies && successLimit > 0) {
        return AnalysisPhase.INCONCLUSIVE;
      }
      if (successLimit > 0) {
        return AnalysisPhase.FAILED;
      }
      return AnalysisPhase.SUCCESSFUL;
    }
    return terminating ? AnalysisPhase.SUCCESSFUL : AnalysisPhase.RUNNING;
  }

  /** The phase forced by a limit (later checks override earlier ones), or {@code null}. */
  private static String limitPhase(Metric metric, MetricResult r) {
    String phase = null;
    int failureLimit = MetricRules.failureLimit(metric);
    if (failureLimit >= 0 && Results.intOf(r.getFailed()) > failureLimit) {
      phase = AnalysisPhase.FAILED;
    }
    if (Results.intOf(r.getInconclusive()) > MetricRules.inconclusiveLimit(metric)) {
      phase = AnalysisPhase.INCONCLUSIVE;
    }
    if (Results.intOf(r.getConsecutiveError()) > MetricRules.consecutiveErrorLimit(metric)) {
      phase = AnalysisPhase.ERROR;
    }
    return phase;
  }

  /**
   * Explains why a completed metric is not Successful, as Argo words it.
   *
   * @param metric the metric
   * @param r its result
   * @return for example {@code Metric "rate" assessed Failed due to failed (2) > failureLimit (1)},
   *     or empty when no limit was exceeded
   */
  public static String reason(Metric metric, MetricResult r) {
    String reason = "";
    String name = metric.getName();
    int failureLimit = MetricRules.failureLimit(metric);
    if (failureLimit >= 0 && Results.intOf(r.getFailed()) > failureLimit) {
      reason =
          "Metric \""
              + name
              + "\" assessed Failed due to failed ("
              + Results.intOf(r.getFailed())
              + ") > failureLimit ("
              + failureLimit
              + ")";
    }
    int inconclusiveLimit = MetricRules.inconclusiveLimit(metric);
    if (Results.intOf(r.getInconclusive()) > inconclusiveLimit) {
      reason =
          "Metric \""
              + name
              + "\" assessed Inconclusive due to inconclusive ("
              + Results.intOf(r.getInconclusive())
              + ") > inconclusiveLimit ("
              + inconclusiveLimit
              + ")";
    }
    int errorLimit = MetricRules.consecutiveErrorLimit(metric);
    if (Results.intOf(r.getConsecutiveError()) > errorLimit) {
      reason =
          "Metric \""
              + name
              + "\" assessed Error due to consecutiveErrors ("
              + Results.intOf(r.getConsecutiveError())
              + ") > consecutiveErrorLimit ("
              + errorLimit
              + ")";
    }
    return reason;
  }

  /**
   * Assesses every metric and the run (Argo's {@code assessRunStatus}); updates the phase and, on a
   * change, the message of each metric result in {@code status}. A terminating run completes only
   * once no measurement is in flight, so that the outcome of a terminated measurement (Inconclusive
   * for a Job) is part of the verdict.
   *
   * @param status the run's status, with this pass's measurements applied; modified
   * @param metrics the run's metrics (arguments substituted)
   * @param dryRun names of the dry-run metrics
   * @param terminating whether the run is terminating ({@link MeasurementSchedule#terminating})
   * @param terminateRequested whether {@code spec.terminate} is set
   * @return the run's phase, message, summaries and the metric transitions
   */
  public static RunVerdict assessRun(
      AnalysisRunStatus status,
      List<Metric> metrics,
      Set<String> dryRun,
      boolean terminating,
      boolean terminateRequested) {
    List<Transition> transitions = new ArrayList<>();
    RunSummary summary = emptySummary();
    RunSummary drySummary = emptySummary();
    String worst = null;
    String worstMessage = "";
    boolean everythingCompleted = true;
    boolean inFlight = false;
    for (Metric metric : metrics) {
      boolean isDry = dryRun.contains(metric.getName());
      RunSummary target = isDry ? drySummary : summary;
      target.setCount(target.getCount() + 1);
      MetricResult r = Results.get(status, metric.getName());
      if (r == null) {
        everythingCompleted = false;
        continue;
      }
      String phase = assessMetric(metric, r, terminating);
      if (!phase.equals(r.getPhase())) {
        transitions.add(new Transition(metric.getName(), r.getPhase(), phase));
        Measurement last = Results.last(r);
        if (last != null) {
          r.setMessage(last.getMessage());
        }
        r.setPhase(phase);
      }
      if (!AnalysisPhase.isCompleted(phase)) {
        everythingCompleted = false;
        inFlight |= AnalysisPhase.RUNNING.equals(phase);
        continue;
      }
      add(target, phase);
      if (!isDry && AnalysisPhase.isWorse(phase, worst)) {
        worst = phase;
        String reason = reason(metric, r);
        String lastMessage = r.getMessage() == null ? "" : r.getMessage();
        if (reason.isEmpty()) {
          worstMessage = lastMessage;
        } else {
          worstMessage =
              lastMessage.isEmpty() ? reason : reason + ": \"Error Message: " + lastMessage + "\"";
        }
      }
    }
    String phase;
    String message;
    if (terminating && inFlight) {
      // A measurement in flight is still to be terminated (at its resumeAt); its outcome counts.
      phase = AnalysisPhase.RUNNING;
      message = "";
    } else if (terminating) {
      phase = worst == null ? AnalysisPhase.SUCCESSFUL : worst;
      message = terminateRequested ? "Run Terminated" : worstMessage;
    } else if (!everythingCompleted) {
      phase = AnalysisPhase.RUNNING;
      message = "";
    } else {
      phase = worst == null ? AnalysisPhase.SUCCESSFUL : worst;
      message = worstMessage;
    }
    return new RunVerdict(phase, message, summary, drySummary, transitions);
  }

  private static RunSummary emptySummary() {
    RunSummary s = new RunSummary();
    s.setCount(0);
    s.setSuccessful(0);
    s.setFailed(0);
    s.setInconclusive(0);
    s.setError(0);
    return s;
  }

  private static void add(RunSummary s, String phase) {
    switch (phase) {
      case AnalysisPhase.SUCCESSFUL -> s.setSuccessful(s.getSuccessful() + 1);
      case AnalysisPhase.FAILED -> s.setFailed(s.getFailed() + 1);
      case AnalysisPhase.INCONCLUSIVE -> s.setInconclusive(s.getInconclusive() + 1);
      case AnalysisPhase.ERROR -> s.setError(s.getError() + 1);
      default -> {}
    }
  }
}
