package io.rollgate.quantity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantitiesTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "1", "0", "500m", "1.5", "1.", ".5", "+1", "1Gi", "128Mi", "2Ki", "1e3", "1E3", "1e-3",
        "3k", "1M", "2G", "1T", "1P", "1E", "100n"
      })
  void acceptsWellFormedQuantities(String q) {
    if (q.equals("100n")) {
      assertFalse(Quantities.isValid(q), "n is not a suffix of the grammar");
      return;
    }
    assertTrue(Quantities.isValid(q), q);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "", "abc", "1.5.5", "1GB", "1 Gi", "Gi", "1gi", "--1", "1e", "1e1.5", "0x10", "1Ki1", "1e99"
      })
  void refusesMalformedQuantities(String q) {
    assertFalse(Quantities.isValid(q), q);
  }

  @Test
  void parsesQuantitiesToBaseUnits() {
    assertEquals(0, new BigDecimal("0.5").compareTo(Quantities.parse("500m").orElseThrow()));
    assertEquals(0, new BigDecimal("1073741824").compareTo(Quantities.parse("1Gi").orElseThrow()));
    assertEquals(0, new BigDecimal("1000").compareTo(Quantities.parse("1e3").orElseThrow()));
    assertEquals(0, new BigDecimal("1000").compareTo(Quantities.parse("1k").orElseThrow()));
    assertEquals(
        0, new BigDecimal(1L << 60).compareTo(Quantities.parse("1Ei").orElseThrow()), "Ei is 2^60");
    assertEquals(
        0,
        new BigDecimal(1L << 60)
            .multiply(BigDecimal.valueOf(9))
            .compareTo(Quantities.parse("9Ei").orElseThrow()),
        "beyond a long");
  }

  @Test
  void outOfRangeExponentsAreRefusedNotThrown() {
    for (String q :
        new String[] {"1e-2147483648", "1e2147483648", "1e-31", "1e31", "1e-2147483647"}) {
      assertTrue(Quantities.parse(q).isEmpty(), q);
      assertFalse(Quantities.isValid(q), q);
    }
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource({
    "0.001, 0.001",
    "1m, 0.001",
    "500m, 0.500",
    "1e3, 1E+3",
    "1E3, 1E+3",
    "1e-3, 0.001",
    "1k, 1000",
    "1Ki, 1024",
    "1.5Gi, 1610612736.0",
    "+1, 1",
    "-1, -1",
    ".5, 0.5",
    "1., 1.0",
    "1E, 1000000000000000000",
    "00.50, 0.50",
    "-0, 0",
  })
  void parsesToTheValueAndScaleAsWritten(String text, String value) {
    assertEquals(Optional.of(new BigDecimal(value)), Quantities.parse(text));
  }

  @Test
  void computesValuesBeyondALongExactly() {
    assertEquals(
        Optional.of(new BigDecimal("9223372036854775808")),
        Quantities.parse("9223372036854775808"));
    assertEquals(
        Optional.of(new BigDecimal("1.0000000000000000000000000001")),
        Quantities.parse("1.0000000000000000000000000001"));
    assertEquals(
        Optional.of(new BigDecimal("123456789012345678E+30")),
        Quantities.parse("123456789012345678e30"));
    assertEquals(Quantities.check("9", "Ei"), 1);
    assertTrue(Quantities.compare("9", "Ei", "8", "Ei") > 0);
    assertTrue(Quantities.compare("8", "Ei", "9223372036854775808", "") == 0);
  }

  @Test
  void refusesWhatValidationDoesNotAccept() {
    assertFalse(Quantities.isValid("."), "a point without digits");
    assertFalse(Quantities.isValid("+"), "a sign without digits");
    assertFalse(Quantities.isValid("1u"), "u is not a suffix validation accepts");
    assertTrue(Quantities.isValid("1e30"));
    assertTrue(Quantities.isValid("1e-30"));
    assertTrue(Quantities.isValid("0".repeat(63) + "1"), "64 characters");
    assertFalse(Quantities.isValid("0".repeat(64) + "1"), "65 characters");
    assertFalse(Quantities.isValid(null));
  }

  @Test
  void checksTheTwoPartsWithoutJoiningThem() {
    assertEquals(1, Quantities.check("1", "Gi"));
    assertEquals(1, Quantities.check("1G", "i"));
    assertEquals(0, Quantities.check("0", "m"));
    assertEquals(-1, Quantities.check("-1", ""));
    assertEquals(-1, Quantities.check("", "-.5"));
    assertEquals(Quantities.NOT_A_QUANTITY, Quantities.check("", ""));
    assertEquals(Quantities.NOT_A_QUANTITY, Quantities.check("1", "x"));
  }

  @ParameterizedTest(name = "{0}{1} = {2}{3}")
  @CsvSource({
    "1, '', 1000, m",
    "1, Gi, 1073741824, ''",
    "500, m, 0.5, ''",
    "1, e3, 1, k",
    "1, Ki, 1.024, k",
    ".5, '', 5, e-1",
  })
  void comparesEqualValuesWrittenDifferently(
      String amount, String format, String otherAmount, String otherFormat) {
    assertEquals(0, Quantities.compare(amount, format, otherAmount, otherFormat));
  }

  @Test
  void comparesByValue() {
    assertTrue(Quantities.compare("1", "Ki", "1", "k") > 0);
    assertTrue(Quantities.compare("999", "m", "1", "") < 0);
    assertTrue(Quantities.compare("-1", "", "0", "") < 0);
  }

  @ParameterizedTest(name = "{0} is written back as {1}")
  @CsvSource({
    "0, 0",
    "00, 0",
    "-0, 0",
    "0.5, 500m",
    ".5, 500m",
    "0.001, 1m",
    "1., 1.",
    "1.0, 1",
    "1.500, 1.500",
    "+1, +1",
    "01, 01",
    "1000m, 1",
    "1e3, 1e3",
    "1e-10, 1e-9",
    "1e19, 10e18",
    "1E, 1E",
    "1Ki, 1Ki",
    "1024Mi, 1Gi",
    "1.5Gi, 1536Mi",
    "0.5Ki, 512",
    "100n, 100n",
    "0.1n, 1n",
    "8Ei, 9223372036854775807",
    "9999999999999999999, 9999999999999999999",
    "' 1 ', 1",
  })
  void writesBackWhatGoWrites(String text, String canonical) {
    assertEquals(canonical, Quantities.canonical(text));
  }

  @Test
  void goWrapsAnExponentBeyondAnIntAround() {
    assertEquals("10", Quantities.canonical("1e4294967297"), "4294967297 is 1 as a 32-bit int");
  }

  @Test
  void goRefusesWithItsMessages() {
    assertEquals(
        "quantity 1.2.3: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
        assertThrows(IllegalArgumentException.class, () -> Quantities.canonical("1.2.3"))
            .getMessage());
    assertEquals(
        "quantity : quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
        assertThrows(IllegalArgumentException.class, () -> Quantities.canonical("")).getMessage());
    assertEquals(
        "quantity 1e: unable to parse quantity's suffix",
        assertThrows(IllegalArgumentException.class, () -> Quantities.canonical("1e"))
            .getMessage());
    assertEquals(
        "quantity 1KiB: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
        assertThrows(IllegalArgumentException.class, () -> Quantities.canonical("1KiB"))
            .getMessage());
  }
}
