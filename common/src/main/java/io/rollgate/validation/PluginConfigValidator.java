package io.rollgate.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.plugin.PluginConfigSchemas;
import io.rollgate.plugin.PluginKind;
import io.rollgate.plugin.PluginRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks the plugin registry ConfigMap {@code argo-rollouts-config} (docs/compatibility.md §10.1):
 * each of {@code stepPlugins}, {@code trafficRouterPlugins} and {@code metricProviderPlugins} is a
 * YAML list of objects with a {@code name} of the form {@code <org>/<name>}, unique within its
 * list; exactly one of {@code location} ({@code file://}, {@code http://}, {@code https://}, or
 * {@code java:<class>} for step and traffic-router plugins) and {@code endpoint} (an {@code
 * http(s)://host:port[/base]} URL); an optional {@code sha256} of 64 hex digits, for executables
 * only; optional {@code args} (strings), {@code disabled} (a boolean, step plugins only) and {@code
 * configSchema} (a usable JSON Schema, see {@link PluginConfigSchemas#checkSchema});
 * docs/plugins.md "Registration". Argo Rollouts fails at start on most of these; refusing them on
 * apply keeps a broken registry out of the cluster.
 *
 * <p>Paths are {@code data.<key>[<index>].<field>}. Other keys of the ConfigMap are not checked.
 */
public final class PluginConfigValidator {

  private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");
  private static final String KNOWN =
      "name, location, endpoint, sha256, args, disabled, configSchema, headersFrom";
  private static final Set<String> FIELDS = Set.of(KNOWN.split(", "));

  /**
   * {@code java:} followed by a fully qualified Java class name (binary name: nested classes with
   * {@code $}).
   */
  private static final Pattern JAVA_CLASS =
      Pattern.compile("java:[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)+");

  private PluginConfigValidator() {}

  /**
   * Validates the ConfigMap's data.
   *
   * @param data the ConfigMap's {@code data}, or null
   * @param schemas the checker of the {@code configSchema}s (its cache belongs to the caller)
   * @return every problem found; empty when valid
   */
  public static List<FieldError> validate(Map<String, String> data, PluginConfigSchemas schemas) {
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
        errors.add(
            FieldError.invalid(
                path, abbreviate(yaml), "not valid YAML: " + firstLine(e.getMessage())));
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
        validateItem(kind, path + "[" + i + "]", list.get(i), seen, i, schemas, errors);
      }
    }
    return errors;
  }

  private static void validateItem(
      PluginKind kind,
      String p,
      JsonNode item,
      Map<String, Integer> seen,
      int index,
      PluginConfigSchemas schemas,
      List<FieldError> errors) {
    if (!item.isObject()) {
      errors.add(
          FieldError.invalid(p, item.toString(), "must be an object with name and location"));
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
              "plugin repository ("
                  + name.asText()
                  + ") must be in the format of <namespace>/<name>"));
    } else {
      Integer first = seen.putIfAbsent(name.asText(), index);
      if (first != null) {
        errors.add(
            FieldError.invalid(
                p + ".name",
                name.asText(),
                "Duplicate value: also the name of " + kind.key() + "[" + first + "]"));
      }
    }
    JsonNode location = item.get("location");
    JsonNode endpoint = item.get("endpoint");
    boolean hasLocation = location != null && !location.isNull() && !location.asText().isEmpty();
    boolean hasEndpoint = endpoint != null && !endpoint.isNull() && !endpoint.asText().isEmpty();
    if (hasLocation && hasEndpoint) {
      errors.add(
          FieldError.forbidden(
              p + ".endpoint", "a plugin has exactly one of location and endpoint, not both"));
    } else if (!hasLocation && !hasEndpoint) {
      errors.add(
          FieldError.required(
              p + ".location",
              "one of location (file://, http://, https:// or java:<class>) and endpoint (http:// or https://) is"
                  + " required"));
    }
    if (hasLocation) {
      validateLocation(kind, p, location, errors);
    }
    if (hasEndpoint && (!endpoint.isTextual() || !validEndpoint(endpoint.asText()))) {
      errors.add(
          FieldError.invalid(
              p + ".endpoint",
              value(endpoint),
              "must be an http:// or https:// URL with a host, without query or fragment"
                  + " (http(s)://host:port[/base])"));
    }
    JsonNode sha = item.get("sha256");
    if (sha != null
        && !sha.isNull()
        && !(sha.isTextual()
            && (sha.asText().isEmpty() || SHA256.matcher(sha.asText()).matches()))) {
      errors.add(
          FieldError.invalid(
              p + ".sha256", sha.asText(), "must be 64 hexadecimal digits (a SHA-256 checksum)"));
    } else if (sha != null && !sha.asText("").isEmpty() && !downloadable(location, hasEndpoint)) {
      errors.add(
          FieldError.forbidden(
              p + ".sha256",
              "a checksum applies to an executable (file://, http:// or https:// location), not to "
                  + (hasEndpoint ? "an endpoint" : "a java: location")));
    }
    JsonNode args = item.get("args");
    if (args != null && !args.isNull()) {
      if (!args.isArray()) {
        errors.add(FieldError.invalid(p + ".args", args.toString(), "must be a list of strings"));
      } else {
        for (int j = 0; j < args.size(); j++) {
          if (!args.get(j).isTextual()) {
            errors.add(
                FieldError.invalid(p + ".args[" + j + "]", value(args.get(j)), "must be a string"));
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
    JsonNode schema = item.get("configSchema");
    if (schema != null && !schema.isNull()) {
      for (PluginConfigSchemas.Violation v : schemas.checkSchema(schema, p + ".configSchema")) {
        String text = v.valueText();
        errors.add(
            text == null
                ? FieldError.required(v.path(), "not a valid JSON Schema: " + v.message())
                : new FieldError(
                    v.path(),
                    FieldError.Type.INVALID,
                    text,
                    "not a valid JSON Schema: " + v.message()));
      }
    }
    for (Iterator<String> it = item.fieldNames(); it.hasNext(); ) {
      String field = it.next();
      if (!FIELDS.contains(field)) {
        errors.add(
            FieldError.invalid(p + "." + field, field, "unknown field (known: " + KNOWN + ")"));
      }
    }
  }

  private static Object value(JsonNode node) {
    if (node.isTextual()) {
      return node.asText();
    }
    return node.isNumber() ? node.numberValue() : node.toString();
  }

  private static void validateLocation(
      PluginKind kind, String p, JsonNode location, List<FieldError> errors) {
    String text = location.asText();
    if (location.isTextual() && text.startsWith("java:")) {
      if (kind == PluginKind.METRIC_PROVIDER) {
        errors.add(
            FieldError.invalid(
                p + ".location",
                text,
                "java: locations are for step and traffic-router plugins only"));
      } else if (!JAVA_CLASS.matcher(text).matches()) {
        errors.add(
            FieldError.invalid(
                p + ".location",
                text,
                "must be java:<class>, the fully qualified name of the plugin's provider class"
                    + " (for example java:com.example.rollgate.MyPlugin)"));
      }
      return;
    }
    if (!location.isTextual() || !validLocation(text)) {
      errors.add(
          FieldError.invalid(
              p + ".location",
              text,
              "must start with file://, http:// or https:// and name a path, or be java:<class>"));
    }
  }

  private static boolean downloadable(JsonNode location, boolean hasEndpoint) {
    return !hasEndpoint
        && location != null
        && location.isTextual()
        && !location.asText().startsWith("java:");
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

  private static boolean validEndpoint(String endpoint) {
    if (endpoint.chars().anyMatch(Character::isWhitespace)) {
      return false;
    }
    try {
      URI uri = new URI(endpoint);
      return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          && uri.getHost() != null
          && !uri.getHost().isEmpty()
          && uri.getRawQuery() == null
          && uri.getRawFragment() == null
          && uri.getRawUserInfo() == null;
    } catch (URISyntaxException e) {
      return false;
    }
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
