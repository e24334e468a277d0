package io.rollgate.defaults;

import io.fabric8.kubernetes.api.model.IntOrString;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the duration strings Argo Rollouts accepts: Go's {@code time.ParseDuration} syntax ({@code 30s}, {@code 5m},
 * {@code 1h30m}, {@code 1.5h}, {@code 300ms}) and, for pause steps, plain integers meaning seconds.
 */
public final class GoDurations {

  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");
  private static final Pattern DIGITS = Pattern.compile("\\d+");

  private GoDurations() {}

  /**
   * Parses a Go duration string.
   *
   * @param text for example {@code 1m30s}; a leading {@code +} or {@code -} is allowed, {@code 0} alone means zero
   * @return the duration, or empty when the text is not a valid Go duration
   */
  public static Optional<Duration> parse(String text) {
    if (text == null || text.isEmpty()) {
      return Optional.empty();
    }
    String s = text;
    boolean negative = false;
    if (s.charAt(0) == '-' || s.charAt(0) == '+') {
      negative = s.charAt(0) == '-';
      s = s.substring(1);
    }
    if (s.equals("0")) {
      return Optional.of(Duration.ZERO);
    }
    if (s.isEmpty()) {
      return Optional.empty();
    }
    Matcher m = PART.matcher(s);
    int pos = 0;
    java.math.BigDecimal nanos = java.math.BigDecimal.ZERO;
    while (pos < s.length()) {
      if (!m.find(pos) || m.start() != pos) {
        return Optional.empty();
      }
      java.math.BigDecimal value = new java.math.BigDecimal(m.group(1).endsWith(".") ? m.group(1) + "0" : m.group(1));
      nanos = nanos.add(value.multiply(java.math.BigDecimal.valueOf(unitNanos(m.group(2)))));
      pos = m.end();
    }
    // Go truncates fractional nanoseconds and rejects durations beyond int64 nanoseconds.
    java.math.BigInteger whole = nanos.toBigInteger();
    if (whole.bitLength() > 63) {
      return Optional.empty();
    }
    Duration d = Duration.ofNanos(whole.longValueExact());
    return Optional.of(negative ? d.negated() : d);
  }

  /**
   * Resolves a pause step's {@code duration} (Argo {@code spec.strategy.canary.steps[].pause.duration}): an integer or a
   * string of digits is seconds, any other string a Go duration.
   *
   * @param value the field value; null means "no duration" (an indefinite pause)
   * @return the duration; empty for null; a negative duration ({@code -1s}) when the value cannot be parsed, which is
   *     what validation reports as invalid
   */
  public static Optional<Duration> pauseDuration(IntOrString value) {
    if (value == null || (value.getIntVal() == null && value.getStrVal() == null)) {
      return Optional.empty();
    }
    if (value.getIntVal() != null) {
      return Optional.of(Duration.ofSeconds(value.getIntVal()));
    }
    String s = value.getStrVal();
    if (DIGITS.matcher(s).matches()) {
      try {
        return Optional.of(Duration.ofSeconds(Long.parseLong(s)));
      } catch (NumberFormatException e) {
        return Optional.of(Duration.ofSeconds(-1));
      }
    }
    return Optional.of(parse(s).orElse(Duration.ofSeconds(-1)));
  }

  /**
   * Formats a duration the way Go's {@code time.Duration.String()} does for whole seconds: {@code 10s}, {@code 1m30s},
   * {@code 1h0m0s}.
   *
   * @param d the duration
   * @return the Go-style text
   */
  public static String format(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    if (d.isNegative()) {
      sb.append('-');
      d = d.negated();
    }
    long h = d.toHours();
    long m = d.toMinutesPart();
    long s = d.toSecondsPart();
    int ms = d.toMillisPart();
    if (h > 0) {
      sb.append(h).append('h').append(m).append('m');
    } else if (m > 0) {
      sb.append(m).append('m');
    }
    sb.append(s);
    if (ms > 0) {
      sb.append('.').append(String.format("%03d", ms).replaceAll("0+$", ""));
    }
    return sb.append('s').toString();
  }

  private static long unitNanos(String unit) {
    switch (unit) {
      case "ns":
        return 1L;
      case "us":
      case "µs":
      case "μs":
        return 1_000L;
      case "ms":
        return 1_000_000L;
      case "s":
        return 1_000_000_000L;
      case "m":
        return 60_000_000_000L;
      default:
        return 3_600_000_000_000L;
    }
  }
}
