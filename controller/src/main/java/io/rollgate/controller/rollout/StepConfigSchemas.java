package io.rollgate.controller.rollout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.List;
import java.util.Optional;

/**
 * Checks a canary step's {@code plugin.config} against the JSON Schema (draft 2020-12) of the plugin's registration
 * ({@code configSchema} in {@code argo-rollouts-config}, docs/plugins.md "Configuration schema") before the first
 * call, naming the failing field as the admission webhook does.
 */
final class StepConfigSchemas {

  private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

  private StepConfigSchemas() {}

  /**
   * Validates a configuration.
   *
   * @param schema the JSON Schema
   * @param config the configuration, or null when absent (checked as JSON {@code null})
   * @param field the field path of the configuration, for example {@code spec.strategy.canary.steps[1].plugin.config}
   * @return the first problem as {@code <field path>: <reason>}, or empty when the configuration matches
   */
  static Optional<String> check(JsonNode schema, JsonNode config, String field) {
    Schema compiled;
    try {
      compiled = REGISTRY.getSchema(schema);
    } catch (RuntimeException e) {
      return Optional.of(field + ": the plugin's configSchema is not a valid JSON Schema: " + e.getMessage());
    }
    List<Error> errors;
    try {
      errors = compiled.validate(config == null ? NullNode.getInstance() : config);
    } catch (RuntimeException e) {
      return Optional.of(field + ": cannot be checked against the plugin's configSchema: " + e.getMessage());
    }
    if (errors.isEmpty()) {
      return Optional.empty();
    }
    Error first = errors.get(0);
    return Optional.of(describe(field, first));
  }

  private static String describe(String field, Error e) {
    String path = field + suffix(e.getInstanceLocation() == null ? "$" : e.getInstanceLocation().toString());
    String message = e.getMessage() == null ? e.getKeyword() : e.getMessage();
    if ("required".equals(e.getKeyword()) && e.getProperty() != null) {
      return path + "." + e.getProperty() + ": required property is missing";
    }
    // The library's messages start with the instance location ("$.url: ..."); the path is given once, in full.
    int colon = message.indexOf(": ");
    if ((message.startsWith("$") || message.startsWith("/")) && colon > 0) {
      message = message.substring(colon + 2);
    }
    return path + ": " + message;
  }

  /** The instance location ({@code /a/b/0} as a JSON Pointer, or {@code $.a.b[0]}) as a field-path suffix. */
  private static String suffix(String location) {
    if (location.isEmpty() || location.equals("$") || location.equals("/")) {
      return "";
    }
    if (location.startsWith("$")) {
      return location.substring(1);
    }
    StringBuilder sb = new StringBuilder();
    for (String part : location.substring(location.startsWith("/") ? 1 : 0).split("/", -1)) {
      String token = part.replace("~1", "/").replace("~0", "~");
      if (!token.isEmpty() && token.chars().allMatch(Character::isDigit)) {
        sb.append('[').append(token).append(']');
      } else {
        sb.append('.').append(token);
      }
    }
    return sb.toString();
  }
}
