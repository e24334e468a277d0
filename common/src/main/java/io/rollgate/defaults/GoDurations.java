package io.rollgate.defaults;

import io.fabric8.kubernetes.api.model.IntOrString;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the duration strings Argo Rollouts accepts: Go's {@code time.ParseDuration} syntax ({@code
 * 30s}, {@code 5m}, {@code 1h30m}, {@code 1.5h}, {@code 300ms}) and, for pause steps, plain
 * integers meaning seconds.
 */
public final class GoDurations {

  private static final Pattern PART =
      Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");

  /** {@link #scan} result: not a Go duration. */
  private static final long INVALID = Long.MIN_VALUE;

  /**
   * {@link #scan} result: a number or a sum beyond {@code long} arithmetic; {@link #parseExactly}
   * decides. (The largest negative duration, -(2<sup>63</sup>-1) ns, has the same value and is
   * decided there too.)
   */
  private static final long EXACT_PATH = Long.MIN_VALUE + 1;

  /**
   * Fraction digits {@link #scan} keeps exactly (a fraction times the hour's nanoseconds stays
   * within a long).
   */
  private static final int MAX_FRACTION_DIGITS = 6;

  /**
   * One nanosecond in the units of {@link #scan}'s sub-nanosecond remainder (10<sup>-6</sup> ns).
   */
  private static final long ONE_NANO = 1_000_000L;

  private static final long[] POWERS_OF_TEN = {
    1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L
  };
  private static final char MICRO_SIGN = '\u00b5';
  private static final char GREEK_MU = '\u03bc';

  private GoDurations() {}

  /**
   * Parses a Go duration string.
   *
   * @param text for example {@code 1m30s}; a leading {@code +} or {@code -} is allowed, {@code 0}
   *     alone means zero
   * @return the duration, or empty when the text is not a valid Go duration
   */
  public static Optional<Duration> parse(String text) {
    if (text == null || text.isEmpty()) {
      return Optional.empty();
    }
    long nanos = scan(text);
    if (nanos == INVALID) {
      return Optional.empty();
    }
    if (nanos == EXACT_PATH) {
      return parseExactly(text);
    }
    return Optional.of(Duration.ofNanos(nanos));
  }

  /**
   * Parses {@code text} (not empty) character by character with exact integer arithmetic in {@code
   * long}s: the integer part of each number, its fraction (up to six digits) as a numerator over a
   * power of ten, and the sub-nanosecond remainders summed in units of 10<sup>-6</sup> ns, so the
   * total is truncated to whole nanoseconds only at the end, as the decimal path does. The usual
   * durations ({@code 30s}, {@code 1m30s}, {@code 1.5h}) allocate nothing here.
   *
   * @return the signed duration in nanoseconds; {@link #INVALID} when the text is not a Go
   *     duration; {@link #EXACT_PATH} when a fraction has more than six digits or a number or sum
   *     reaches the limits of a {@code long}, which the decimal path then decides
   */
  private static long scan(String s) {
    int n = s.length();
    int i = 0;
    boolean negative = false;
    char first = s.charAt(0);
    if (first == '-' || first == '+') {
      negative = first == '-';
      i = 1;
    }
    if (i == n) {
      return INVALID;
    }
    if (n - i == 1 && s.charAt(i) == '0') {
      return 0;
    }
    long whole = 0;
    long remainder = 0;
    while (i < n) {
      long integer = 0;
      int intDigits = 0;
      char c;
      while (i < n && (c = s.charAt(i)) >= '0' && c <= '9') {
        int d = c - '0';
        if (integer > (Long.MAX_VALUE - d) / 10) {
          return EXACT_PATH;
        }
        integer = integer * 10 + d;
        intDigits++;
        i++;
      }
      long fraction = 0;
      int fracDigits = 0;
      boolean dot = i < n && s.charAt(i) == '.';
      if (dot) {
        i++;
        while (i < n && (c = s.charAt(i)) >= '0' && c <= '9') {
          if (fracDigits == MAX_FRACTION_DIGITS) {
            return EXACT_PATH;
          }
          fraction = fraction * 10 + (c - '0');
          fracDigits++;
          i++;
        }
      }
      if (intDigits == 0 && fracDigits == 0) {
        return INVALID;
      }
      if (i == n) {
        return INVALID;
      }
      long unit;
      c = s.charAt(i++);
      if (c == 'n' || c == 'u' || c == MICRO_SIGN || c == GREEK_MU) {
        if (i == n || s.charAt(i) != 's') {
          return INVALID;
        }
        i++;
        unit = c == 'n' ? 1L : 1_000L;
      } else if (c == 'm') {
        if (i < n && s.charAt(i) == 's') {
          i++;
          unit = 1_000_000L;
        } else {
          unit = 60_000_000_000L;
        }
      } else if (c == 's') {
        unit = 1_000_000_000L;
      } else if (c == 'h') {
        unit = 3_600_000_000_000L;
      } else {
        return INVALID;
      }
      long partNanos;
      long fractionProduct;
      try {
        partNanos = Math.multiplyExact(integer, unit);
        fractionProduct = Math.multiplyExact(fraction, unit);
      } catch (ArithmeticException e) {
        return EXACT_PATH;
      }
      long scale = POWERS_OF_TEN[fracDigits];
      partNanos += fractionProduct / scale;
      remainder += (fractionProduct % scale) * POWERS_OF_TEN[MAX_FRACTION_DIGITS - fracDigits];
      if (remainder >= ONE_NANO) {
        remainder -= ONE_NANO;
        partNanos++;
      }
      if (partNanos < 0 || whole > Long.MAX_VALUE - partNanos) {
        return EXACT_PATH;
      }
      whole += partNanos;
    }
    return negative ? -whole : whole;
  }

  /**
   * The decimal path: each number as a {@link java.math.BigDecimal}, exact for any length and any
   * sum.
   */
  private static Optional<Duration> parseExactly(String text) {
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
      java.math.BigDecimal value =
          new java.math.BigDecimal(m.group(1).endsWith(".") ? m.group(1) + "0" : m.group(1));
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
   * Resolves a pause step's {@code duration} (Argo {@code
   * spec.strategy.canary.steps[].pause.duration}): an integer or a string of digits is seconds, any
   * other string a Go duration.
   *
   * @param value the field value; null means "no duration" (an indefinite pause)
   * @return the duration; empty for null; a negative duration ({@code -1s}) when the value cannot
   *     be parsed, which is what validation reports as invalid
   */
  public static Optional<Duration> pauseDuration(IntOrString value) {
    if (value == null || (value.getIntVal() == null && value.getStrVal() == null)) {
      return Optional.empty();
    }
    if (value.getIntVal() != null) {
      return Optional.of(Duration.ofSeconds(value.getIntVal()));
    }
    String s = value.getStrVal();
    if (isDigits(s)) {
      try {
        return Optional.of(Duration.ofSeconds(Long.parseLong(s)));
      } catch (NumberFormatException e) {
        return Optional.of(Duration.ofSeconds(-1));
      }
    }
    return Optional.of(parse(s).orElse(Duration.ofSeconds(-1)));
  }

  /**
   * Formats a duration the way Go's {@code time.Duration.String()} does for whole seconds: {@code
   * 10s}, {@code 1m30s}, {@code 1h0m0s}.
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

  private static boolean isDigits(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
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
