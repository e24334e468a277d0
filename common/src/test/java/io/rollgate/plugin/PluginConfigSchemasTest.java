package io.rollgate.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class PluginConfigSchemasTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final PluginConfigSchemas schemas = new PluginConfigSchemas();

  private static JsonNode json(String s) throws Exception {
    return JSON.readTree(s);
  }

  private List<String> problems(String schema, String config, String path) throws Exception {
    return schemas.validate(json(schema), config == null ? null : json(config), path).stream()
        .map(PluginConfigSchemas.Violation::toString)
        .toList();
  }

  @Test
  void nestedArraysAndObjectsGetTheFullPath() throws Exception {
    String schema =
        "{\"type\":\"object\",\"properties\":{\"jobs\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
            + "\"required\":[\"name\"],\"properties\":{\"timeout\":{\"type\":\"integer\",\"minimum\":1}}}},"
            + "\"labels\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}}}";
    assertEquals(
        List.of(
            "c.jobs[1].name: required property 'name' not found",
            "c.jobs[1].timeout: must have a minimum value of 1",
            "c.labels[team/owner]: integer found, string expected"),
        problems(
            schema,
            "{\"jobs\":[{\"name\":\"a\"},{\"timeout\":0}],\"labels\":{\"team/owner\":3}}",
            "c"));
    assertEquals(List.of(), problems(schema, "{\"jobs\":[{\"name\":\"a\",\"timeout\":5}]}", "c"));
  }

  @Test
  void absentConfigIsCheckedAsAnEmptyObject_andAWrongTypeIsReportedAtTheConfigItself()
      throws Exception {
    String schema = "{\"type\":\"object\",\"required\":[\"url\"]}";
    List<PluginConfigSchemas.Violation> v = schemas.validate(json(schema), null, "x.config");
    assertEquals(1, v.size());
    assertEquals("x.config.url", v.get(0).path());
    assertEquals("required", v.get(0).keyword());
    assertNull(v.get(0).valueText());
    assertEquals(
        List.of("x.config: string found, object expected"),
        problems(schema, "\"text\"", "x.config"));
    assertEquals(List.of(), problems("{\"type\":\"object\"}", null, "x.config"));
  }

  @Test
  void olderDraftsNamedInTheSchemaAreHonoured() throws Exception {
    String draft7 =
        "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\","
            + "\"properties\":{\"n\":{\"type\":\"integer\",\"exclusiveMaximum\":10}}}";
    assertEquals(List.of(), schemas.checkSchema(json(draft7), "s"));
    assertEquals(
        List.of("c.n: must have an exclusive maximum value of 10"),
        problems(draft7, "{\"n\":10}", "c"));
  }

  @Test
  void anUnusableSchemaIsRefusedByValidate_andReportedByCheckSchema() throws Exception {
    JsonNode dangling = json("{\"$ref\":\"#/$defs/missing\"}");
    List<PluginConfigSchemas.Violation> v = schemas.checkSchema(dangling, "s");
    assertEquals(1, v.size(), String.valueOf(v));
    assertEquals("s", v.get(0).path());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> schemas.validate(dangling, json("{}"), "c"));
    assertTrue(e.getMessage().startsWith("not a usable JSON Schema: "), e.getMessage());
    List<PluginConfigSchemas.Violation> regex =
        schemas.checkSchema(json("{\"pattern\":\"(\"}"), "s");
    assertEquals(1, regex.size(), String.valueOf(regex));
    assertTrue(regex.get(0).toString().startsWith("s: Unclosed group"), regex.get(0).toString());
  }

  @Test
  void compiledSchemasAreReused_andEqualSchemasGiveEqualAnswers() throws Exception {
    String schema = "{\"type\":\"object\",\"required\":[\"a\"]}";
    for (int i = 0; i < 300; i++) {
      assertEquals(List.of("c.a: required property 'a' not found"), problems(schema, "{}", "c"));
      assertEquals(
          List.of(),
          problems("{\"type\":\"object\",\"maxProperties\":" + (i + 1) + "}", "{}", "c"));
    }
    assertTrue(
        schemas.cachedSchemas() <= PluginConfigSchemas.DEFAULT_CACHE_LIMIT,
        "" + schemas.cachedSchemas());
  }

  @Test
  void eachInstanceKeepsItsOwnBoundedCache() throws Exception {
    PluginConfigSchemas small = new PluginConfigSchemas(2);
    PluginConfigSchemas other = new PluginConfigSchemas();
    for (int i = 0; i < 5; i++) {
      assertEquals(
          List.of(), small.validate(json("{\"maxProperties\":" + (i + 1) + "}"), null, "c"));
      assertTrue(small.cachedSchemas() <= 2, "" + small.cachedSchemas());
    }
    assertEquals(0, other.cachedSchemas());
  }
}
