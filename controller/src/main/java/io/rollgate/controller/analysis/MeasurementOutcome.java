package io.rollgate.controller.analysis;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.Measurement;
import io.rollgate.api.Metric;
import io.rollgate.api.ModelJson;
import io.rollgate.controller.analysis.model.Times;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.Secrets;
import io.rollgate.expr.AnalysisConditions;
import io.rollgate.expr.ExpressionEvaluationException;
import io.rollgate.expr.ExpressionSyntaxException;
import io.rollgate.expr.Verdict;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Turns the outcome of one provider call into the measurement to store (docs/compatibility.md §9.4,
 * §9.6): a value is judged with the metric's conditions, a provider verdict is taken as is, a
 * Running answer keeps the measurement open until {@code resumeAt} (rounded up to the second), and
 * a failure is an Error whose message is the failure's. Secret values are masked in the message and
 * the value.
 *
 * @param metric the metric name
 * @param measurement the measurement to store
 * @param resultMetadata metadata for the metric result (provider keys prefixed {@code
 *     metricResult.}, prefix removed)
 * @param replacesLast whether the measurement replaces the metric's unfinished last one
 */
record MeasurementOutcome(
    String metric,
    Measurement measurement,
    Map<String, String> resultMetadata,
    boolean replacesLast) {

  /**
   * Builds the outcome.
   *
   * @param metric the metric (arguments substituted)
   * @param incomplete the unfinished measurement that was resumed or terminated, or null for a new
   *     one
   * @param terminated whether the call was a terminate
   * @param secrets secret values to mask
   * @param result the provider's answer, or null when the call failed
   * @param error the failure message when the call failed, else null
   * @param startedAt the start of a new measurement
   * @param clock the clock for {@code finishedAt} and the conditions' {@code now()}
   * @return the outcome
   */
  static MeasurementOutcome of(
      Metric metric,
      Measurement incomplete,
      boolean terminated,
      Set<String> secrets,
      ProviderResult result,
      String error,
      Instant startedAt,
      Clock clock) {
    Measurement m;
    if (incomplete != null) {
      m = ModelJson.deepCopy(incomplete);
    } else {
      m = new Measurement();
      m.setStartedAt(Times.format(startedAt));
    }
    Map<String, String> resultMetadata = new LinkedHashMap<>();
    if (error != null || result == null) {
      m.setPhase(AnalysisPhase.ERROR);
      m.setMessage(error == null ? "no result from the metric provider" : error);
    } else if (result instanceof ProviderResult.Value v) {
      mergeMetadata(m, v.metadata(), resultMetadata);
      m.setValue(v.text() == null || v.text().isEmpty() ? null : v.text());
      try {
        Verdict verdict =
            AnalysisConditions.compile(metric.getSuccessCondition(), metric.getFailureCondition())
                .evaluate(v.value(), clock);
        m.setPhase(verdict.phase());
      } catch (ExpressionSyntaxException | ExpressionEvaluationException e) {
        m.setPhase(AnalysisPhase.ERROR);
        m.setMessage(e.getMessage());
      }
    } else if (result instanceof ProviderResult.Verdict v) {
      mergeMetadata(m, v.metadata(), resultMetadata);
      m.setPhase(v.phase());
      m.setMessage(v.message());
      if (v.value() != null && !v.value().isEmpty()) {
        m.setValue(v.value());
      }
    } else if (result instanceof ProviderResult.Running r) {
      mergeMetadata(m, r.metadata(), resultMetadata);
      m.setPhase(AnalysisPhase.RUNNING);
      m.setResumeAt(Times.formatCeiling(r.resumeAt()));
    }
    if (AnalysisPhase.isCompleted(m.getPhase())) {
      m.setFinishedAt(Times.format(clock.instant()));
      m.setResumeAt(null);
      if (terminated
          && (AnalysisPhase.SUCCESSFUL.equals(m.getPhase())
              || AnalysisPhase.INCONCLUSIVE.equals(m.getPhase()))) {
        m.setMessage("Metric Terminated");
      }
    }
    String message = Secrets.mask(m.getMessage(), secrets);
    m.setMessage(message == null || message.isEmpty() ? null : message);
    m.setValue(Secrets.mask(m.getValue(), secrets));
    return new MeasurementOutcome(metric.getName(), m, resultMetadata, incomplete != null);
  }

  private static void mergeMetadata(
      Measurement m, Map<String, String> metadata, Map<String, String> resultMetadata) {
    if (metadata == null || metadata.isEmpty()) {
      return;
    }
    Map<String, String> merged =
        m.getMetadata() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(m.getMetadata());
    metadata.forEach(
        (k, v) -> {
          if (k.startsWith(MetricProvider.METRIC_RESULT_METADATA_PREFIX)) {
            resultMetadata.put(
                k.substring(MetricProvider.METRIC_RESULT_METADATA_PREFIX.length()), v);
          } else {
            merged.put(k, v);
          }
        });
    m.setMetadata(merged.isEmpty() ? null : merged);
  }
}
