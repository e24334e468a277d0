package io.rollgate.expr;

/**
 * Go's default formatting ({@code fmt.Sprint}, verb {@code %v}) of the values the condition
 * language works with, for providers whose measurement {@code value} Argo writes that way (a list
 * as {@code [1 2.5 <nil>]}, a float64 as {@code 1e+06}, a time as {@code 2026-01-01 10:00:00 +0000
 * UTC}).
 */
public final class GoValues {

  private GoValues() {}

  /**
   * Formats a value as Go's {@code fmt.Sprint} does.
   *
   * @param value null, Boolean, Number, String, {@link java.time.Instant}, {@link
   *     java.time.Duration}, List or Map
   * @return the text; {@code <nil>} for null, lists space-separated in brackets, maps as {@code
   *     map[k:v]}
   */
  public static String sprint(Object value) {
    return Values.format(value);
  }
}
