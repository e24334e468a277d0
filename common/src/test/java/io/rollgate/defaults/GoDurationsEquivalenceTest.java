package io.rollgate.defaults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The character-scanning Go duration parser gives exactly what the regular-expression and BigDecimal one gives. */
class GoDurationsEquivalenceTest {

  private static final String[] UNITS = {"ns", "us", "\u00b5s", "\u03bcs", "ms", "s", "m", "h", "", "n", "u", "M", "S",
    "d", "mss", "\u00b5", "x"};
  private static final String JUNK = "0123456789.+- smhnuµμ\u0660e";

  @Test
  void agreesWithTheReferenceOnRandomText() {
    Random random = new Random(11);
    for (int i = 0; i < 200_000; i++) {
      String s = random.nextInt(10) == 0 ? junk(random) : duration(random);
      assertEquals(GoDurationsReference.parse(s), GoDurations.parse(s), s);
      assertEquals(
          GoDurationsReference.pauseDuration(new IntOrString(s)), GoDurations.pauseDuration(new IntOrString(s)), s);
    }
  }

  @Test
  void agreesWithTheReferenceAtTheLimits() {
    List<String> edges =
        List.of(
            "9223372036854775807ns",
            "9223372036854775808ns",
            "-9223372036854775807ns",
            "-9223372036854775808ns",
            "99999999999999999999ns",
            "00000000000000000000000000001s",
            "2562047h",
            "2562048h",
            "2562047h47m16s854775807ns",
            "2562047h47m16s854775808ns",
            "2562047h47m16.854775807s",
            "2562047h47m16.854775808s",
            "2562047h47m16.8547758079999s",
            "-2562047h47m16.854775807s",
            "2562047.788015215h",
            "2562047.7880152155h",
            "9223372036.854775807s",
            "9223372036.8547758075s",
            "153722867m",
            "153722867.28m",
            "0.5ns0.5ns",
            "0.3ns0.3ns0.4ns",
            "0.999999ns0.000001ns",
            "0.9999999ns0.0000001ns",
            "1.000000000000000000000001h",
            ".0000001h",
            "0.000000000001h",
            "1.h",
            ".5m",
            "1..5s",
            "0",
            "-0",
            "+0",
            "00",
            "0.",
            ".",
            "-",
            "+",
            "+-1s",
            "1e3s",
            "1_000s",
            "\u0661s",
            "1s.",
            "1s1",
            "1m1ms1us1ns1\u00b5s1\u03bcs");
    for (String s : edges) {
      assertEquals(GoDurationsReference.parse(s), GoDurations.parse(s), s);
      assertEquals(
          GoDurationsReference.pauseDuration(new IntOrString(s)), GoDurations.pauseDuration(new IntOrString(s)), s);
    }
  }

  @Test
  void agreesWithTheReferenceNearTheOverflowLimit() {
    Random random = new Random(13);
    long max = Long.MAX_VALUE;
    for (int i = 0; i < 20_000; i++) {
      long nanos = max - random.nextInt(2_000_000) + 1_000_000;
      String s;
      switch (random.nextInt(4)) {
        case 0:
          s = Long.toUnsignedString(nanos) + "ns";
          break;
        case 1:
          s = (nanos / 1_000_000_000L) + "s" + (nanos % 1_000_000_000L) + "ns";
          break;
        case 2:
          s = (nanos / 1_000_000_000L) + "." + String.format("%09d", nanos % 1_000_000_000L) + "s";
          break;
        default:
          s = (nanos / 3_600_000_000_000L) + "h" + (nanos % 3_600_000_000_000L) / 1_000 + "." + nanos % 1_000 + "us";
          break;
      }
      String signed = random.nextBoolean() ? "-" + s : s;
      assertEquals(GoDurationsReference.parse(signed), GoDurations.parse(signed), signed);
    }
  }

  private static String duration(Random random) {
    StringBuilder b = new StringBuilder();
    int sign = random.nextInt(8);
    if (sign == 0) {
      b.append('-');
    } else if (sign == 1) {
      b.append('+');
    }
    int parts = 1 + random.nextInt(4);
    for (int p = 0; p < parts; p++) {
      if (random.nextInt(5) != 0) {
        digits(random, b, random.nextInt(4) == 0 ? random.nextInt(22) : 1 + random.nextInt(3));
      }
      if (random.nextInt(3) == 0) {
        b.append('.');
        digits(random, b, random.nextInt(4) == 0 ? random.nextInt(12) : random.nextInt(4));
      }
      b.append(random.nextInt(6) == 0 ? UNITS[random.nextInt(UNITS.length)] : UNITS[random.nextInt(8)]);
    }
    return b.toString();
  }

  private static void digits(Random random, StringBuilder b, int n) {
    for (int k = 0; k < n; k++) {
      b.append((char) ('0' + (random.nextInt(3) == 0 ? 9 : random.nextInt(10))));
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
