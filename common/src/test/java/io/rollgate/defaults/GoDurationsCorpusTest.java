package io.rollgate.defaults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.rollgate.testing.Corpus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Go durations are read exactly as recorded for a corpus of texts drawn by seeded generators
 * ({@code defaults/durations-corpus.jsonl}; see {@link Corpus} for how it is recorded): the edges,
 * texts drawn at random and texts near the overflow limit, each with the nanoseconds {@link
 * GoDurations#parse} gives (or none) and what {@link GoDurations#pauseDuration} gives for it.
 */
class GoDurationsCorpusTest {

  private static final String CORPUS = "defaults/durations-corpus.jsonl";
  private static final String[] UNITS = {
    "ns", "us", "\u00b5s", "\u03bcs", "ms", "s", "m", "h", "", "n", "u", "M", "S", "d", "mss",
    "\u00b5", "x"
  };
  private static final String JUNK = "0123456789.+- smhnu\u00b5\u03bc\u0660e";
  private static final List<String> EDGES =
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

  @Test
  @DisabledIfSystemProperty(named = Corpus.WRITE, matches = "true")
  void readsAsRecorded() {
    List<JsonNode> corpus = Corpus.read(CORPUS);
    for (JsonNode line : corpus) {
      String text = line.get("text").asText();
      assertEquals(line, outcome(text), text);
    }
    assertEquals(EDGES.size() + 4_000, corpus.size());
  }

  @Test
  @EnabledIfSystemProperty(named = Corpus.WRITE, matches = "true")
  void recordsTheCorpus() {
    Set<String> texts = new LinkedHashSet<>(EDGES);
    Random random = new Random(11);
    while (texts.size() < EDGES.size() + 3_000) {
      texts.add(random.nextInt(10) == 0 ? junk(random) : duration(random));
    }
    Random near = new Random(13);
    while (texts.size() < EDGES.size() + 4_000) {
      texts.add(nearOverflow(near));
    }
    List<JsonNode> lines = new ArrayList<>();
    texts.forEach(t -> lines.add(outcome(t)));
    Corpus.write(CORPUS, lines);
  }

  private static ObjectNode outcome(String text) {
    ObjectNode line = Corpus.JSON.createObjectNode().put("text", text);
    put(line, "parse", GoDurations.parse(text));
    put(line, "pause", GoDurations.pauseDuration(new IntOrString(text)));
    return line;
  }

  private static void put(ObjectNode line, String field, Optional<Duration> d) {
    if (d.isEmpty()) {
      line.putNull(field);
    } else {
      line.put(field, d.get().getSeconds() + "s" + d.get().getNano() + "ns");
    }
  }

  private static String nearOverflow(Random random) {
    long nanos = Long.MAX_VALUE - random.nextInt(2_000_000) + 1_000_000;
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
        s =
            (nanos / 3_600_000_000_000L)
                + "h"
                + (nanos % 3_600_000_000_000L) / 1_000
                + "."
                + nanos % 1_000
                + "us";
        break;
    }
    return random.nextBoolean() ? "-" + s : s;
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
      b.append(
          random.nextInt(6) == 0 ? UNITS[random.nextInt(UNITS.length)] : UNITS[random.nextInt(8)]);
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
