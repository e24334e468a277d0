package io.rollgate.controller.rollout.model;

import java.time.LocalDateTime;
import java.time.YearMonth;

/**
 * {@code metav1.Time} as its Go JSON methods see it: parsed with {@code time.Parse(time.RFC3339,
 * s)} (which also accepts a one-digit hour, fractional seconds after a dot or comma, and zone
 * offsets up to 24:60), written as RFC 3339 in UTC without fractional seconds, or {@code null} for
 * the zero time (January 1, year 1, 00:00:00 UTC). The result is that of a second decode/encode
 * round, as for {@link GoPodTemplateJson}.
 */
final class GoTime {

  /** The zero time of Go, January 1, year 1, 00:00:00 UTC. */
  private static final LocalDateTime ZERO = LocalDateTime.of(1, 1, 1, 0, 0, 0);

  private GoTime() {}

  /**
   * Parses a time and returns its Go JSON encoding without quotes.
   *
   * @param s the JSON string value
   * @return the RFC 3339 UTC form, or the empty string for the zero time (encoded as {@code null})
   * @throws IllegalArgumentException if Go fails to parse it
   */
  static String encode(String s) {
    LocalDateTime utc = parse(s).utcSeconds();
    // Encoding drops the fraction, so after the second round a time within the first second of year
    // 1 is zero.
    if (utc.equals(ZERO)) {
      return "";
    }
    if (utc.getYear() < 0 || utc.getYear() > 9999) {
      // Go writes such a year, but cannot read it back in the second round.
      throw new IllegalArgumentException(
          "time \"" + s + "\" is out of the range of RFC 3339 years in UTC");
    }
    return pad(utc.getYear(), 4)
        + "-"
        + pad(utc.getMonthValue(), 2)
        + "-"
        + pad(utc.getDayOfMonth(), 2)
        + "T"
        + pad(utc.getHour(), 2)
        + ":"
        + pad(utc.getMinute(), 2)
        + ":"
        + pad(utc.getSecond(), 2)
        + "Z";
  }

  /**
   * Tells whether a time, as first decoded (before any fraction is dropped), is exactly the zero
   * time.
   *
   * @param s the JSON string value, one that {@link #encode} accepts
   * @return true for the zero time, false also for a time within the first second of year 1
   */
  static boolean isExactZero(String s) {
    Parsed parsed = parse(s);
    return parsed.utcSeconds().equals(ZERO) && parsed.fractionZero();
  }

  /**
   * A parsed time: the UTC date and time to the second, and whether the (ignored) fraction was
   * zero.
   */
  private record Parsed(LocalDateTime utcSeconds, boolean fractionZero) {}

  private static Parsed parse(String s) {
    Cursor c = new Cursor(s);
    if (s.length() < 4) {
      throw c.bad();
    }
    for (int i = 0; i < 4; i++) {
      if (!isDigit(s, i)) {
        throw c.bad();
      }
    }
    int year = Integer.parseInt(s.substring(0, 4));
    c.pos = 4;
    c.expect('-');
    int month = c.number(true);
    if (month < 1 || month > 12) {
      throw c.range("month");
    }
    c.expect('-');
    int day = c.number(true);
    c.expect('T');
    int hour = c.number(false);
    if (hour >= 24) {
      throw c.range("hour");
    }
    c.expect(':');
    int minute = c.number(true);
    if (minute >= 60) {
      throw c.range("minute");
    }
    c.expect(':');
    int second = c.number(true);
    if (second >= 60) {
      throw c.range("second");
    }
    boolean fractionZero = true;
    if (c.remaining() >= 2
        && (s.charAt(c.pos) == '.' || s.charAt(c.pos) == ',')
        && isDigit(s, c.pos + 1)) {
      int n = 2;
      while (c.pos + n < s.length() && isDigit(s, c.pos + n)) {
        n++;
      }
      // Go reads at most nine digits (nanoseconds) and ignores the rest.
      for (int i = 1; i < Math.min(n, 10); i++) {
        fractionZero &= s.charAt(c.pos + i) == '0';
      }
      c.pos += n;
    }
    int offsetSeconds;
    if (c.remaining() >= 1 && s.charAt(c.pos) == 'Z') {
      offsetSeconds = 0;
      c.pos++;
    } else {
      if (c.remaining() < 6 || s.charAt(c.pos + 3) != ':') {
        throw c.bad();
      }
      char sign = s.charAt(c.pos);
      if (!isDigit(s, c.pos + 1)
          || !isDigit(s, c.pos + 2)
          || !isDigit(s, c.pos + 4)
          || !isDigit(s, c.pos + 5)) {
        throw c.bad();
      }
      int offsetHours = Integer.parseInt(s.substring(c.pos + 1, c.pos + 3));
      int offsetMinutes = Integer.parseInt(s.substring(c.pos + 4, c.pos + 6));
      if (offsetHours > 24) {
        throw c.range("time zone offset hour");
      }
      if (offsetMinutes > 60) {
        throw c.range("time zone offset minute");
      }
      offsetSeconds = (offsetHours * 60 + offsetMinutes) * 60;
      if (sign == '-') {
        offsetSeconds = -offsetSeconds;
      } else if (sign != '+') {
        throw c.bad();
      }
      c.pos += 6;
    }
    if (c.remaining() > 0) {
      throw new IllegalArgumentException("parsing time \"" + s + "\": extra text");
    }
    if (day < 1 || day > YearMonth.of(year, month).lengthOfMonth()) {
      throw new IllegalArgumentException("parsing time \"" + s + "\": day out of range");
    }
    return new Parsed(
        LocalDateTime.of(year, month, day, hour, minute, second).minusSeconds(offsetSeconds),
        fractionZero);
  }

  private static String pad(int value, int width) {
    String s = Integer.toString(value);
    return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
  }

  private static boolean isDigit(String s, int i) {
    return i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9';
  }

  /** Position in the text plus Go's getnum and literal matching. */
  private static final class Cursor {
    final String s;
    int pos;

    Cursor(String s) {
      this.s = s;
    }

    int remaining() {
      return s.length() - pos;
    }

    void expect(char literal) {
      if (pos >= s.length() || s.charAt(pos) != literal) {
        throw bad();
      }
      pos++;
    }

    /** Go's getnum: one or two digits, exactly two when fixed. */
    int number(boolean fixed) {
      if (!isDigit(s, pos)) {
        throw bad();
      }
      if (!isDigit(s, pos + 1)) {
        if (fixed) {
          throw bad();
        }
        return s.charAt(pos++) - '0';
      }
      int n = (s.charAt(pos) - '0') * 10 + (s.charAt(pos + 1) - '0');
      pos += 2;
      return n;
    }

    IllegalArgumentException bad() {
      return new IllegalArgumentException(
          "parsing time \""
              + s
              + "\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \""
              + s.substring(pos)
              + "\"");
    }

    IllegalArgumentException range(String what) {
      return new IllegalArgumentException("parsing time \"" + s + "\": " + what + " out of range");
    }
  }
}
