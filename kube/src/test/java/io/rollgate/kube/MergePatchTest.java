package io.rollgate.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MergePatchTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String[] KEYS = {"a", "b", "c", "d"};

  @Test
  void addsNewKeys() {
    assertPatch("{\"a\":1}", "{\"a\":1,\"b\":\"x\"}", "{\"b\":\"x\"}");
  }

  @Test
  void replacesChangedScalars() {
    assertPatch("{\"a\":1,\"b\":true}", "{\"a\":2,\"b\":false}", "{\"a\":2,\"b\":false}");
    assertPatch("{\"a\":1}", "{\"a\":\"1\"}", "{\"a\":\"1\"}");
  }

  @Test
  void setsRemovedKeysToNull() {
    assertPatch("{\"a\":1,\"b\":{\"c\":2}}", "{\"a\":1}", "{\"b\":null}");
  }

  @Test
  void diffsNestedObjectsKeyByKey() {
    assertPatch(
        "{\"status\":{\"phase\":\"Progressing\",\"replicas\":3,\"canary\":{\"weights\":{\"canary\":{\"weight\":10}}}}}",
        "{\"status\":{\"phase\":\"Healthy\",\"replicas\":3,\"canary\":{\"weights\":{\"canary\":{\"weight\":10}}}}}",
        "{\"status\":{\"phase\":\"Healthy\"}}");
    assertPatch("{\"m\":{\"x\":1,\"y\":2}}", "{\"m\":{\"x\":1}}", "{\"m\":{\"y\":null}}");
  }

  @Test
  void replacesArraysWhole() {
    assertPatch(
        "{\"conditions\":[{\"type\":\"A\",\"status\":\"True\"},{\"type\":\"B\"}]}",
        "{\"conditions\":[{\"type\":\"A\",\"status\":\"False\"},{\"type\":\"B\"}]}",
        "{\"conditions\":[{\"type\":\"A\",\"status\":\"False\"},{\"type\":\"B\"}]}");
    assertPatch("{\"l\":[1,2]}", "{\"l\":[]}", "{\"l\":[]}");
    assertPatch("{\"l\":[1,2]}", "{\"l\":[1,2]}", "{}");
  }

  @Test
  void replacesValuesWhoseTypeChanges() {
    assertPatch("{\"a\":{\"x\":1}}", "{\"a\":[1]}", "{\"a\":[1]}");
    assertPatch("{\"a\":\"s\"}", "{\"a\":{\"x\":1}}", "{\"a\":{\"x\":1}}");
    assertPatch("{\"a\":{\"x\":1}}", "{\"a\":5}", "{\"a\":5}");
  }

  @Test
  void returnsEmptyPatch_whenDocumentsAreEqual() {
    String doc = "{\"a\":1,\"b\":{\"c\":[1,{\"d\":null}],\"e\":\"f\"},\"g\":null}";
    assertPatch(doc, doc, "{}");
    assertPatch("{}", "{}", "{}");
  }

  @Test
  void treatsNullValuesAsAbsent() {
    // null in the target removes an existing key, and is not sent for a key that is already absent
    // or null
    assertPatch("{\"a\":1}", "{\"a\":null}", "{\"a\":null}");
    assertPatch("{}", "{\"a\":null}", "{}");
    assertPatch("{\"a\":null}", "{}", "{}");
    assertPatch("{\"a\":null}", "{\"a\":null}", "{}");
    assertPatch("{\"a\":null}", "{\"a\":1}", "{\"a\":1}");
  }

  @Test
  void treatsNullBeforeAsEmptyDocument() {
    assertEquals(json("{\"a\":{\"b\":1}}"), MergePatch.diff(null, json("{\"a\":{\"b\":1}}")));
    assertEquals(json("{}"), MergePatch.diff(null, json("{}")));
  }

  @Test
  void turnsBeforeIntoAfter_forRandomDocuments() {
    for (long n = 1; n <= 2_000; n++) {
      final long seed = n;
      Random random = new Random(seed);
      ObjectNode a = randomObject(random, 3);
      ObjectNode b = random.nextBoolean() ? randomObject(random, 3) : mutate(random, a, 3);
      ObjectNode patch = MergePatch.diff(a, b);
      JsonNode result = apply(a.deepCopy(), patch);
      assertEquals(
          withoutNulls(b),
          withoutNulls(result),
          () -> "seed=" + seed + " a=" + a + " b=" + b + " patch=" + patch);
      if (withoutNulls(a).equals(withoutNulls(b))) {
        assertTrue(patch.isEmpty(), "equal documents must give an empty patch: a=" + a + " b=" + b);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------------------------

  private static void assertPatch(String before, String after, String expected) {
    ObjectNode patch = MergePatch.diff(json(before), json(after));
    assertEquals(json(expected), patch, () -> "diff(" + before + ", " + after + ")");
    assertEquals(
        withoutNulls(json(after)), withoutNulls(apply(json(before), patch)), "patch must apply");
  }

  private static JsonNode json(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** RFC 7386 section 2, MergePatch(Target, Patch). */
  private static JsonNode apply(JsonNode target, JsonNode patch) {
    if (!patch.isObject()) {
      return patch;
    }
    ObjectNode result =
        target != null && target.isObject() ? (ObjectNode) target.deepCopy() : NODES.objectNode();
    for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getValue().isNull()) {
        result.remove(e.getKey());
      } else {
        result.set(e.getKey(), apply(result.get(e.getKey()), e.getValue()));
      }
    }
    return result;
  }

  /**
   * Drops object members whose value is null, recursively through objects (arrays are values and
   * kept as they are).
   */
  private static JsonNode withoutNulls(JsonNode node) {
    if (!node.isObject()) {
      return node;
    }
    ObjectNode out = NODES.objectNode();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isNull()) {
        out.set(e.getKey(), withoutNulls(e.getValue()));
      }
    }
    return out;
  }

  private static ObjectNode randomObject(Random random, int depth) {
    ObjectNode o = NODES.objectNode();
    for (String k : KEYS) {
      if (random.nextInt(3) > 0) {
        o.set(k, randomValue(random, depth - 1));
      }
    }
    return o;
  }

  private static JsonNode randomValue(Random random, int depth) {
    int kind = random.nextInt(depth > 0 ? 7 : 5);
    switch (kind) {
      case 0:
        return NODES.nullNode();
      case 1:
        return NODES.numberNode(random.nextInt(3));
      case 2:
        return NODES.textNode(KEYS[random.nextInt(2)]);
      case 3:
        return NODES.booleanNode(random.nextBoolean());
      case 4:
        ArrayNode arr = NODES.arrayNode();
        for (int i = random.nextInt(3); i > 0; i--) {
          arr.add(
              depth > 0 && random.nextBoolean()
                  ? randomObject(random, depth - 1)
                  : randomValue(random, 0));
        }
        return arr;
      default:
        return randomObject(random, depth);
    }
  }

  /**
   * A copy of {@code o} with a few keys removed, nulled, changed or added, so that the two
   * documents overlap.
   */
  private static ObjectNode mutate(Random random, ObjectNode o, int depth) {
    ObjectNode copy = o.deepCopy();
    List<String> keys = new ArrayList<>();
    copy.fieldNames().forEachRemaining(keys::add);
    for (String k : keys) {
      JsonNode v = copy.get(k);
      switch (random.nextInt(6)) {
        case 0:
          copy.remove(k);
          break;
        case 1:
          copy.putNull(k);
          break;
        case 2:
          copy.set(k, randomValue(random, depth - 1));
          break;
        case 3:
          if (v.isObject()) {
            copy.set(k, mutate(random, (ObjectNode) v, depth - 1));
          }
          break;
        default:
          break;
      }
    }
    if (random.nextInt(3) == 0) {
      copy.set(KEYS[random.nextInt(KEYS.length)], randomValue(random, depth - 1));
    }
    return copy;
  }
}
