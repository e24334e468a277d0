package io.rollgate.controller.analysis.model;

import io.rollgate.api.AnalysisRunStatus;
import io.rollgate.api.Measurement;
import io.rollgate.api.MetricResult;
import java.util.List;

/** Look-ups in {@code status.metricResults}. */
public final class Results {

  private Results() {}

  /**
   * Finds a metric's result.
   *
   * @param status the run's status; may be {@code null}
   * @param metric the metric name
   * @return the result, or {@code null} when the metric has not been measured yet
   */
  public static MetricResult get(AnalysisRunStatus status, String metric) {
    if (status == null || status.getMetricResults() == null) {
      return null;
    }
    for (MetricResult r : status.getMetricResults()) {
      if (metric.equals(r.getName())) {
        return r;
      }
    }
    return null;
  }

  /**
   * Returns a result's newest measurement.
   *
   * @param result the result; may be {@code null}
   * @return the last measurement, or {@code null} when there is none
   */
  public static Measurement last(MetricResult result) {
    if (result == null) {
      return null;
    }
    List<Measurement> m = result.getMeasurements();
    return m == null || m.isEmpty() ? null : m.get(m.size() - 1);
  }

  /**
   * Reads a boxed counter.
   *
   * @param value the counter; {@code null} is 0
   * @return the value
   */
  public static int intOf(Integer value) {
    return value == null ? 0 : value;
  }
}
