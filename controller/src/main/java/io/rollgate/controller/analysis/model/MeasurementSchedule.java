package io.rollgate.controller.analysis.model;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRunSpec;
import io.rollgate.api.AnalysisRunStatus;
import io.rollgate.api.Measurement;
import io.rollgate.api.Metric;
import io.rollgate.api.MetricResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Which metrics to measure in a pass, and when the next pass is due (docs/compatibility.md §9.4,
 * Argo's {@code generateMetricTasks} and {@code calculateNextReconcileTime}).
 */
public final class MeasurementSchedule {

  private MeasurementSchedule() {}

  /**
   * One measurement to take or continue in this pass.
   *
   * @param metric the metric (arguments substituted with placeholders for Secrets)
   * @param incomplete the unfinished last measurement to resume or terminate, or {@code null} to
   *     take a new one
   */
  public record Task(Metric metric, Measurement incomplete) {}

  /**
   * Tells whether the run is terminating: {@code spec.terminate} is set, or a metric that is not
   * dry-run is Failed, Error or Inconclusive. A terminating run takes no new measurements and
   * terminates those in flight.
   *
   * @param spec the run's spec
   * @param status the run's status; may be {@code null}
   * @return whether it is terminating
   */
  public static boolean terminating(AnalysisRunSpec spec, AnalysisRunStatus status) {
    if (spec != null && Boolean.TRUE.equals(spec.getTerminate())) {
      return true;
    }
    if (status == null || status.getMetricResults() == null) {
      return false;
    }
    for (MetricResult r : status.getMetricResults()) {
      boolean bad =
          AnalysisPhase.FAILED.equals(r.getPhase())
              || AnalysisPhase.ERROR.equals(r.getPhase())
              || AnalysisPhase.INCONCLUSIVE.equals(r.getPhase());
      if (bad && !Boolean.TRUE.equals(r.getDryRun())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Lists the measurements due now.
   *
   * @param status the run's status (startedAt, metric results)
   * @param metrics the run's metrics
   * @param terminating the result of {@link #terminating}
   * @param now the current time
   * @return the tasks, in metric order
   */
  public static List<Task> due(
      AnalysisRunStatus status, List<Metric> metrics, boolean terminating, Instant now) {
    List<Task> tasks = new ArrayList<>();
    for (Metric metric : metrics) {
      MetricResult result = Results.get(status, metric.getName());
      if (result != null && AnalysisPhase.isCompleted(result.getPhase())) {
        continue;
      }
      Measurement last = Results.last(result);
      if (last != null && last.getFinishedAt() == null) {
        Instant resumeAt = Times.parse(last.getResumeAt());
        if (resumeAt == null || !resumeAt.isAfter(now)) {
          tasks.add(new Task(metric, last));
        }
        continue;
      }
      if (terminating) {
        continue;
      }
      if (last == null) {
        Optional<Instant> firstAt = firstMeasurementAt(status, metric);
        if (firstAt.isPresent() && firstAt.get().isAfter(now)) {
          continue;
        }
        if (!MetricRules.isBlank(metric.getInitialDelay()) && firstAt.isEmpty()) {
          continue;
        }
        tasks.add(new Task(metric, null));
        continue;
      }
      Optional<Instant> nextAt = nextMeasurementAt(result, metric, last);
      if (nextAt.isPresent() && now.isAfter(nextAt.get())) {
        tasks.add(new Task(metric, null));
      }
    }
    return tasks;
  }

  /**
   * Computes when the next pass is needed: the earliest of the end of an initial delay, the {@code
   * resumeAt} of a measurement in flight, and the end of a metric's interval (10 s after an Error).
   *
   * @param status the run's status after this pass
   * @param metrics the run's metrics
   * @return the time, or empty when no timed pass is needed
   */
  public static Optional<Instant> nextPass(AnalysisRunStatus status, List<Metric> metrics) {
    Instant next = null;
    for (Metric metric : metrics) {
      MetricResult result = Results.get(status, metric.getName());
      if (result != null && AnalysisPhase.isCompleted(result.getPhase())) {
        continue;
      }
      Measurement last = Results.last(result);
      Optional<Instant> at;
      if (last == null) {
        at =
            MetricRules.isBlank(metric.getInitialDelay())
                ? Optional.empty()
                : firstMeasurementAt(status, metric);
      } else if (last.getFinishedAt() == null) {
        at = Optional.ofNullable(Times.parse(last.getResumeAt()));
      } else {
        at = nextMeasurementAt(result, metric, last);
      }
      if (at.isPresent() && (next == null || at.get().isBefore(next))) {
        next = at.get();
      }
    }
    return Optional.ofNullable(next);
  }

  /** startedAt + initialDelay; empty while the run has not started or the delay does not parse. */
  private static Optional<Instant> firstMeasurementAt(AnalysisRunStatus status, Metric metric) {
    if (MetricRules.isBlank(metric.getInitialDelay())) {
      return Optional.empty();
    }
    Instant startedAt = status == null ? null : Times.parse(status.getStartedAt());
    Optional<Duration> delay = MetricRules.initialDelay(metric);
    if (startedAt == null || delay.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(startedAt.plus(delay.get()));
  }

  /**
   * lastFinishedAt + interval (10 s after an Error); empty when the count is reached or no interval
   * applies.
   */
  private static Optional<Instant> nextMeasurementAt(
      MetricResult result, Metric metric, Measurement last) {
    OptionalInt count = MetricRules.effectiveCount(metric);
    if (count.isPresent() && Results.intOf(result.getCount()) >= count.getAsInt()) {
      return Optional.empty();
    }
    Duration interval;
    if (AnalysisPhase.ERROR.equals(last.getPhase())) {
      interval = MetricRules.ERROR_RETRY_INTERVAL;
    } else {
      Optional<Duration> configured = MetricRules.interval(metric);
      if (configured.isEmpty()) {
        return Optional.empty();
      }
      interval = configured.get();
    }
    Instant finishedAt = Times.parse(last.getFinishedAt());
    return finishedAt == null ? Optional.empty() : Optional.of(finishedAt.plus(interval));
  }
}
