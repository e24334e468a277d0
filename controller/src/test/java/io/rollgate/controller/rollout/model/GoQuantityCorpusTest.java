package io.rollgate.controller.rollout.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Quantities are written back exactly as recorded (Go's {@code MarshalJSON} of what {@code ParseQuantity} read, or the
 * error it gave) for a corpus of texts drawn by a seeded generator ({@code quantity/canonical-corpus.jsonl}). The
 * corpus is recorded again only on purpose: run this test with {@code -Drollgate.corpus.write=true} and review the
 * diff.
 */
class GoQuantityCorpusTest {

  private static final String CORPUS = "quantity/canonical-corpus.jsonl";
  private static final String WRITE = "rollgate.corpus.write";
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Texts drawn after the {@link #EDGES}. */
  private static final int DRAWN = 3_000;
  private static final String[] SUFFIXES = {"", "", "", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi",
    "Ei", "n", "u", "e", "E", "e3", "E3", "e+3", "e-3", "E-2", "e-9", "e-10", "e18", "e19", "e30", "e-31", "K", "ki",
    "mi", "i", "Kib", "e-", "e+", "E+", "Ex", "x", " ", "\t", "\u00a0", "e2147483648", "e4294967297", "e99999999999",
    "e9223372036854775808"};
  private static final String JUNK = "0123456789.+-eEmkMGKinu \t";
  private static final List<String> EDGES =
      List.of("", " ", "0", " 0 ", "+", "-", ".", "+.", "-.5", "+.5", "5.", "-5.", "1.2.3", "-0", "+0", "-0.000", "0e-5",
          "0e5", "0.0m", "00", "01", "001.5", "1.500", "1000m", "1024Mi", "1.5Gi", "0.5Ki", "1Ki", "1023", "1024",
          "8Ei", "9Ei", "100n", "1n", "0.1n", "1u", "1.5u", "999999999999999999", "9999999999999999999",
          "9223372036854775807", "9223372036854775808", "-9223372036854775808", "12345678901234567890Ki", "1e",
          "1E", "1e3", "1E3", "1e-3", "1e-9", "1e-10", "1e-12", "1.5e-9", "1e19", "1e30", "1e2147483647",
          "1e4294967297", "1KiB", "1 Gi", "\u20281\u3000");

  @Test
  @DisabledIfSystemProperty(named = WRITE, matches = "true")
  void writesQuantitiesBackAsRecorded() throws IOException {
    List<JsonNode> corpus = read();
    assertTrue(corpus.size() > EDGES.size());
    for (JsonNode line : corpus) {
      String text = line.get("text").asText();
      assertEquals(line, outcome(text), text);
    }
  }

  @Test
  @EnabledIfSystemProperty(named = WRITE, matches = "true")
  void recordsTheCorpus() throws IOException {
    StringBuilder out = new StringBuilder();
    for (String s : EDGES) {
      out.append(JSON.writeValueAsString(outcome(s))).append('\n');
    }
    Random random = new Random(41);
    for (int i = 0; i < DRAWN; i++) {
      String s = random.nextInt(10) == 0 ? junk(random) : quantity(random);
      out.append(JSON.writeValueAsString(outcome(s))).append('\n');
    }
    Path file = Path.of("src/test/resources", CORPUS);
    Files.createDirectories(file.getParent());
    Files.writeString(file, out, StandardCharsets.UTF_8);
  }

  /** The canonical text, or the message of the error. */
  private static ObjectNode outcome(String s) {
    ObjectNode line = JSON.createObjectNode().put("text", s);
    try {
      return line.put("canonical", GoQuantity.fromJsonNumber(s));
    } catch (IllegalArgumentException | ArithmeticException e) {
      return line.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  private static List<JsonNode> read() throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    try (InputStream in = GoQuantityCorpusTest.class.getResourceAsStream("/" + CORPUS)) {
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lines.add(JSON.readTree(line));
      }
    }
    return lines;
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
