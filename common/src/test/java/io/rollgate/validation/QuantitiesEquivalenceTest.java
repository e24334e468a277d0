package io.rollgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The character-scanning quantity parser gives exactly what the regular-expression and BigDecimal one gives. */
class QuantitiesEquivalenceTest {

  private static final String[] SUFFIXES = {"", "", "", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi",
    "Ei", "e", "E", "e3", "E3", "e+3", "e-3", "E-2", "e30", "e-30", "e31", "e-31", "e0000000000000000000005", "K", "ki",
    "mi", "i", "Kib", "e-", "e+", "E+", "Ex", "x", " ", "e2147483648", "e-2147483648", "e-2147483647", "e99999999999"};
  private static final String JUNK = "0123456789.+-eEmkMGKi ";

  @Test
  void agreesWithTheReferenceOnRandomText() {
    Random random = new Random(17);
    for (int i = 0; i < 200_000; i++) {
      String s = random.nextInt(10) == 0 ? junk(random) : quantity(random);
      assertSame(s);
    }
  }

  @Test
  void agreesWithTheReferenceAtTheLimits() {
    List<String> edges =
        List.of(
            "",
            "+",
            "-",
            ".",
            "+.",
            "-.5",
            "+.5",
            "5.",
            "-5.",
            "1.2.3",
            "0",
            "-0",
            "+0",
            "-0.000",
            "0e-5",
            "0e5",
            "0.0m",
            "999999999999999999",
            "9999999999999999999",
            "000000000000000000000000000000000000000000000000000000000000001",
            "0000000000000000000000000000000000000000000000000000000000000001",
            "00000000000000000000000000000000000000000000000000000000000000001",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "9.223372036854775807E",
            "8Ei",
            "8191Pi",
            "8192Pi",
            "999999999999999999Ei",
            "123456789012345678e30",
            "1e30",
            "1e-30",
            "1e-2147483647",
            "0e-2147483648",
            "1.5Gi",
            "100m",
            "0.1m",
            "1.0000000000000000000000000001",
            "1E",
            "1Ei",
            "1E9",
            "1e");
    for (String s : edges) {
      assertSame(s);
    }
  }

  @Test
  void comparesLikeTheReference() {
    Random random = new Random(19);
    int compared = 0;
    while (compared < 100_000) {
      String a = quantity(random);
      String b = random.nextInt(4) == 0 ? a : quantity(random);
      Optional<BigDecimal> x;
      Optional<BigDecimal> y;
      try {
        x = QuantitiesReference.parse(a);
        y = QuantitiesReference.parse(b);
      } catch (ArithmeticException e) {
        continue;
      }
      if (x.isEmpty() || y.isEmpty()) {
        continue;
      }
      int cut = random.nextInt(a.length() + 1);
      int otherCut = random.nextInt(b.length() + 1);
      assertEquals(
          Integer.signum(x.get().compareTo(y.get())),
          Integer.signum(
              Quantities.compare(a.substring(0, cut), a.substring(cut), b.substring(0, otherCut), b.substring(otherCut))),
          a + " vs " + b);
      compared++;
    }
  }

  private static void assertSame(String s) {
    String expected = outcome(() -> QuantitiesReference.parse(s));
    assertEquals(expected, outcome(() -> Quantities.parse(s)), s);
    assertEquals(outcome(() -> QuantitiesReference.parse(s).isPresent()), outcome(() -> Quantities.isValid(s)), s);
    int cut = s.isEmpty() ? 0 : new Random(s.hashCode()).nextInt(s.length() + 1);
    assertEquals(
        outcome(() -> QuantitiesReference.parse(s).map(BigDecimal::signum).orElse(Quantities.NOT_A_QUANTITY)),
        outcome(() -> Quantities.check(s.substring(0, cut), s.substring(cut))),
        s);
  }

  /** The value with its scale, or the class of the exception thrown. */
  private static String outcome(Supplier<Object> parse) {
    try {
      Object value = parse.get();
      if (value instanceof Optional<?> o && o.isPresent() && o.get() instanceof BigDecimal d) {
        return d.unscaledValue() + "E" + (-d.scale());
      }
      return String.valueOf(value);
    } catch (RuntimeException e) {
      return e.getClass().getName();
    }
  }

  private static String quantity(Random random) {
    StringBuilder b = new StringBuilder();
    int sign = random.nextInt(8);
    if (sign == 0) {
      b.append('-');
    } else if (sign == 1) {
      b.append('+');
    }
    if (random.nextInt(6) != 0) {
      digits(random, b, random.nextInt(5) == 0 ? random.nextInt(24) : 1 + random.nextInt(4));
    }
    if (random.nextInt(3) == 0) {
      b.append('.');
      digits(random, b, random.nextInt(5) == 0 ? random.nextInt(24) : random.nextInt(4));
    }
    b.append(SUFFIXES[random.nextInt(SUFFIXES.length)]);
    if (random.nextInt(8) == 0) {
      b.insert(random.nextInt(b.length() + 1), JUNK.charAt(random.nextInt(JUNK.length())));
    }
    return b.toString();
  }

  private static void digits(Random random, StringBuilder b, int n) {
    for (int k = 0; k < n; k++) {
      b.append((char) ('0' + (random.nextInt(3) == 0 ? 0 : random.nextInt(10))));
    }
  }

  private static String junk(Random random) {
    StringBuilder b = new StringBuilder();
    int n = random.nextInt(8);
    for (int k = 0; k < n; k++) {
      b.append(JUNK.charAt(random.nextInt(JUNK.length())));
    }
    return b.toString();
  }
}
