package io.rollgate.defaults;

import io.fabric8.kubernetes.api.model.IntOrString;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The regular-expression and BigDecimal parser of Go durations that {@link GoDurations} is checked against. */
final class GoDurationsReference {

  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");
  private static final Pattern DIGITS = Pattern.compile("\\d+");

  private GoDurationsReference() {}

  static Optional<Duration> parse(String text) {
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
    BigDecimal nanos = BigDecimal.ZERO;
    while (pos < s.length()) {
      if (!m.find(pos) || m.start() != pos) {
        return Optional.empty();
      }
      BigDecimal value = new BigDecimal(m.group(1).endsWith(".") ? m.group(1) + "0" : m.group(1));
      nanos = nanos.add(value.multiply(BigDecimal.valueOf(unitNanos(m.group(2)))));
      pos = m.end();
    }
    BigInteger whole = nanos.toBigInteger();
    if (whole.bitLength() > 63) {
      return Optional.empty();
    }
    Duration d = Duration.ofNanos(whole.longValueExact());
    return Optional.of(negative ? d.negated() : d);
  }

  static Optional<Duration> pauseDuration(IntOrString value) {
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
