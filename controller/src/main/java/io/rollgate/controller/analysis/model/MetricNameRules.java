package io.rollgate.controller.analysis.model;

import io.rollgate.api.DryRun;
import io.rollgate.api.MeasurementRetention;
import io.rollgate.api.Metric;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code spec.dryRun[]} and {@code spec.measurementRetention[]}: each {@code metricName} is an
 * <b>unanchored</b> regular expression (Go's {@code regexp.MatchString}, here {@link
 * java.util.regex.Matcher#find()}) matched against every metric name (docs/compatibility.md §9.2).
 * A rule matching no metric, or that is not a valid expression, is an error.
 */
public final class MetricNameRules {

  private MetricNameRules() {}

  /** A rule that matched no metric name. */
  public static final class RuleException extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the error.
     *
     * @param message Argo's message, for example {@code dryRun[0]: Rule didn't match any metric
     *     name(s)}
     */
    public RuleException(String message) {
      super(message);
    }
  }

  /**
   * Names the dry-run metrics.
   *
   * @param rules {@code spec.dryRun}; may be {@code null}
   * @param metrics the run's metrics
   * @return the names of the metrics matched by at least one rule
   * @throws RuleException naming the first rule that matched nothing
   */
  public static Set<String> dryRunMetrics(List<DryRun> rules, List<Metric> metrics)
      throws RuleException {
    Set<String> names = new HashSet<>();
    if (rules == null) {
      return names;
    }
    for (int i = 0; i < rules.size(); i++) {
      int matched = 0;
      for (Metric metric : metrics) {
        if (matches(rules.get(i).getMetricName(), metric.getName())) {
          names.add(metric.getName());
          matched++;
        }
      }
      if (matched == 0) {
        throw new RuleException("dryRun[" + i + "]: Rule didn't match any metric name(s)");
      }
    }
    return names;
  }

  /**
   * Maps metrics to their measurement history limit.
   *
   * @param rules {@code spec.measurementRetention}; may be {@code null}
   * @param metrics the run's metrics
   * @return metric name to {@code limit} of the last rule matching it (only metrics some rule
   *     matches)
   * @throws RuleException naming the first rule that matched nothing
   */
  public static Map<String, Integer> retentionLimits(
      List<MeasurementRetention> rules, List<Metric> metrics) throws RuleException {
    Map<String, Integer> limits = new HashMap<>();
    if (rules == null) {
      return limits;
    }
    for (int i = 0; i < rules.size(); i++) {
      int matched = 0;
      for (Metric metric : metrics) {
        if (matches(rules.get(i).getMetricName(), metric.getName())) {
          limits.put(
              metric.getName(), rules.get(i).getLimit() == null ? 0 : rules.get(i).getLimit());
          matched++;
        }
      }
      if (matched == 0) {
        throw new RuleException(
            "measurementRetention[" + i + "]: Rule didn't match any metric name(s)");
      }
    }
    return limits;
  }

  /**
   * The number of measurements to keep for a metric: its retention limit when greater than 0, else
   * 10.
   *
   * @param limits the result of {@link #retentionLimits}
   * @param metric the metric name
   * @return the limit
   */
  public static int historyLimit(Map<String, Integer> limits, String metric) {
    Integer limit = limits.get(metric);
    return limit != null && limit > 0 ? limit : MetricRules.DEFAULT_MEASUREMENT_HISTORY_LIMIT;
  }

  static boolean matches(String regex, String name) {
    if (regex == null || name == null) {
      return false;
    }
    try {
      return Pattern.compile(regex).matcher(name).find();
    } catch (PatternSyntaxException e) {
      return false;
    }
  }
}
