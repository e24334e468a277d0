package io.rollgate.controller.rollout.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.rollgate.api.ModelJson;
import io.rollgate.quantity.Quantities;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compares {@link GoPodTemplateJson} with Go. The expected values under {@code
 * go-hash/expected/<k8s.io/api version>/} were produced by {@code
 * controller/src/test/go/podtemplatehash} (run its {@code regen.sh}): each fixture under {@code
 * go-hash/fixtures/} decoded by the Kubernetes Go decoder into a {@code corev1.PodTemplateSpec} and
 * encoded with {@code encoding/json}, and the pod template hashes of those bytes.
 */
class GoPodTemplateJsonTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Fixtures whose fabric8 round trip loses a distinction Go makes, so the fabric8 overload cannot
   * match.
   */
  private static final Set<String> FABRIC8_LOSSY = Set.of("empty-required-lists");

  private static String resource(String path) {
    try (InputStream in = GoPodTemplateJsonTest.class.getResourceAsStream("/go-hash/" + path)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource go-hash/" + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode tree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Lines of a generated TSV file, comments dropped, each split at the first tab. */
  private static List<String[]> tsv(String path) {
    List<String[]> rows = new ArrayList<>();
    for (String line : resource(path).split("\n")) {
      if (!line.isEmpty() && !line.startsWith("#")) {
        rows.add(line.split("\t", 2));
      }
    }
    return rows;
  }

  /**
   * One row per version and fixture: version, fixture name, Go's hashes or "ERROR" and the Go
   * error.
   */
  static Stream<Arguments> vectors() {
    List<Arguments> all = new ArrayList<>();
    for (GoKubeApiVersion version : GoKubeApiVersion.values()) {
      for (String[] row : tsv("expected/" + version.moduleVersion() + "/hashes.tsv")) {
        String[] hashes = row[1].split("\t", 2);
        all.add(Arguments.of(version, row[0], hashes[0], hashes[1]));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("vectors")
  void encodesLikeGo(
      GoKubeApiVersion version, String fixture, String hash, String hashWithCollision) {
    JsonNode template = tree(resource("fixtures/" + fixture + ".json"));
    if (hash.equals("ERROR")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> GoPodTemplateJson.encode(template, version));
      assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());
      return;
    }
    String expected = resource("expected/" + version.moduleVersion() + "/" + fixture + ".json");
    byte[] actual = GoPodTemplateJson.encode(template, version);
    assertEquals(expected, new String(actual, StandardCharsets.UTF_8));
    assertArrayEquals(expected.getBytes(StandardCharsets.UTF_8), actual);
    assertEquals(hash, PodTemplateHash.hashOf(actual, null));
    assertEquals(hashWithCollision, PodTemplateHash.hashOf(actual, 1));
    assertEquals(hash, GoPodTemplateJson.podTemplateHash(template, null, version));
  }

  /** Fixtures a fabric8 PodTemplateSpec carries without loss, with Go's expected bytes. */
  static Stream<Arguments> fabric8Vectors() {
    return vectors()
        .filter(a -> !a.get()[2].equals("ERROR") && !FABRIC8_LOSSY.contains((String) a.get()[1]));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("fabric8Vectors")
  void encodesFabric8ModelLikeGo(
      GoKubeApiVersion version, String fixture, String hash, String hashWithCollision) {
    PodTemplateSpec template =
        ModelJson.fromJson(resource("fixtures/" + fixture + ".json"), PodTemplateSpec.class);
    String expected = resource("expected/" + version.moduleVersion() + "/" + fixture + ".json");
    assertEquals(
        expected, new String(GoPodTemplateJson.encode(template, version), StandardCharsets.UTF_8));
  }

  @Test
  void fabric8ModelLosesEmptyListsThatGoWrites() {
    // "containers" and "nodeSelectorTerms" have no omitempty: Go writes [] for an empty list and
    // null for none, while the fabric8 model serializes both as absent.
    String json = "{\"spec\":{\"containers\":[]}}";
    assertEquals(
        "{\"metadata\":{},\"spec\":{\"containers\":[]}}",
        new String(GoPodTemplateJson.encode(tree(json)), StandardCharsets.UTF_8));
    assertEquals(
        "{\"metadata\":{},\"spec\":{\"containers\":null}}",
        new String(
            GoPodTemplateJson.encode(ModelJson.fromJson(json, PodTemplateSpec.class)),
            StandardCharsets.UTF_8));
  }

  @Test
  void defaultVersionIsThatOfCurrentArgoRollouts() {
    JsonNode template = tree(resource("fixtures/rollouts-demo.json"));
    assertArrayEquals(
        GoPodTemplateJson.encode(template, GoKubeApiVersion.V0_34),
        GoPodTemplateJson.encode(template));
    PodTemplateSpec spec =
        ModelJson.fromJson(resource("fixtures/rollouts-demo.json"), PodTemplateSpec.class);
    assertArrayEquals(GoPodTemplateJson.encode(template), GoPodTemplateJson.encode(spec));
  }

  @ParameterizedTest
  @EnumSource(GoKubeApiVersion.class)
  void encodesAbsentTemplateAsZeroTemplate(GoKubeApiVersion version) {
    String expected = resource("expected/" + version.moduleVersion() + "/empty-template.json");
    assertEquals(
        expected,
        new String(GoPodTemplateJson.encode((JsonNode) null, version), StandardCharsets.UTF_8));
    assertEquals(
        expected,
        new String(
            GoPodTemplateJson.encode(JsonNodeFactory.instance.nullNode(), version),
            StandardCharsets.UTF_8));
    assertEquals(
        expected,
        new String(
            GoPodTemplateJson.encode((PodTemplateSpec) null, version), StandardCharsets.UTF_8));
  }

  @Test
  void creationTimestampIsWrittenOnlyByOlderTypes() {
    JsonNode template = tree("{\"metadata\":{\"labels\":{\"app\":\"web\"}}}");
    assertEquals(
        "{\"metadata\":{\"creationTimestamp\":null,\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":null}}",
        new String(
            GoPodTemplateJson.encode(template, GoKubeApiVersion.V0_29), StandardCharsets.UTF_8));
    assertEquals(
        "{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":null}}",
        new String(
            GoPodTemplateJson.encode(template, GoKubeApiVersion.V0_34), StandardCharsets.UTF_8));
    assertNotEquals(
        GoPodTemplateJson.podTemplateHash(template, null, GoKubeApiVersion.V0_29),
        GoPodTemplateJson.podTemplateHash(template, null, GoKubeApiVersion.V0_34));
  }

  @Test
  void reproducesTheReferenceTemplateOfPodTemplateHashTest() {
    JsonNode template =
        tree(
            "{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
                + "\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\"nginx:1.25\"}]}}");
    assertEquals(
        "{\"metadata\":{\"creationTimestamp\":null,\"labels\":{\"app\":\"web\"}},"
            + "\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\"nginx:1.25\",\"resources\":{}}]}}",
        new String(
            GoPodTemplateJson.encode(template, GoKubeApiVersion.V0_29), StandardCharsets.UTF_8));
    assertEquals(
        "7c4bd8fbf8", GoPodTemplateJson.podTemplateHash(template, null, GoKubeApiVersion.V0_29));
    assertEquals(
        "747bf9867f", GoPodTemplateJson.podTemplateHash(template, 1, GoKubeApiVersion.V0_29));
  }

  @Test
  void floatNumbersAreTakenAsTheApiServerNormalisesThem() {
    // The API server re-encodes 80.0 as 80 and 1.0e3 as 1000, which Go then decodes.
    ObjectNode template =
        (ObjectNode)
            tree(
                "{\"spec\":{\"containers\":[{\"name\":\"a\",\"ports\":[{}],"
                    + "\"resources\":{\"limits\":{\"cpu\":0}}}]}}");
    ObjectNode container = (ObjectNode) template.at("/spec/containers/0");
    ((ObjectNode) container.at("/ports/0")).put("containerPort", 80.0);
    ((ObjectNode) container.at("/resources/limits")).put("cpu", 1.0e3);
    ((ObjectNode) container.at("/resources/limits")).put("memory", 0.5);
    assertEquals(
        "{\"metadata\":{},\"spec\":{\"containers\":[{\"name\":\"a\",\"ports\":[{\"containerPort\":80}],"
            + "\"resources\":{\"limits\":{\"cpu\":\"1k\",\"memory\":\"500m\"}}}]}}",
        new String(GoPodTemplateJson.encode(template), StandardCharsets.UTF_8));
  }

  @Test
  void formatsFloatsLikeGo() {
    assertEquals("0", GoJsonText.formatFloat64(0.0));
    assertEquals("-0", GoJsonText.formatFloat64(-0.0));
    assertEquals("1000", GoJsonText.formatFloat64(1e3));
    assertEquals("0.1", GoJsonText.formatFloat64(0.1));
    assertEquals("0.000001", GoJsonText.formatFloat64(1e-6));
    assertEquals("1e-7", GoJsonText.formatFloat64(1e-7));
    assertEquals("1.5e-7", GoJsonText.formatFloat64(1.5e-7));
    assertEquals("100000000000000000000", GoJsonText.formatFloat64(1e20));
    assertEquals("1e+21", GoJsonText.formatFloat64(1e21));
    assertEquals("-1.2345678901234568e+22", GoJsonText.formatFloat64(-12345678901234567890123.0));
    assertEquals("2e+23", GoJsonText.formatFloat64(2e23));
    assertEquals("0.30000000000000004", GoJsonText.formatFloat64(0.1 + 0.2));
  }

  @ParameterizedTest
  @EnumSource(GoKubeApiVersion.class)
  void canonicalisesQuantitiesLikeGo(GoKubeApiVersion version) {
    List<String> mismatches = new ArrayList<>();
    List<String[]> rows = tsv("expected/" + version.moduleVersion() + "/quantities.tsv");
    assertTrue(rows.size() > 100);
    for (String[] row : rows) {
      String input = row[0];
      String expected = row[1];
      String actual;
      try {
        JsonNode value = tree(input);
        if (value.isTextual()) {
          actual = "\"" + Quantities.canonical(GoJsonText.escapedContent(value.textValue())) + "\"";
        } else if (value.isNumber()) {
          actual = "\"" + Quantities.canonical(input) + "\"";
        } else if (value.isNull()) {
          actual = "\"0\"";
        } else {
          actual = "ERROR";
        }
      } catch (IllegalArgumentException e) {
        actual = "ERROR";
      }
      if (expected.startsWith("ERROR") ? !actual.equals("ERROR") : !expected.equals(actual)) {
        mismatches.add(input + " -> " + actual + ", Go: " + expected);
      }
    }
    assertEquals(List.of(), mismatches);
  }

  @ParameterizedTest
  @EnumSource(GoKubeApiVersion.class)
  void encodesTimesLikeGo(GoKubeApiVersion version) {
    List<String> mismatches = new ArrayList<>();
    for (String[] row : tsv("expected/" + version.moduleVersion() + "/times.tsv")) {
      String input = row[0];
      String expected = row[1];
      String actual;
      try {
        JsonNode value = tree(input);
        if (value.isTextual()) {
          String encoded = GoTime.encode(value.textValue());
          actual = encoded.isEmpty() ? "null" : "\"" + encoded + "\"";
        } else if (value.isNull()) {
          actual = "null";
        } else {
          actual = "ERROR";
        }
      } catch (IllegalArgumentException e) {
        actual = "ERROR";
      }
      if (expected.startsWith("ERROR") ? !actual.equals("ERROR") : !expected.equals(actual)) {
        mismatches.add(input + " -> " + actual + ", Go: " + expected);
      }
    }
    assertEquals(List.of(), mismatches);
  }

  /**
   * Random templates built from the Go types, with unknown fields, nulls, empty values, odd
   * strings, quantities and times mixed in; each line holds the input and Go's bytes or Go's decode
   * error.
   */
  @ParameterizedTest
  @EnumSource(GoKubeApiVersion.class)
  void encodesRandomTemplatesLikeGo(GoKubeApiVersion version) throws IOException {
    String path = "/go-hash/expected/" + version.moduleVersion() + "/random.jsonl.gz";
    List<String> mismatches = new ArrayList<>();
    int cases = 0;
    int errors = 0;
    try (InputStream in = GoPodTemplateJsonTest.class.getResourceAsStream(path);
        BufferedReader lines =
            new BufferedReader(
                new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        cases++;
        JsonNode vector = tree(line);
        String actual;
        try {
          actual =
              new String(
                  GoPodTemplateJson.encode(vector.get("input"), version), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
          actual = "ERROR " + e.getMessage();
        }
        if (vector.has("error")) {
          errors++;
          if (!actual.startsWith("ERROR ")) {
            mismatches.add(
                "line "
                    + cases
                    + ": Go fails ("
                    + vector.get("error").asText()
                    + "), Java gives "
                    + actual);
          }
        } else if (!vector.get("go").asText().equals(actual)) {
          mismatches.add(
              "line " + cases + ":\n  Go:   " + vector.get("go").asText() + "\n  Java: " + actual);
        }
      }
    }
    assertEquals(List.of(), mismatches);
    assertEquals(250, cases);
    assertTrue(errors < cases / 2, "most random templates decode in Go");
  }

  @Test
  void tablesAreRootedAtPodTemplateSpec() {
    Set<String> names = new TreeSet<>();
    for (GoKubeApiVersion version : GoKubeApiVersion.values()) {
      names.add(GoTypes.of(version).root.structName);
    }
    assertEquals(Set.of("k8s.io/api/core/v1.PodTemplateSpec"), names);
  }
}
