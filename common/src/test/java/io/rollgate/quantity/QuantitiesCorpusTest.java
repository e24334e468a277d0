package io.rollgate.quantity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.testing.Corpus;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Quantities are parsed, checked, compared and written back exactly as recorded for corpora of
 * texts drawn by seeded generators (under {@code quantity/}; see {@link Corpus} for how they are
 * recorded). A parsed value is written as its unscaled value and power of ten ({@code 15E-1} is 1.5
 * at scale 1); Go's reading as the canonical text or the error.
 */
class QuantitiesCorpusTest {

  private static final String CORPUS = "quantity/quantities-corpus.jsonl";
  private static final String COMPARISONS = "quantity/comparisons-corpus.jsonl";
  private static final String CANONICAL = "quantity/canonical-corpus.jsonl";

  /** Texts drawn after the edges, for each corpus of texts. */
  private static final int DRAWN = 3_000;

  private static final int COMPARED = 1_000;
  private static final String[] SUFFIXES = {
    "",
    "",
    "",
    "m",
    "k",
    "M",
    "G",
    "T",
    "P",
    "E",
    "Ki",
    "Mi",
    "Gi",
    "Ti",
    "Pi",
    "Ei",
    "e",
    "E",
    "e3",
    "E3",
    "e+3",
    "e-3",
    "E-2",
    "e30",
    "e-30",
    "e31",
    "e-31",
    "e0000000000000000000005",
    "K",
    "ki",
    "mi",
    "i",
    "Kib",
    "e-",
    "e+",
    "E+",
    "Ex",
    "x",
    " ",
    "e2147483648",
    "e-2147483648",
    "e-2147483647",
    "e99999999999"
  };
  private static final String JUNK = "0123456789.+-eEmkMGKi ";

  /** Go's reading also sees {@code n}, {@code u}, white space and exponents beyond an int. */
  private static final String[] GO_SUFFIXES = {
    "",
    "",
    "",
    "m",
    "k",
    "M",
    "G",
    "T",
    "P",
    "E",
    "Ki",
    "Mi",
    "Gi",
    "Ti",
    "Pi",
    "Ei",
    "n",
    "u",
    "e",
    "E",
    "e3",
    "E3",
    "e+3",
    "e-3",
    "E-2",
    "e-9",
    "e-10",
    "e18",
    "e19",
    "e30",
    "e-31",
    "K",
    "ki",
    "mi",
    "i",
    "Kib",
    "e-",
    "e+",
    "E+",
    "Ex",
    "x",
    " ",
    "\t",
    "\u00a0",
    "e2147483648",
    "e4294967297",
    "e99999999999",
    "e9223372036854775808"
  };

  private static final String GO_JUNK = "0123456789.+-eEmkMGKinu \t";
  private static final List<String> GO_EDGES =
      List.of(
          "",
          " ",
          "0",
          " 0 ",
          "+",
          "-",
          ".",
          "+.",
          "-.5",
          "+.5",
          "5.",
          "-5.",
          "1.2.3",
          "-0",
          "+0",
          "-0.000",
          "0e-5",
          "0e5",
          "0.0m",
          "00",
          "01",
          "001.5",
          "1.500",
          "1000m",
          "1024Mi",
          "1.5Gi",
          "0.5Ki",
          "1Ki",
          "1023",
          "1024",
          "8Ei",
          "9Ei",
          "100n",
          "1n",
          "0.1n",
          "1u",
          "1.5u",
          "999999999999999999",
          "9999999999999999999",
          "9223372036854775807",
          "9223372036854775808",
          "-9223372036854775808",
          "12345678901234567890Ki",
          "1e",
          "1E",
          "1e3",
          "1E3",
          "1e-3",
          "1e-9",
          "1e-10",
          "1e-12",
          "1.5e-9",
          "1e19",
          "1e30",
          "1e2147483647",
          "1e4294967297",
          "1KiB",
          "1 Gi",
          "\u20281\u3000");
  private static final List<String> EDGES =
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

  @Test
  @DisabledIfSystemProperty(named = Corpus.WRITE, matches = "true")
  void parsesAndChecksAsRecorded() {
    List<JsonNode> corpus = Corpus.read(CORPUS);
    assertTrue(corpus.size() > EDGES.size());
    for (JsonNode line : corpus) {
      String text = line.get("text").asText();
      assertEquals(line, outcome(text, line.get("cut").asInt()), text);
    }
  }

