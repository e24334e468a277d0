package io.rollgate.api;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

/**
 * JSON tree equality ({@link JsonNode#equals}) on the wire form, with a readable list of the
 * differing JSON pointers. Both trees are re-read from their text first, because in memory Jackson
 * tells an {@code int} node from a {@code long} node of the same value (a {@code Long} field),
 * while JSON text has just numbers.
 */
final class JsonAssert {

  private JsonAssert() {}

  static void assertSameJson(JsonNode expectedTree, JsonNode actualTree) {
    JsonNode expected = reread(expectedTree);
    JsonNode actual = reread(actualTree);
    if (expected.equals(actual)) {
      return;
    }
    List<String> differences = new ArrayList<>();
    diff("", expected, actual, differences);
    fail("JSON differs at:\n  " + String.join("\n  ", differences));
  }

  private static JsonNode reread(JsonNode tree) {
    try {
      return ModelJson.mapper().readTree(ModelJson.toJson(tree));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void diff(String pointer, JsonNode expected, JsonNode actual, List<String> out) {
    if (expected.equals(actual)) {
      return;
    }
    if (expected.isObject() && actual.isObject()) {
      TreeSet<String> names = new TreeSet<>();
      expected.fieldNames().forEachRemaining(names::add);
      actual.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        String child = pointer + "/" + name;
        if (!actual.has(name)) {
          out.add(child + " missing (expected " + expected.get(name) + ")");
        } else if (!expected.has(name)) {
          out.add(child + " unexpected " + actual.get(name));
        } else {
          diff(child, expected.get(name), actual.get(name), out);
        }
      }
    } else if (expected.isArray() && actual.isArray() && expected.size() == actual.size()) {
      Iterator<JsonNode> e = expected.elements();
      Iterator<JsonNode> a = actual.elements();
      for (int i = 0; e.hasNext(); i++) {
        diff(pointer + "/" + i, e.next(), a.next(), out);
      }
    } else {
      out.add(
          pointer
              + " expected "
              + expected
              + " ("
              + expected.getNodeType()
              + ") but was "
              + actual
              + " ("
              + actual.getNodeType()
              + ")");
    }
  }
}
