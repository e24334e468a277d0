package io.rollgate.expr;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.TemporalAccessor;
import java.util.List;
import java.util.Locale;

/**
 * expr-lang's {@code date(str[, layout[, timezone]])}, with Go reference-time layouts translated to
 * java.time.
 */
final class Dates {

  /** The layouts tried without an explicit one, as documented by expr-lang (Go notation). */
  private static final List<String> DEFAULT_LAYOUTS =
      List.of(
          "2006-01-02",
          "15:04:05",
          "2006-01-02 15:04:05",
          "2006-01-02T15:04:05Z07:00",
          "02 Jan 06 15:04 MST",
          "Monday, 02-Jan-06 15:04:05 MST",
          "Mon, 02 Jan 2006 15:04:05 MST");

  /** Go layout elements and their java.time pattern equivalents, longest first. */
  private static final String[][] ELEMENTS = {
    {"2006", "uuuu"},
    {"Monday", "EEEE"},
    {"January", "MMMM"},
    {"Z07:00", "XXX"},
    {"-07:00", "xxx"},
    {"-0700", "xx"},
    {"Jan", "MMM"},
    {"Mon", "EEE"},
    {"MST", "zzz"},
    {".000000000", ".SSSSSSSSS"},
    {".000000", ".SSSSSS"},
    {".000", ".SSS"},
    {"01", "MM"},
    {"02", "dd"},
    {"06", "uu"},
    {"15", "HH"},
    {"03", "hh"},
    {"04", "mm"},
    {"05", "ss"},
    {"PM", "a"},
    {"_2", "ppd"},
    {"1", "M"},
    {"2", "d"},
    {"3", "h"},
    {"4", "m"},
    {"5", "s"},
  };

  private Dates() {}

  static Instant parse(String text, String layout, String timezone, int pos) {
    ZoneId zone;
    try {
      zone = timezone == null ? ZoneOffset.UTC : ZoneId.of(timezone);
    } catch (DateTimeException e) {
      throw Interpreter.error(pos, "unknown time zone " + timezone);
    }
    if (layout != null) {
      Instant t = tryLayout(text, layout, zone);
      if (t == null) {
        throw Interpreter.error(
            pos,
            "parsing time "
                + Values.quote(text)
                + " as "
                + Values.quote(layout)
                + ": cannot parse");
      }
      return t;
    }
    try {
      return java.time.OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      // not RFC 3339; try the other layouts
    }
    for (String candidate : DEFAULT_LAYOUTS) {
      Instant t = tryLayout(text, candidate, zone);
      if (t != null) {
        return t;
      }
    }
    throw Interpreter.error(pos, "invalid date " + text);
  }

  private static Instant tryLayout(String text, String layout, ZoneId zone) {
    try {
      DateTimeFormatter f = DateTimeFormatter.ofPattern(translate(layout), Locale.ROOT);
      TemporalAccessor parsed = f.parse(text);
      if (parsed.isSupported(java.time.temporal.ChronoField.OFFSET_SECONDS)
          || parsed.query(java.time.temporal.TemporalQueries.zone()) != null) {
        return ZonedDateTime.from(parsed).toInstant();
      }
      if (parsed.isSupported(java.time.temporal.ChronoField.HOUR_OF_DAY)
          && !parsed.isSupported(java.time.temporal.ChronoField.YEAR)) {
        return LocalDate.of(0, 1, 1)
            .atTime(java.time.LocalTime.from(parsed))
            .atZone(zone)
            .toInstant();
      }
      if (!parsed.isSupported(java.time.temporal.ChronoField.HOUR_OF_DAY)) {
        return LocalDate.from(parsed).atStartOfDay(zone).toInstant();
      }
      return LocalDateTime.from(parsed).atZone(zone).toInstant();
    } catch (DateTimeException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Turns a Go layout ({@code 2006-01-02 15:04:05}) into a java.time pattern, quoting literal text.
   */
  static String translate(String layout) {
    StringBuilder out = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    int i = 0;
    outer:
    while (i < layout.length()) {
      for (String[] e : ELEMENTS) {
        if (layout.startsWith(e[0], i)) {
          flush(literal, out);
          out.append(e[1]);
          i += e[0].length();
          continue outer;
        }
      }
      literal.append(layout.charAt(i++));
    }
    flush(literal, out);
    return out.toString();
  }

  private static void flush(StringBuilder literal, StringBuilder out) {
    if (literal.length() > 0) {
      out.append('\'').append(literal.toString().replace("'", "''")).append('\'');
      literal.setLength(0);
    }
  }
}
