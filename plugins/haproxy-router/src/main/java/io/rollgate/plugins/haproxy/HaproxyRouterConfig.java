package io.rollgate.plugins.haproxy;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutTrafficRouting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The plugin's configuration, read from {@code
 * spec.strategy.canary.trafficRouting.plugins["<org>/haproxy"]}:
 *
 * <pre>
 * runtimeApi: /run/haproxy/admin.sock   # or host:port; a "stats socket ... level admin" of HAProxy
 * backend: web                          # the backend holding both servers
 * stableServer: stable                  # the server that reaches the stable Service
 * canaryServer: canary                  # the server that reaches the canary Service
 * additionalServers:                    # optional: experiment Service name to server (additional destinations)
 *   web-experiment: experiment
 * timeoutSeconds: 10                    # optional: bound on each runtime API command, seconds (default 10)
 * </pre>
 *
 * @param field the configuration's field path, used in error messages
 * @param runtimeApi where the runtime API listens
 * @param backend the backend name
 * @param stableServer the stable server's name in the backend
 * @param canaryServer the canary server's name in the backend
 * @param additionalServers experiment Service name to server name in the backend (may be empty)
 * @param timeout the bound on each runtime API command
 */
public record HaproxyRouterConfig(
    String field,
    RuntimeApiAddress runtimeApi,
    String backend,
    String stableServer,
    String canaryServer,
    Map<String, String> additionalServers,
    Duration timeout) {

  /**
   * The name part ({@code <org>/<name>}) this plugin answers to when the controller does not tell
   * its name.
   */
  public static final String DEFAULT_NAME = "haproxy";

  /** The default bound on each runtime API command, seconds. */
  public static final int DEFAULT_TIMEOUT_SECONDS = 10;

  /**
   * HAProxy proxy and server names: letters, digits, '-', '_', '.' and ':' (HAProxy's own rule for
   * identifiers).
   */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:-]+");

  private static final Set<String> FIELDS =
      Set.of(
          "runtimeApi",
          "backend",
          "stableServer",
          "canaryServer",
          "additionalServers",
          "timeoutSeconds");

  /**
   * Reads and checks the configuration of the plugin registered as {@code pluginName}.
   *
   * @param rollout the Rollout as stored
   * @param pluginName the registered name {@code <org>/<name>}; when null, the single entry of
   *     {@code trafficRouting.plugins} whose name part is {@code haproxy}
   * @return the configuration
   * @throws IllegalArgumentException naming the field and the reason when the configuration is
   *     missing or invalid
   */
  public static HaproxyRouterConfig fromRollout(Rollout rollout, String pluginName) {
    String routingField = "spec.strategy.canary.trafficRouting";
    RolloutTrafficRouting routing =
        rollout == null
                || rollout.getSpec() == null
                || rollout.getSpec().getStrategy() == null
                || rollout.getSpec().getStrategy().getCanary() == null
            ? null
            : rollout.getSpec().getStrategy().getCanary().getTrafficRouting();
    Map<String, JsonNode> plugins =
        routing == null || routing.getPlugins() == null ? Map.of() : routing.getPlugins();
    String name = pluginName;
    if (name == null || name.isBlank()) {
      List<String> candidates = new ArrayList<>();
      for (String key : plugins.keySet()) {
        if (key.endsWith("/" + DEFAULT_NAME)) {
          candidates.add(key);
        }
      }
      if (candidates.size() != 1) {
        throw new IllegalArgumentException(
            routingField
                + ".plugins: expected exactly one entry named <org>/"
                + DEFAULT_NAME
                + ", found "
                + candidates);
      }
      name = candidates.get(0);
    }
    String field = routingField + ".plugins[\"" + name + "\"]";
    JsonNode node = plugins.get(name);
    if (node == null || node.isNull()) {
      throw new IllegalArgumentException(
          field + ": missing: the Rollout does not configure this traffic router");
    }
    return parse(field, node);
  }

  /**
   * Reads and checks a configuration object.
   *
   * @param field the object's field path, for error messages
   * @param node the configuration object
   * @return the configuration
   * @throws IllegalArgumentException naming the field and the reason when the configuration is
   *     invalid
   */
  public static HaproxyRouterConfig parse(String field, JsonNode node) {
    if (!node.isObject()) {
      throw new IllegalArgumentException(
          field + ": must be an object, got " + node.getNodeType().name().toLowerCase());
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!FIELDS.contains(name)) {
        throw new IllegalArgumentException(
            field
                + "."
                + name
                + ": unknown field (known: runtimeApi, backend, stableServer, canaryServer, "
                + "additionalServers, timeoutSeconds)");
      }
    }
    String apiText = requiredString(field, node, "runtimeApi");
    RuntimeApiAddress api;
    try {
      api = RuntimeApiAddress.parse(apiText);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ".runtimeApi: " + e.getMessage(), e);
    }
    String backend = requiredName(field, node, "backend");
    String stable = requiredName(field, node, "stableServer");
    String canary = requiredName(field, node, "canaryServer");
    if (stable.equals(canary)) {
      throw new IllegalArgumentException(
          field + ".canaryServer: must differ from stableServer (both are \"" + stable + "\")");
    }
    Map<String, String> additional = new LinkedHashMap<>();
    JsonNode extra = node.get("additionalServers");
    if (extra != null && !extra.isNull()) {
      if (!extra.isObject()) {
        throw new IllegalArgumentException(
            field
                + ".additionalServers: must be an object mapping a Service name to a server name");
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = extra.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        String server = checkName(field + ".additionalServers." + e.getKey(), e.getValue());
        if (server.equals(stable) || server.equals(canary)) {
          throw new IllegalArgumentException(
              field
                  + ".additionalServers."
                  + e.getKey()
                  + ": \""
                  + server
                  + "\" is already the stable or canary server");
        }
        additional.put(e.getKey(), server);
      }
    }
    int timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
    JsonNode timeout = node.get("timeoutSeconds");
    if (timeout != null && !timeout.isNull()) {
      if (!timeout.canConvertToInt() || !timeout.isIntegralNumber() || timeout.asInt() < 1) {
        throw new IllegalArgumentException(
            field + ".timeoutSeconds: must be a positive integer, got " + timeout);
      }
      timeoutSeconds = timeout.asInt();
    }
    return new HaproxyRouterConfig(
        field,
        api,
        backend,
        stable,
        canary,
        Collections.unmodifiableMap(additional),
        Duration.ofSeconds(timeoutSeconds));
  }

  private static String requiredString(String field, JsonNode node, String name) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      throw new IllegalArgumentException(field + "." + name + ": required");
    }
    if (!value.isTextual() || value.asText().isBlank()) {
      throw new IllegalArgumentException(
          field + "." + name + ": must be a non-empty string, got " + value);
    }
    return value.asText();
  }

  private static String requiredName(String field, JsonNode node, String name) {
    requiredString(field, node, name);
    return checkName(field + "." + name, node.get(name));
  }

  private static String checkName(String field, JsonNode value) {
    if (value == null || !value.isTextual() || !NAME.matcher(value.asText()).matches()) {
      throw new IllegalArgumentException(
          field + ": must be an HAProxy name (letters, digits, '-', '_', '.', ':'), got " + value);
    }
    return value.asText();
  }
}
