package io.rollgate.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code now()}, {@code duration()} and time arithmetic, as Prometheus {@code rangeQuery.start/end}
 * use them.
 */
class TimeFunctionsTest {

  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  private static Object eval(String source) {
    return Expression.parse(source).evaluate(Map.of(), CLOCK);
  }

  @Test
  void nowReadsTheClock() {
    assertEquals(NOW, eval("now()"));
  }

  @Test
  void rangeQueryStartAndEnd() {
    assertEquals(NOW.minusSeconds(300), eval("now() - duration(\"5m\")"));
    assertEquals(NOW.plusSeconds(90), eval("now() + duration(\"1m30s\")"));
    assertEquals(NOW.plusSeconds(3600), eval("duration(\"1h\") + now()"));
    assertEquals(NOW, eval("now() - duration(\"0\")"));
  }

  @Test
  void durationArithmeticAndComparison() {
    assertEquals(Duration.ofMinutes(5), eval("now() - (now() - duration(\"5m\"))"));
    assertEquals(Duration.ofSeconds(90), eval("duration(\"1m\") + duration(\"30s\")"));
    assertEquals(Duration.ofSeconds(30), eval("duration(\"1m\") - duration(\"30s\")"));
    assertEquals(Duration.ofMinutes(15), eval("duration(\"5m\") * 3"));
    assertEquals(Duration.ofMinutes(-5), eval("-duration(\"5m\")"));
    assertEquals(true, eval("duration(\"1h\") > duration(\"59m\")"));
    assertEquals(true, eval("now() > now() - duration(\"1ns\")"));
    assertEquals(true, eval("now() - duration(\"1m\") == now() - duration(\"60s\")"));
  }

  @ParameterizedTest(name = "string(duration({0})) = {1}")
  @CsvSource({
    "'1h30m', 1h30m0s",
    "'90s', 1m30s",
    "'1.5s', 1.5s",
    "'150ms', 150ms",
    "'0s', 0s",
    "'2h', 2h0m0s",
  })
  void durationsPrintLikeGo(String text, String printed) {
    assertEquals(printed, eval("string(duration(\"" + text + "\"))"));
  }

  @Test
  void timesPrintLikeGo() {
    assertEquals("2026-11-30 12:00:00 +0000 UTC", eval("string(now())"));
    assertEquals("2026-11-30 11:59:59.5 +0000 UTC", eval("string(now() - duration(\"500ms\"))"));
  }

  @Test
  void badDurationsAndMismatchesAreErrors() {
    assertEquals(
        "time: invalid duration \"five minutes\"",
        assertThrows(ExpressionEvaluationException.class, () -> eval("duration(\"five minutes\")"))
            .getMessage());
    assertEquals(
        "invalid operation: time.Time + time.Time",
        assertThrows(ExpressionEvaluationException.class, () -> eval("now() + now()"))
            .getMessage());
    assertEquals(
        "invalid operation: time.Time > int",
        assertThrows(ExpressionEvaluationException.class, () -> eval("now() > 5")).getMessage());
    assertEquals(
        "invalid argument for duration (type int)",
        assertThrows(ExpressionEvaluationException.class, () -> eval("duration(5)")).getMessage());
  }
}
