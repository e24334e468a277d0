package io.rollgate.controller.analysis.model;

import io.rollgate.api.Metric;
import io.rollgate.defaults.GoDurations;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validates the metrics of an AnalysisRun with Argo's rules and messages (docs/compatibility.md
 * §9.2, Argo's {@code ValidateMetrics}). The first problem found is reported; the reconciler turns
 * it into phase Error with message {@code Analysis spec invalid: <problem>}.
 */
public final class MetricValidator {

  private static final Pattern DIGITS = Pattern.compile("[0-9]+(\\.[0-9]*)?");

  private MetricValidator() {}

  /**
   * Validates a run's metrics (arguments already substituted).
   *
   * @param metrics {@code spec.metrics}; may be {@code null}
   * @return the first problem, for example {@code metrics[1]: duplicate name 'rate'}, or empty when
   *     valid
   */
  public static Optional<String> validate(List<Metric> metrics) {
    if (metrics == null || metrics.isEmpty()) {
      return Optional.of("no metrics specified");
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < metrics.size(); i++) {
      Metric metric = metrics.get(i);
      if (!names.add(metric.getName())) {
        return Optional.of("metrics[" + i + "]: duplicate name '" + metric.getName() + "'");
      }
      Optional<String> problem = validate(metric);
      if (problem.isPresent()) {
        return Optional.of("metrics[" + i + "]: " + problem.get());
      }
    }
    return Optional.empty();
  }

  /**
   * Validates one metric (Argo's {@code ValidateMetric}).
   *
   * @param metric the metric
   * @return the first problem, or empty when valid
   */
  public static Optional<String> validate(Metric metric) {
    int count = MetricRules.intValue(metric.getCount(), 0);
    int failureLimit = MetricRules.failureLimit(metric);
    int inconclusiveLimit = MetricRules.inconclusiveLimit(metric);
    int consecutiveSuccessLimit = MetricRules.consecutiveSuccessLimit(metric);
    if (consecutiveSuccessLimit < 0) {
      return Optional.of("consecutiveSuccessLimit must be >= 0");
    }
    if (failureLimit < -1) {
      return Optional.of("failureLimit must be >= 0, or -1 to be disabled");
    }
    if (failureLimit == -1 && consecutiveSuccessLimit == 0) {
      return Optional.of("failureLimit and consecutiveSuccessLimit cannot both be disabled");
    }
    if (inconclusiveLimit < 0) {
      return Optional.of("inconclusiveLimit must be >= 0");
    }
    if (metric.getConsecutiveErrorLimit() != null
        && MetricRules.consecutiveErrorLimit(metric) < 0) {
      return Optional.of("consecutiveErrorLimit must be >= 0");
    }
    if (count > 0) {
      if (failureLimit >= 0 && count < failureLimit + consecutiveSuccessLimit) {
        return Optional.of(
            "count ("
                + count
                + ") must be >= failureLimit + consecutiveSuccessLimit ("
                + failureLimit
                + " + "
                + consecutiveSuccessLimit
                + ") if both >= 0");
      }
      if (failureLimit < 0 && count < consecutiveSuccessLimit) {
        return Optional.of("count must be >= consecutiveSuccessLimit");
      }
      if (count < inconclusiveLimit) {
        return Optional.of("count must be >= inconclusiveLimit");
      }
    }
    if (count > 1 && MetricRules.isBlank(metric.getInterval())) {
      return Optional.of("interval must be specified when count > 1");
    }
    if (!MetricRules.isBlank(metric.getInterval())
        && GoDurations.parse(metric.getInterval()).isEmpty()) {
      return Optional.of("invalid interval string: " + goDurationError(metric.getInterval()));
    }
    if (!MetricRules.isBlank(metric.getInitialDelay())
        && GoDurations.parse(metric.getInitialDelay()).isEmpty()) {
      return Optional.of("invalid startDelay string: " + goDurationError(metric.getInitialDelay()));
    }
    int providers = MetricRules.providerTypes(metric).size();
    if (providers == 0) {
      return Optional.of("no provider specified");
    }
    if (providers > 1) {
      return Optional.of("multiple providers specified");
    }
    return Optional.empty();
  }

  /** The error text of Go's {@code time.ParseDuration} for a string it rejects. */
  static String goDurationError(String text) {
    String quoted = "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    String unsigned = text.startsWith("-") || text.startsWith("+") ? text.substring(1) : text;
    if (DIGITS.matcher(unsigned).matches()) {
      return "time: missing unit in duration " + quoted;
    }
    return "time: invalid duration " + quoted;
  }
}
