package io.rollgate.controller.rollout;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.plugin.PluginConfigSchemas;
import java.util.List;
import java.util.Optional;

/**
 * The check of a canary {@code plugin} step's config against its plugin's registered {@code
 * configSchema}, before the first call (docs/plugins.md, "Configuration schema"): the same
 * validator and messages as the admission webhook.
 */
public final class StepConfigSchemas {

  /** Owns the compiled-schema cache; one per reconciler. */
  private final PluginConfigSchemas schemas = new PluginConfigSchemas();

  /**
   * Validates a configuration.
   *
   * @param schema the JSON Schema
   * @param config the configuration, or null when absent (checked as an empty object, so required
   *     properties are reported)
   * @param field the field path of the configuration, for example {@code
   *     spec.strategy.canary.steps[1].plugin.config}
   * @return the first problem as {@code <field path>: <reason>}, or empty when the configuration
   *     matches
   */
  public Optional<String> check(JsonNode schema, JsonNode config, String field) {
    List<PluginConfigSchemas.Violation> problems;
    try {
      problems = schemas.validate(schema, config, field);
    } catch (IllegalArgumentException e) {
      return Optional.of(field + ": the plugin's configSchema is " + e.getMessage());
    }
    return problems.stream().findFirst().map(PluginConfigSchemas.Violation::toString);
  }
}
