package io.rollgate.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The registered plugins of one {@code argo-rollouts-config} ConfigMap, by kind.
 *
 * @param plugins the entries of each kind, in ConfigMap order (a kind without a key has an empty
 *     list)
 */
public record PluginRegistry(Map<PluginKind, List<PluginEntry>> plugins) {

  /** The ConfigMap's name, as Argo Rollouts reads it. */
  public static final String CONFIG_MAP_NAME = "argo-rollouts-config";

  /**
   * The form of a plugin name, {@code <org>/<name>} (Argo Rollouts' {@code utils/plugin} check).
   */
  public static final Pattern NAME = Pattern.compile("[a-zA-Z0-9\\-]+/[a-zA-Z0-9_\\-.]+");

  private static final ObjectMapper YAML = new YAMLMapper(YAMLFactory.builder().build());

  /**
   * An empty registry: the ConfigMap is absent, so no plugin is registered (as Argo Rollouts reads
   * it).
   */
  public static final PluginRegistry EMPTY = new PluginRegistry(Map.of());

  /**
   * Reads the registry from the ConfigMap's {@code data}, leniently: items that are not objects or
   * have no string {@code name} are skipped, and an unreadable key counts as empty. {@code
   * PluginConfigValidator} reports them.
   *
   * @param data the ConfigMap's data, or null
   * @return the registry
   */
  public static PluginRegistry fromConfigMapData(Map<String, String> data) {
    Map<PluginKind, List<PluginEntry>> plugins = new EnumMap<>(PluginKind.class);
    for (PluginKind kind : PluginKind.values()) {
      List<PluginEntry> entries = new ArrayList<>();
      JsonNode list = data == null ? null : readList(data.get(kind.key())).orElse(null);
      if (list != null) {
        for (JsonNode item : list) {
          JsonNode name = item.get("name");
          if (!item.isObject() || name == null || !name.isTextual()) {
            continue;
          }
          List<String> args = new ArrayList<>();
          JsonNode a = item.get("args");
          if (a != null && a.isArray()) {
            a.forEach(v -> args.add(v.asText()));
          }
          entries.add(
              new PluginEntry(
                  name.asText(),
                  item.path("location").asText(null),
                  item.path("endpoint").asText(null),
                  item.path("sha256").asText(null),
                  List.copyOf(args),
                  item.path("disabled").asBoolean(false),
                  item.path("configSchema").isObject() ? item.get("configSchema") : null));
        }
      }
      plugins.put(kind, List.copyOf(entries));
    }
    return new PluginRegistry(plugins);
  }

  /**
   * Parses one ConfigMap value as YAML.
   *
   * @param yaml the value, or null
   * @return the root node when the value is a YAML list; empty when absent, blank or not a list
   * @throws IllegalArgumentException never; an unreadable value yields empty
   */
  public static Optional<JsonNode> readList(String yaml) {
    if (yaml == null || yaml.isBlank()) {
      return Optional.empty();
    }
    try {
      JsonNode node = YAML.readTree(yaml);
      return node != null && node.isArray() ? Optional.of(node) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * Parses one ConfigMap value as YAML, failing on bad syntax.
   *
   * @param yaml the value
   * @return the root node, or null for an empty document
   * @throws IOException when the value is not YAML
   */
  public static JsonNode readTree(String yaml) throws IOException {
    return YAML.readTree(yaml);
  }

  /**
   * Finds a registered plugin.
   *
   * @param kind the kind
   * @param name the plugin name, {@code <org>/<name>}
   * @return the entry, or empty when no plugin of that kind has the name
   */
  public Optional<PluginEntry> find(PluginKind kind, String name) {
    return plugins.getOrDefault(kind, List.of()).stream()
        .filter(e -> e.name().equals(name))
        .findFirst();
  }

  /**
   * The names registered for a kind.
   *
   * @param kind the kind
   * @return the names, in ConfigMap order
   */
  public List<String> names(PluginKind kind) {
    return plugins.getOrDefault(kind, List.of()).stream().map(PluginEntry::name).toList();
  }
}
