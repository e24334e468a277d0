package io.rollgate.controller.analysis.model;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.rollgate.api.Metric;
import io.rollgate.api.MetricProviderConfig;
import io.rollgate.defaults.GoDurations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Defaults and derived values of a metric's fields (docs/compatibility.md §9.2), read the way Argo
 * reads them.
 *
 * <p>Counts and limits are {@code IntOrString}; a string is read like Go's {@code
 * IntOrString.IntValue()}: its decimal value, or 0 when it is not a whole number (so an unresolved
 * {@code "{{args.x}}"} counts as 0).
 */
public final class MetricRules {

  /** Default of {@code consecutiveErrorLimit}. */
  public static final int DEFAULT_CONSECUTIVE_ERROR_LIMIT = 4;

  /** Interval before the next measurement after an Error measurement. */
  public static final Duration ERROR_RETRY_INTERVAL = Duration.ofSeconds(10);

  /** Measurements kept per metric when no {@code measurementRetention} rule applies. */
  public static final int DEFAULT_MEASUREMENT_HISTORY_LIMIT = 10;

  private MetricRules() {}

  /**
   * Reads an {@code IntOrString} like Go's {@code IntValue()}.
   *
   * @param value the value; may be {@code null}
   * @param absent what an absent value means
   * @return the integer, 0 for a string that is not a decimal integer
   */
  public static int intValue(IntOrString value, int absent) {
    if (value == null) {
      return absent;
    }
    if (value.getIntVal() != null) {
      return value.getIntVal();
    }
    String s = value.getStrVal();
    if (s == null) {
      return absent;
    }
    try {
      return Integer.parseInt(s.strip().startsWith("+") ? s.strip().substring(1) : s.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * {@code failureLimit}: failed measurements tolerated; -1 disables the check.
   *
   * @param m the metric
   * @return the limit, default 0
   */
  public static int failureLimit(Metric m) {
    return intValue(m.getFailureLimit(), 0);
  }

  /**
   * {@code inconclusiveLimit}: inconclusive measurements tolerated.
   *
   * @param m the metric
   * @return the limit, default 0
   */
  public static int inconclusiveLimit(Metric m) {
    return intValue(m.getInconclusiveLimit(), 0);
  }

  /**
   * {@code consecutiveErrorLimit}: consecutive Error measurements tolerated.
   *
   * @param m the metric
   * @return the limit, default 4
   */
  public static int consecutiveErrorLimit(Metric m) {
    return intValue(m.getConsecutiveErrorLimit(), DEFAULT_CONSECUTIVE_ERROR_LIMIT);
  }

  /**
   * {@code consecutiveSuccessLimit}: consecutive successes that end the metric Successful; 0
   * disables.
   *
   * @param m the metric
   * @return the limit, default 0
   */
  public static int consecutiveSuccessLimit(Metric m) {
    return intValue(m.getConsecutiveSuccessLimit(), 0);
  }

  /**
   * The effective number of measurements (Argo's {@code EffectiveCount}): {@code count} when set
   * and non-zero; otherwise 1 without an interval, unbounded with one.
   *
   * @param m the metric
   * @return the count, or empty for unbounded
   */
  public static OptionalInt effectiveCount(Metric m) {
    int count = intValue(m.getCount(), 0);
    if (count == 0) {
      return isBlank(m.getInterval()) ? OptionalInt.of(1) : OptionalInt.empty();
    }
    return OptionalInt.of(count);
  }

  /**
   * {@code interval} as a duration.
   *
   * @param m the metric
   * @return the interval, or empty when absent or unparsable (validation reports the latter)
   */
  public static Optional<Duration> interval(Metric m) {
    return isBlank(m.getInterval()) ? Optional.empty() : GoDurations.parse(m.getInterval());
  }

  /**
   * {@code initialDelay} as a duration.
   *
   * @param m the metric
   * @return the delay, or empty when absent or unparsable
   */
  public static Optional<Duration> initialDelay(Metric m) {
    return isBlank(m.getInitialDelay()) ? Optional.empty() : GoDurations.parse(m.getInitialDelay());
  }

  /**
   * Names the provider types a metric sets under {@code provider}: the modelled {@code prometheus},
   * {@code web}, {@code job}, and any other member kept as an unknown property (for example {@code
   * datadog} or {@code plugin}).
   *
   * @param metric the metric
   * @return the types in declaration order; empty if the metric has no provider
   */
  public static List<String> providerTypes(Metric metric) {
    List<String> types = new ArrayList<>();
    MetricProviderConfig config = metric.getProvider();
    if (config == null) {
      return types;
    }
    if (config.getPrometheus() != null) {
      types.add("prometheus");
    }
    if (config.getWeb() != null) {
      types.add("web");
    }
    if (config.getJob() != null) {
      types.add("job");
    }
    config
        .getAdditionalProperties()
        .forEach(
            (name, value) -> {
              if (value != null) {
                types.add(name);
              }
            });
    return types;
  }

  static boolean isBlank(String s) {
    return s == null || s.isEmpty();
  }
}
