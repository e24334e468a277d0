package io.rollgate.defaults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.IntOrString;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class GoDurationsTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "30s, PT30S",
    "5m, PT5M",
    "2h, PT2H",
    "300ms, PT0.3S",
    "1500us, PT0.0015S",
    "7ns, PT0.000000007S",
    "0s, PT0S",
  })
  void parsesSingleUnitDurations(String text, Duration expected) {
    assertEquals(Optional.of(expected), GoDurations.parse(text));
  }

  @Test
  void acceptsBothMicroSigns() {
    assertEquals(Optional.of(Duration.ofNanos(2_000)), GoDurations.parse("2\u00b5s"));
    assertEquals(Optional.of(Duration.ofNanos(2_000)), GoDurations.parse("2\u03bcs"));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "1m30s, PT1M30S",
    "1h30m, PT1H30M",
    "1h0m0s, PT1H",
    "2h45m10s500ms, PT2H45M10.5S",
    "1s1s, PT2S",
  })
  void sumsCompoundDurations(String text, Duration expected) {
    assertEquals(Optional.of(expected), GoDurations.parse(text));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "1.5h, PT1H30M",
    "0.5s, PT0.5S",
    ".5s, PT0.5S",
    "1.s, PT1S",
    "1.25m, PT1M15S",
  })
  void parsesDecimalFractions(String text, Duration expected) {
    assertEquals(Optional.of(expected), GoDurations.parse(text));
  }

  @Test
  void parsesDecimalFractionsExactly() {
    assertEquals(Optional.of(Duration.ofMinutes(138)), GoDurations.parse("2.3h"));
    assertEquals(Optional.of(Duration.ofMillis(2_010)), GoDurations.parse("2.01s"));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "-1s, -PT1S",
    "+5s, PT5S",
    "-1m30s, -PT1M30S",
    "-1.5h, -PT1H30M",
  })
  void appliesLeadingSignToWholeDuration(String text, Duration expected) {
    assertEquals(Optional.of(expected), GoDurations.parse(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-0", "+0"})
  void parsesBareZeroWithoutUnit(String text) {
    assertEquals(Optional.of(Duration.ZERO), GoDurations.parse(text));
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(
      strings = {
        "10",
        "00",
        "s",
        "-",
        "+",
        ".s",
        "1x",
        "1d",
        "1 s",
        " 1s",
        "1s ",
        "1h-5m",
        "1.5.3s",
        "abc",
        "1S",
        "--1s",
        "9999999999h",
        "2562048h"
      })
  void rejectsTextThatIsNotAGoDuration(String text) {
    assertEquals(Optional.empty(), GoDurations.parse(text));
  }

  @Test
  void readsIntegerPauseDurationAsSeconds() {
    assertEquals(
        Optional.of(Duration.ofSeconds(30)), GoDurations.pauseDuration(new IntOrString(30)));
    assertEquals(Optional.of(Duration.ZERO), GoDurations.pauseDuration(new IntOrString(0)));
  }

  @Test
  void readsDigitStringPauseDurationAsSeconds() {
    assertEquals(
        Optional.of(Duration.ofSeconds(45)), GoDurations.pauseDuration(new IntOrString("45")));
    assertEquals(Optional.of(Duration.ZERO), GoDurations.pauseDuration(new IntOrString("0")));
  }

  @Test
  void readsOtherPauseDurationStringsAsGoDurations() {
    assertEquals(
        Optional.of(Duration.ofSeconds(90)), GoDurations.pauseDuration(new IntOrString("1m30s")));
    assertEquals(
        Optional.of(Duration.ofMinutes(90)), GoDurations.pauseDuration(new IntOrString("1.5h")));
    assertEquals(
        Optional.of(Duration.ofMillis(300)), GoDurations.pauseDuration(new IntOrString("300ms")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"abc", "10x", "", "1h-5m", "-5", "99999999999999999999"})
  void returnsMinusOneSecond_whenPauseDurationIsUnparsable(String text) {
    assertEquals(
        Optional.of(Duration.ofSeconds(-1)), GoDurations.pauseDuration(new IntOrString(text)));
  }

  @Test
  void keepsNegativeGoDurationOfPause() {
    assertEquals(
        Optional.of(Duration.ofSeconds(-1)), GoDurations.pauseDuration(new IntOrString("-1s")));
    assertEquals(
        Optional.of(Duration.ofSeconds(-5)), GoDurations.pauseDuration(new IntOrString(-5)));
  }

  @Test
  void returnsEmpty_whenPauseHasNoDuration() {
    assertEquals(Optional.empty(), GoDurations.pauseDuration(null));
    assertEquals(Optional.empty(), GoDurations.pauseDuration(new IntOrString()));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "PT0S, 0s",
    "PT10S, 10s",
    "PT1M, 1m0s",
    "PT1M30S, 1m30s",
    "PT1H, 1h0m0s",
    "PT1H1M1S, 1h1m1s",
    "PT25H, 25h0m0s",
    "PT1.5S, 1.5s",
    "PT1.25S, 1.25s",
    "PT1H0.5S, 1h0m0.5s",
    "-PT1M30S, -1m30s",
  })
  void formatsLikeGoDurationString(Duration d, String expected) {
    assertEquals(expected, GoDurations.format(d));
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 1, 59, 60, 61, 3599, 3600, 3661, 86_400, 90_061})
  void parsesWhatItFormats_forWholeSeconds(long seconds) {
    Duration d = Duration.ofSeconds(seconds);
    assertEquals(Optional.of(d), GoDurations.parse(GoDurations.format(d)));
    assertEquals(Optional.of(d.negated()), GoDurations.parse(GoDurations.format(d.negated())));
  }
}
