package io.rollgate.controller.analysis.provider.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonPathTest {

  static final ObjectMapper JSON = new ObjectMapper();

  static Object doc(String json) throws Exception {
    return JSON.readValue(json, Object.class);
  }

  static final String DOC =
      "{\"data\":{\"ok\":true,\"rate\":0.99,\"name\":\"web\"},"
          + "\"items\":[{\"name\":\"a\",\"v\":1,\"status\":\"ok\"},{\"name\":\"b\",\"v\":2,\"status\":\"bad\"},"
          + "{\"name\":\"c\",\"v\":3,\"status\":\"ok\"}],"
          + "\"weird key\":{\"x.y\":7}}";

  @Test
  void selectsFieldsIndexesAndTheWholeDocument() throws Exception {
    Object d = doc(DOC);
    assertEquals(List.of(true), JsonPath.parse("{$.data.ok}").find(d));
    assertEquals(List.of(true), JsonPath.parse("{.data.ok}").find(d));
    assertEquals(List.of(0.99), JsonPath.parse("{$.data.rate}").find(d));
    assertEquals(List.of(d), JsonPath.parse("{$}").find(d));
    assertEquals(List.of(d), JsonPath.parse(null).find(d));
    assertEquals(List.of(d), JsonPath.parse("{$.}").find(d));
    assertEquals(List.of("b"), JsonPath.parse("{$.items[1].name}").find(d));
    assertEquals(List.of("c"), JsonPath.parse("{$.items[-1].name}").find(d));
    assertEquals(List.of(7), JsonPath.parse("{$['weird key'][\"x.y\"]}").find(d));
    assertTrue(JsonPath.parse("{$.items[0].v}").definite());
    assertFalse(JsonPath.parse("{$.items[*].v}").definite());
  }

  @Test
  void selectsSeveralValuesWithWildcardsSlicesUnionsRecursionAndFilters() throws Exception {
    Object d = doc(DOC);
    assertEquals(List.of(1, 2, 3), JsonPath.parse("{$.items[*].v}").find(d));
    assertEquals(List.of(1, 2), JsonPath.parse("{$.items[0:2].v}").find(d));
    assertEquals(List.of(1, 3), JsonPath.parse("{$.items[0,2].v}").find(d));
    assertEquals(List.of(true, 0.99), JsonPath.parse("{$.data['ok','rate']}").find(d));
    assertEquals(List.of("web", "a", "b", "c"), JsonPath.parse("{..name}").find(d));
    assertEquals(
        List.of("a", "c"), JsonPath.parse("{$.items[?(@.status == \"ok\")].name}").find(d));
    assertEquals(List.of("b", "c"), JsonPath.parse("{$.items[?(@.v > 1)].name}").find(d));
    assertEquals(
        List.of(Map.of("name", "a", "v", 1, "status", "ok")),
        JsonPath.parse("{$.items[?(@.v<=1)]}").find(d));
    assertEquals(3, JsonPath.parse("{$.items[?(@.status)]}").find(d).size());
  }

  @Test
  void missingFieldsAndIndexesAreErrorsNamedAsKubectlNamesThem() throws Exception {
    Object d = doc(DOC);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> JsonPath.parse("{$.data.missing}").find(d));
    assertEquals("missing is not found", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> JsonPath.parse("{$.items[5]}").find(d));
    assertEquals("array index out of bounds: index 5, length 3", e.getMessage());
    assertEquals(List.of(), JsonPath.parse("{$.items[?(@.v > 10)]}").find(d));
  }

  @Test
  void rejectsTemplatesItCannotEvaluate() {
    assertThrows(IllegalArgumentException.class, () -> JsonPath.parse("$.data.ok"));
    assertThrows(IllegalArgumentException.class, () -> JsonPath.parse("{.a} {.b}"));
    assertThrows(IllegalArgumentException.class, () -> JsonPath.parse("{$.items[}"));
    assertThrows(IllegalArgumentException.class, () -> JsonPath.parse("{$.items[?(x)]}"));
    assertThrows(
        IllegalArgumentException.class, () -> JsonPath.parse("{range .items[*]}{.name}{end}"));
  }
}
