package io.rollgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Quantities are parsed, checked and compared exactly as recorded for a corpus of texts drawn by a seeded generator
 * ({@code quantities-corpus.jsonl} and {@code quantity-comparisons-corpus.jsonl}; see {@link Corpus} for how they are
 * recorded). A parsed value is written as its unscaled value and power of ten ({@code 15E-1} is 1.5 at scale 1).
 */
class QuantitiesCorpusTest {

  private static final String CORPUS = "quantities-corpus.jsonl";
  private static final String COMPARISONS = "quantity-comparisons-corpus.jsonl";
  /** Texts drawn after the {@link #EDGES}. */
  private static final int DRAWN = 3_000;
  private static final int COMPARED = 1_000;
  private static final String[] SUFFIXES = {"", "", "", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi",
    "Ei", "e", "E", "e3", "E3", "e+3", "e-3", "E-2", "e30", "e-30", "e31", "e-31", "e0000000000000000000005", "K", "ki",
    "mi", "i", "Kib", "e-", "e+", "E+", "Ex", "x", " ", "e2147483648", "e-2147483648", "e-2147483647", "e99999999999"};
  private static final String JUNK = "0123456789.+-eEmkMGKi ";
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
      assertEquals(line, comparison(a, line.get("cutA").asInt(), b, line.get("cutB").asInt()), a + " vs " + b);
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
      String s = random.nextInt(10) == 0 ? junk(random) : quantity(random);
      lines.add(outcome(s, cut(s)));
    }
    Corpus.write(CORPUS, lines);

    List<ObjectNode> comparisons = new ArrayList<>();
    random = new Random(19);
    while (comparisons.size() < COMPARED) {
      String a = quantity(random);
      String b = random.nextInt(4) == 0 ? a : quantity(random);
      if (Quantities.isValid(a) && Quantities.isValid(b)) {
        comparisons.add(comparison(a, random.nextInt(a.length() + 1), b, random.nextInt(b.length() + 1)));
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
      line.put("parse", Quantities.parse(s).map(d -> d.unscaledValue() + "E" + (-d.scale())).orElse("none"));
    } catch (RuntimeException e) {
      line.put("parse", e.getClass().getName());
    }
    line.put("valid", Quantities.isValid(s)).put("cut", cut);
    return line.put("check", Quantities.check(s.substring(0, cut), s.substring(cut)));
  }

  private static ObjectNode comparison(String a, int cutA, String b, int cutB) {
    int sign = Quantities.compare(a.substring(0, cutA), a.substring(cutA), b.substring(0, cutB), b.substring(cutB));
    ObjectNode line = Corpus.JSON.createObjectNode().put("a", a).put("cutA", cutA).put("b", b).put("cutB", cutB);
    return line.put("compare", Integer.signum(sign));
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