  @Test
  @DisabledIfSystemProperty(named = Corpus.WRITE, matches = "true")
  void comparesAsRecorded() {
    for (JsonNode line : Corpus.read(COMPARISONS)) {
      String a = line.get("a").asText();
      String b = line.get("b").asText();
      assertEquals(
          line,
          comparison(a, line.get("cutA").asInt(), b, line.get("cutB").asInt()),
          a + " vs " + b);
    }
  }

  @Test
  @DisabledIfSystemProperty(named = Corpus.WRITE, matches = "true")
  void writesBackAsRecorded() {
    List<JsonNode> corpus = Corpus.read(CANONICAL);
    assertTrue(corpus.size() > GO_EDGES.size());
    for (JsonNode line : corpus) {
      String text = line.get("text").asText();
      assertEquals(line, canonical(text), text);
    }
  }

  @Test
  @EnabledIfSystemProperty(named = Corpus.WRITE, matches = "true")
  void recordsTheCorpus() {
    List<ObjectNode> lines = new ArrayList<>();
    for (String s : EDGES) {
      lines.add(outcome(s, cut(s)));
    }
    Random random = new Random(17);
    for (int i = 0; i < DRAWN; i++) {
      String s = random.nextInt(10) == 0 ? junk(random, JUNK) : quantity(random, SUFFIXES, JUNK);
      lines.add(outcome(s, cut(s)));
    }
    Corpus.write(CORPUS, lines);

    List<ObjectNode> canonical = new ArrayList<>();
    for (String s : GO_EDGES) {
      canonical.add(canonical(s));
    }
    random = new Random(41);
    for (int i = 0; i < DRAWN; i++) {
      String s =
          random.nextInt(10) == 0 ? junk(random, GO_JUNK) : quantity(random, GO_SUFFIXES, GO_JUNK);
      canonical.add(canonical(s));
    }
    Corpus.write(CANONICAL, canonical);

    List<ObjectNode> comparisons = new ArrayList<>();
    random = new Random(19);
    while (comparisons.size() < COMPARED) {
      String a = quantity(random, SUFFIXES, JUNK);
      String b = random.nextInt(4) == 0 ? a : quantity(random, SUFFIXES, JUNK);
      if (Quantities.isValid(a) && Quantities.isValid(b)) {
        comparisons.add(
            comparison(a, random.nextInt(a.length() + 1), b, random.nextInt(b.length() + 1)));
      }
    }
    Corpus.write(COMPARISONS, comparisons);
  }

  /** Where {@code s} is split into amount and format for {@link Quantities#check}. */
  private static int cut(String s) {
    return s.isEmpty() ? 0 : new Random(s.hashCode()).nextInt(s.length() + 1);
  }

  private static ObjectNode outcome(String s, int cut) {
    ObjectNode line = Corpus.JSON.createObjectNode().put("text", s);
    try {
      line.put(
          "parse",
          Quantities.parse(s).map(d -> d.unscaledValue() + "E" + (-d.scale())).orElse("none"));
    } catch (RuntimeException e) {
      line.put("parse", e.getClass().getName());
    }
    line.put("valid", Quantities.isValid(s)).put("cut", cut);
    return line.put("check", Quantities.check(s.substring(0, cut), s.substring(cut)));
  }

  /** The text Go writes back, or the error it gives. */
  private static ObjectNode canonical(String s) {
    ObjectNode line = Corpus.JSON.createObjectNode().put("text", s);
    try {
      return line.put("canonical", Quantities.canonical(s));
    } catch (IllegalArgumentException | ArithmeticException e) {
      return line.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  private static ObjectNode comparison(String a, int cutA, String b, int cutB) {
    int sign =
        Quantities.compare(
            a.substring(0, cutA), a.substring(cutA), b.substring(0, cutB), b.substring(cutB));
    ObjectNode line =
        Corpus.JSON.createObjectNode().put("a", a).put("cutA", cutA).put("b", b).put("cutB", cutB);
    return line.put("compare", Integer.signum(sign));
  }

  private static String quantity(Random random, String[] suffixes, String junk) {
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
    b.append(suffixes[random.nextInt(suffixes.length)]);
    if (random.nextInt(8) == 0) {
      b.insert(random.nextInt(b.length() + 1), junk.charAt(random.nextInt(junk.length())));
    }
    return b.toString();
  }

  private static void digits(Random random, StringBuilder b, int n) {
    for (int k = 0; k < n; k++) {
      b.append((char) ('0' + (random.nextInt(3) == 0 ? 0 : random.nextInt(10))));
    }
  }

  private static String junk(Random random, String alphabet) {
    StringBuilder b = new StringBuilder();
    int n = random.nextInt(8);
    for (int k = 0; k < n; k++) {
      b.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return b.toString();
  }
}
