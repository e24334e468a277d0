package io.rollgate.controller.analysis.model;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * RFC 3339 times as Kubernetes stores them ({@code metav1.Time}: whole seconds, UTC, for example
 * {@code 2026-11-30T10:00:00Z}).
 */
public final class Times {

  private Times() {}

  /**
   * Formats a time, dropping the fraction of a second as {@code metav1.Time} does.
   *
   * @param t the time
   * @return the RFC 3339 text
   */
  public static String format(Instant t) {
    return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  /**
   * Formats a time rounded up to the next whole second, for times that must not come earlier than
   * asked ({@code resumeAt}).
   *
   * @param t the time
   * @return the RFC 3339 text
   */
  public static String formatCeiling(Instant t) {
    Instant floor = t.truncatedTo(ChronoUnit.SECONDS);
    return format(floor.equals(t) ? t : floor.plusSeconds(1));
  }

  /**
   * Parses an RFC 3339 time.
   *
   * @param text the text; may be {@code null}
   * @return the time, or {@code null} when the text is {@code null} or not a valid time
   */
  public static Instant parse(String text) {
    if (text == null) {
      return null;
    }
    try {
      return DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(text, Instant::from);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
