package io.rollgate.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.Rollout;
import io.rollgate.plugin.PluginConfigSchemas;
import io.rollgate.plugin.PluginKind;
import io.rollgate.plugin.PluginRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks that a Rollout's plugin references name plugins of the registry ({@code
 * argo-rollouts-config}): canary {@code steps[].plugin.name} must be a registered step plugin and
 * each key of {@code trafficRouting.plugins} a registered traffic-router plugin
 * (docs/compatibility.md §10.1, §11). Names must have the form {@code <org>/<name>}.
 *
 * <p>When the registered plugin declares a {@code configSchema}, its configuration ({@code
 * steps[i].plugin.config}, {@code trafficRouting.plugins[<name>]}) must match it ({@link
 * PluginConfigSchemas}; docs/plugins.md "Configuration schema"); each mismatch is an error naming
 * the full field path, for example {@code spec.strategy.canary.steps[2].plugin.config.url: Required
 * value: required property 'url' not found}.
 *
 * <p>When the registry cannot be read, neither references nor configurations can be checked: that
 * is a warning, never a denial.
 */
public final class PluginReferenceValidator {

  /**
   * The outcome of a check.
   *
   * @param errors problems that deny the object
   * @param warnings admission warnings (each starting with a field path)
   */
  public record Result(List<FieldError> errors, List<String> warnings) {}

  private PluginReferenceValidator() {}

  /**
   * Checks the Rollout's plugin references.
   *
   * @param rollout the Rollout
   * @param registry the registry, or null when it could not be read (every reference then becomes a
   *     warning)
   * @param where where the registry lives, for messages, for example {@code
   *     argo-rollouts/argo-rollouts-config}
   * @param schemas the checker of configurations against the registered {@code configSchema}s (its
   *     cache belongs to the caller)
   * @return the errors and warnings; both empty when the Rollout uses no plugin
   */
  public static Result validate(
      Rollout rollout, PluginRegistry registry, String where, PluginConfigSchemas schemas) {
    List<FieldError> errors = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    CanaryStrategy canary =
        rollout.getSpec() == null || rollout.getSpec().getStrategy() == null
            ? null
            : rollout.getSpec().getStrategy().getCanary();
    if (canary == null) {
      return new Result(errors, warnings);
    }
    if (canary.getSteps() != null) {
      for (int i = 0; i < canary.getSteps().size(); i++) {
        CanaryStep step = canary.getSteps().get(i);
        if (step != null && step.getPlugin() != null) {
          check(
              "spec.strategy.canary.steps[" + i + "].plugin.name",
              step.getPlugin().getName(),
              PluginKind.STEP,
              registry,
              where,
              errors,
              warnings);
        }
      }
    }
    if (canary.getTrafficRouting() != null && canary.getTrafficRouting().getPlugins() != null) {
      for (Map.Entry<String, JsonNode> e : canary.getTrafficRouting().getPlugins().entrySet()) {
        check(
            "spec.strategy.canary.trafficRouting.plugins",
            e.getKey(),
            PluginKind.TRAFFIC_ROUTER,
            registry,
            where,
            errors,
            warnings);
      }
    }
    if (registry != null) {
      PluginConfigSchemas.RolloutResult configs = schemas.validate(rollout, registry);
      for (PluginConfigSchemas.Violation v : configs.violations()) {
        errors.add(toFieldError(v));
      }
      warnings.addAll(configs.unchecked());
    }
    return new Result(errors, warnings);
  }

  /**
   * Converts a configuration problem into a field error: a missing property is a {@code Required
   * value} at the property's path, anything else an {@code Invalid value} showing the offending
   * value.
   *
   * @param v the problem
   * @return the field error
   */
  public static FieldError toFieldError(PluginConfigSchemas.Violation v) {
    String text = v.valueText();
    return text == null
        ? FieldError.required(v.path(), v.message())
        : new FieldError(v.path(), FieldError.Type.INVALID, text, v.message());
  }

  private static void check(
      String path,
      String name,
      PluginKind kind,
      PluginRegistry registry,
      String where,
      List<FieldError> errors,
      List<String> warnings) {
    if (name == null || name.isEmpty()) {
      errors.add(FieldError.required(path, "plugin name is required"));
      return;
    }
    if (!PluginRegistry.NAME.matcher(name).matches()) {
      errors.add(
          FieldError.invalid(
              path, name, "plugin name must be in the format of <namespace>/<name>"));
      return;
    }
    if (registry == null) {
      warnings.add(
          path
              + ": plugin \""
              + name
              + "\" not checked: the plugin registry "
              + where
              + " cannot be read");
    } else if (registry.find(kind, name).isEmpty()) {
      List<String> known = registry.names(kind);
      errors.add(
          FieldError.invalid(
              path,
              name,
              "not a registered "
                  + kind.key()
                  + " entry in "
                  + where
                  + (known.isEmpty()
                      ? " (none registered)"
                      : " (registered: " + String.join(", ", known) + ")")));
    }
  }
}
