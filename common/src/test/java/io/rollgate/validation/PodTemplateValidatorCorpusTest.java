package io.rollgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.rollgate.testing.Corpus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The pod template checks give exactly the recorded errors, in the recorded order, for a corpus of
 * templates drawn by a seeded generator ({@code pod-templates-corpus.jsonl}; see {@link Corpus} for
 * how it is recorded). Quantities are written as fabric8 holds them, {@code {"amount": ...,
 * "format": ...}}, since the checks read the two parts without joining them.
 */
class PodTemplateValidatorCorpusTest {

  private static final String CORPUS = "validation/pod-templates-corpus.jsonl";

  /**
   * Templates drawn; those kept are the first {@link #PLAIN} and every later one that shows an
   * error not seen before (see {@link Corpus#shape}).
   */
  private static final int DRAWN = 20_000;

  private static final int PLAIN = 250;
  private static final int MAX_ANNOTATIONS_BYTES = 256 * 1024;
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .setDefaultPropertyInclusion(
              JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.ALWAYS))
          .addMixIn(Quantity.class, SplitQuantity.class);

  private static final String[] KEYS = {
    "app",
    "tier",
    "app.kubernetes.io/name",
    "example.com/team",
    "Example.com/x",
    "/x",
    "a/",
    "a/b/c",
    "-bad",
    "bad-",
    "ok_key.v1",
    "",
    "x".repeat(64),
    "x".repeat(63),
    "a".repeat(254) + "/n",
    "a".repeat(253) + "/n",
    "a..b/c",
    "é",
    "helm.sh/chart"
  };
  private static final String[] VALUES = {
    "web", "", "v1.2.3", "-v", "v-", "x".repeat(64), "x".repeat(63), "a b", null, "A_b.C", "é"
  };
  private static final String[] CONTAINER_NAMES = {
    "web", "sidecar", "init", "Web", "-x", "", null, "a".repeat(64), "a".repeat(63), "web"
  };
  private static final String[] PORT_NAMES = {
    "http",
    "metrics",
    "http",
    "grpc-web",
    "a--b",
    "-http",
    "HTTP",
    "123",
    "abcdefghijklmnop",
    "abcdefghijklmno",
    "",
    null,
    "h"
  };
  private static final Integer[] PORTS = {80, 8080, 0, -1, 65535, 65536, null};
  private static final Integer[] HOST_PORTS = {null, null, 0, -1, 80, 65536};
  private static final String[] PROTOCOLS = {null, "TCP", "UDP", "SCTP", "tcp", "HTTP"};
  private static final String[] RESOURCES = {
    "cpu",
    "memory",
    "ephemeral-storage",
    "storage",
    "hugepages-2Mi",
    "example.com/gpu",
    "gpu",
    "Bad/x",
    "nvidia.com/gpu",
    "-x/y"
  };
  private static final String[] QUANTITIES = {
    "1",
    "100m",
    "500m",
    "0.5",
    "2",
    "128Mi",
    "1Gi",
    "1.5Gi",
    "256M",
    "1e3",
    "1E-3",
    "-1",
    "-0",
    "0",
    "1x",
    "",
    "1Ei",
    "1E",
    "1.",
    ".5",
    "0.0001",
    "9999999999999999999",
    "3k",
    "1000m",
    "2000000000Pi",
    "abc"
  };

  @Test
  @DisabledIfSystemProperty(named = Corpus.WRITE, matches = "true")
  void reportsTheRecordedErrors() throws Exception {
    List<JsonNode> corpus = Corpus.read(CORPUS);
    int withErrors = 0;
    for (JsonNode line : corpus) {
      PodTemplateSpec template = JSON.treeToValue(line.get("template"), PodTemplateSpec.class);
      assertEquals(line.get("outcome"), outcome(template), () -> line.get("template").toString());
      assertEquals(
          metadataPart(line.get("outcome")),
          metadataOutcome(template),
          () -> line.get("template").toString());
      if (!line.get("outcome").isEmpty()) {
        withErrors++;
      }
    }
    assertTrue(
        withErrors > corpus.size() / 20 && withErrors < corpus.size(),
        "valid and invalid templates: " + withErrors);
  }

  @Test
  @EnabledIfSystemProperty(named = Corpus.WRITE, matches = "true")
  void recordsTheCorpus() throws Exception {
    Random random = new Random(23);
    Set<String> seen = new HashSet<>();
    List<ObjectNode> lines = new ArrayList<>();
    for (int i = 0; i < DRAWN; i++) {
      PodTemplateSpec template = template(random);
      JsonNode outcome = outcome(template);
      boolean fresh = false;
      for (JsonNode error : outcome) {
        fresh |= seen.add(Corpus.shape(error.asText()));
      }
      if (!fresh && i >= PLAIN) {
        continue;
      }
      JsonNode written = JSON.valueToTree(template);
      PodTemplateSpec read = JSON.treeToValue(written, PodTemplateSpec.class);
      assertEquals(outcome, outcome(read), "the template reads back as it was drawn: " + written);
      lines.add(
          JSON.createObjectNode().<ObjectNode>set("template", written).set("outcome", outcome));
    }
    Corpus.write(CORPUS, lines);
  }

  /**
   * The total size of annotations is counted in UTF-8 bytes, as the JDK encodes the keys and values
   * (a surrogate without its pair is one byte, {@code ?}); more than 256 KiB is refused.
   */
  @Test
  void countsAnnotationBytesAsUtf8() {
    Random random = new Random(29);
    String alphabet = "aé€\ud83d\ude00\ud800\udc00\ud800x\udc00";
    int refused = 0;
    for (int i = 0; i < 20_000; i++) {
      Map<String, String> annotations = new LinkedHashMap<>();
      int n = random.nextInt(3);
      for (int k = 0; k < n; k++) {
        annotations.put("a" + k, text(random, alphabet, random.nextInt(40) == 0 ? 90_000 : 8));
      }
      long bytes = 0;
      for (Map.Entry<String, String> e : annotations.entrySet()) {
        bytes += e.getKey().getBytes(StandardCharsets.UTF_8).length;
        bytes += e.getValue().getBytes(StandardCharsets.UTF_8).length;
      }
      List<FieldError> expected = new ArrayList<>();
      if (bytes > MAX_ANNOTATIONS_BYTES) {
        expected.add(
            FieldError.invalid(
                "a", bytes + " bytes", "may not be more than 262144 bytes in total"));
        refused++;
      }
      List<FieldError> actual = new ArrayList<>();
      PodTemplateValidator.validateAnnotations("a", annotations, actual);
      assertEquals(expected, actual);
    }
    assertTrue(refused > 0, "some annotations were too large");
  }

  @Test
  void refusesAnnotationsOfMoreThan256KiB() {
    List<FieldError> errors = new ArrayList<>();
    PodTemplateValidator.validateAnnotations(
        "a", Map.of("k", "x".repeat(MAX_ANNOTATIONS_BYTES - 1)), errors);
    assertEquals(List.of(), errors, "exactly 256 KiB");
    PodTemplateValidator.validateAnnotations(
        "a", Map.of("k", "é".repeat(MAX_ANNOTATIONS_BYTES / 2)), errors);
    assertEquals(
        List.of(
            FieldError.invalid("a", "262145 bytes", "may not be more than 262144 bytes in total")),
        errors,
        "é is two bytes");
    errors.clear();
    String pairsAndALoneSurrogate =
        "\ud83d\ude00".repeat(MAX_ANNOTATIONS_BYTES / 4 - 1) + "\ud800" + "xx";
    PodTemplateValidator.validateAnnotations("a", Map.of("k", pairsAndALoneSurrogate), errors);
    assertEquals(List.of(), errors, "a surrogate pair is four bytes, a lone surrogate one");
    PodTemplateValidator.validateAnnotations(
        "a", Map.of("k", pairsAndALoneSurrogate + "x"), errors);
    assertEquals(
        List.of(
            FieldError.invalid("a", "262145 bytes", "may not be more than 262144 bytes in total")),
        errors);
  }

  private static PodTemplateSpec template(Random random) {
    PodTemplateSpec t = new PodTemplateSpec();
    if (random.nextInt(10) != 0) {
      ObjectMeta meta = new ObjectMeta();
      meta.setLabels(random.nextInt(5) == 0 ? null : map(random, KEYS, VALUES));
      meta.setAnnotations(random.nextInt(3) == 0 ? null : map(random, KEYS, VALUES));
      t.setMetadata(meta);
    }
    if (random.nextInt(10) == 0) {
      return t;
    }
    PodSpec spec = new PodSpec();
    spec.setInitContainers(random.nextInt(3) == 0 ? containers(random) : null);
    spec.setContainers(random.nextInt(10) == 0 ? null : containers(random));
    t.setSpec(spec);
    return t;
  }

  private static List<Container> containers(Random random) {
    List<Container> list = new ArrayList<>();
    int n = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      if (random.nextInt(15) == 0) {
        list.add(null);
        continue;
      }
      Container c = new Container();
      c.setName(pick(random, CONTAINER_NAMES));
      c.setImage(random.nextInt(8) == 0 ? (random.nextBoolean() ? null : " ") : "nginx");
      if (random.nextInt(3) != 0) {
        List<ContainerPort> ports = new ArrayList<>();
        int m = random.nextInt(random.nextInt(6) == 0 ? 14 : 4);
        for (int j = 0; j < m; j++) {
          if (random.nextInt(15) == 0) {
            ports.add(null);
            continue;
          }
          ContainerPort port = new ContainerPort();
          port.setName(pick(random, PORT_NAMES));
          port.setContainerPort(pick(random, PORTS));
          port.setHostPort(pick(random, HOST_PORTS));
          port.setProtocol(pick(random, PROTOCOLS));
          ports.add(port);
        }
        c.setPorts(ports);
      }
      if (random.nextInt(4) != 0) {
        ResourceRequirements r = new ResourceRequirements();
        r.setLimits(random.nextInt(4) == 0 ? null : quantities(random));
        r.setRequests(random.nextInt(4) == 0 ? null : quantities(random));
        c.setResources(r);
      }
      list.add(c);
    }
    return list;
  }

  private static Map<String, Quantity> quantities(Random random) {
    Map<String, Quantity> map = new LinkedHashMap<>();
    int n = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      String text = pick(random, QUANTITIES);
      int cut = random.nextInt(text.length() + 1);
      Quantity q = new Quantity();
      q.setAmount(random.nextInt(20) == 0 ? null : text.substring(0, cut));
      q.setFormat(random.nextInt(20) == 0 ? null : text.substring(cut));
      map.put(pick(random, RESOURCES), random.nextInt(25) == 0 ? null : q);
    }
    return map;
  }

  private static Map<String, String> map(Random random, String[] keys, String[] values) {
    Map<String, String> map = new LinkedHashMap<>();
    int n = random.nextInt(5);
    for (int i = 0; i < n; i++) {
      map.put(pick(random, keys), pick(random, values));
    }
    return map;
  }

  private static <T> T pick(Random random, T[] values) {
    return values[random.nextInt(values.length)];
  }

  private static String text(Random random, String alphabet, int n) {
    StringBuilder b = new StringBuilder();
    for (int k = 0; k < n; k++) {
      b.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return b.toString();
  }

  private static JsonNode outcome(PodTemplateSpec template) {
    return Corpus.outcome(
        errors -> PodTemplateValidator.validate("spec.template", template, errors));
  }

  /** The metadata checks alone, as Rollouts use them for canary and blue-green metadata. */
  private static JsonNode metadataOutcome(PodTemplateSpec template) {
    return Corpus.outcome(
        errors ->
            PodTemplateValidator.validateMetadata(
                "spec.template.metadata", template.getMetadata(), errors));
  }

  /** The errors of a template's outcome that concern its metadata (they come first). */
  private static JsonNode metadataPart(JsonNode outcome) {
    if (outcome.has("thrown")) {
      return outcome;
    }
    ArrayNode part = JSON.createArrayNode();
    for (JsonNode error : outcome) {
      if (error.asText().startsWith("spec.template.metadata.")) {
        part.add(error);
      }
    }
    return part;
  }

  /** Writes a {@link Quantity} as its two parts, as they were drawn, and reads it back so. */
  @JsonSerialize(using = SplitQuantity.Writer.class)
  @JsonDeserialize(using = SplitQuantity.Reader.class)
  private abstract static class SplitQuantity {

    static final class Writer extends JsonSerializer<Quantity> {
      @Override
      public void serialize(Quantity q, JsonGenerator out, SerializerProvider provider)
          throws IOException {
        out.writeStartObject();
        if (q.getAmount() != null) {
          out.writeStringField("amount", q.getAmount());
        }
        if (q.getFormat() != null) {
          out.writeStringField("format", q.getFormat());
        }
        out.writeEndObject();
      }
    }

    static final class Reader extends JsonDeserializer<Quantity> {
      @Override
      public Quantity deserialize(JsonParser in, DeserializationContext context)
          throws IOException {
        JsonNode node = in.readValueAsTree();
        Quantity q = new Quantity();
        q.setAmount(node.has("amount") ? node.get("amount").asText() : null);
        q.setFormat(node.has("format") ? node.get("format").asText() : null);
        return q;
      }
    }
  }
}
