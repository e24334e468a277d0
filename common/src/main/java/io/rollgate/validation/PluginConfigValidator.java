package io.rollgate.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.plugin.PluginKind;
import io.rollgate.plugin.PluginRegistry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks the plugin registry ConfigMap {@code argo-rollouts-config} (argo-spec.md 10.1): each of
 * {@code stepPlugins}, {@code trafficRouterPlugins} and {@code metricProviderPlugins} is a YAML list of objects with
 * a {@code name} of the form {@code <org>/<name>}, unique within its list; a {@code location} with scheme
 * {@code file://}, {@code http://} or {@code https://}; an optional {@code sha256} of 64 hex digits; optional
 * {@code args} (strings) and {@code disabled} (a boolean, step plugins only). Argo Rollouts fails at start on most of
 * these; refusing them on apply keeps a broken registry out of the cluster.
 *
 * <p>Paths are {@code data.<key>[<index>].<field>}. Other keys of the ConfigMap are not checked.
 */
public final class PluginConfigValidator {

  private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");
  private static final Set<String> FIELDS = Set.of("name", "location", "sha256", "args", "disabled", "headersFrom");

  private PluginConfigValidator() {}

  /**
   * Validates the ConfigMap's data.
   *
   * @param data the ConfigMap's {@code data}, or null
   * @return every problem found; empty when valid
   */
  public static List<FieldError> validate(Map<String, String> data) {
    List<FieldError> errors = new ArrayList<>();
    if (data == null) {
      return errors;
    }
    for (PluginKind kind : PluginKind.values()) {
      String yaml = data.get(kind.key());
      if (yaml == null || yaml.isBlank()) {
        continue;
      }
      String path = "data." + kind.key();
      JsonNode list;
      try {
        list = PluginRegistry.readTree(yaml);
      } catch (IOException e) {
        errors.add(FieldError.invalid(path, abbreviate(yaml), "not valid YAML: " + firstLine(e.getMessage())));
        continue;
      }
      if (list == null || list.isNull()) {
        continue;
      }
      if (!list.isArray()) {
        errors.add(FieldError.invalid(path, abbreviate(yaml), "must be a YAML list of plugins"));
        continue;
      }
      Map<String, Integer> seen = new HashMap<>();
      for (int i = 0; i < list.size(); i++) {
        validateItem(kind, path + "[" + i + "]", list.get(i), seen, i, errors);
      }
    }
    return errors;
  }

  private static void validateItem(
      PluginKind kind, String p, JsonNode item, Map<String, Integer> seen, int index, List<FieldError> errors) {
    if (!item.isObject()) {
      errors.add(FieldError.invalid(p, item.toString(), "must be an object with name and location"));
      return;
    }
    JsonNode name = item.get("name");
    if (name == null || name.isNull() || name.asText().isEmpty()) {
      errors.add(FieldError.required(p + ".name", "plugin name is required"));
    } else if (!name.isTextual() || !PluginRegistry.NAME.matcher(name.asText()).matches()) {
      errors.add(
          FieldError.invalid(
              p + ".name",
              name.asText(),
              "plugin repository (" + name.asText() + ") must be in the format of <namespace>/<name>"));
    } else {
      Integer first = seen.putIfAbsent(name.asText(), index);
      if (first != null) {
        errors.add(
            FieldError.invalid(
                p + ".name", name.asText(), "Duplicate value: also the name of " + kind.key() + "[" + first + "]"));
      }
    }
    JsonNode location = item.get("location");
    if (location == null || location.isNull() || location.asText().isEmpty()) {
      errors.add(FieldError.required(p + ".location", "plugin location is required (file://, http:// or https://)"));
    } else if (!location.isTextual() || !validLocation(location.asText())) {
      errors.add(
          FieldError.invalid(
              p + ".location", location.asText(), "must start with file://, http:// or https:// and name a path"));
    }
    JsonNode sha = item.get("sha256");
    if (sha != null && !sha.isNull() && !(sha.isTextual() && (sha.asText().isEmpty() || SHA256.matcher(sha.asText()).matches()))) {
      errors.add(FieldError.invalid(p + ".sha256", sha.asText(), "must be 64 hexadecimal digits (a SHA-256 checksum)"));
    }
    JsonNode args = item.get("args");
    if (args != null && !args.isNull()) {
      if (!args.isArray()) {
        errors.add(FieldError.invalid(p + ".args", args.toString(), "must be a list of strings"));
      } else {
        for (int j = 0; j < args.size(); j++) {
          if (!args.get(j).isTextual()) {
            errors.add(FieldError.invalid(p + ".args[" + j + "]", value(args.get(j)), "must be a string"));
          }
        }
      }
    }
    JsonNode disabled = item.get("disabled");
    if (disabled != null && !disabled.isNull()) {
      if (!disabled.isBoolean()) {
        errors.add(FieldError.invalid(p + ".disabled", value(disabled), "must be true or false"));
      } else if (kind != PluginKind.STEP && disabled.asBoolean()) {
        errors.add(FieldError.forbidden(p + ".disabled", "only step plugins can be disabled"));
      }
    }
    for (Iterator<String> it = item.fieldNames(); it.hasNext(); ) {
      String field = it.next();
      if (!FIELDS.contains(field)) {
        errors.add(
            FieldError.invalid(
                p + "." + field, field, "unknown field (known: name, location, sha256, args, disabled, headersFrom)"));
      }
    }
  }

  private static Object value(JsonNode node) {
    if (node.isTextual()) {
      return node.asText();
    }
    return node.isNumber() ? node.numberValue() : node.toString();
  }

  private static boolean validLocation(String location) {
    for (String scheme : new String[] {"file://", "http://", "https://"}) {
      if (location.startsWith(scheme)) {
        String rest = location.substring(scheme.length());
        return !rest.isBlank() && rest.chars().noneMatch(Character::isWhitespace);
      }
    }
    return false;
  }

  private static String abbreviate(String s) {
    String one = s.strip().replace('\n', ' ');
    return one.length() > 60 ? one.substring(0, 57) + "..." : one;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
