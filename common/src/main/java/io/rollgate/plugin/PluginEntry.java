package io.rollgate.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One registered plugin, an item of a {@code argo-rollouts-config} list (docs/plugins.md,
 * "Registration").
 *
 * @param name {@code <org>/<name>}, the name Rollouts and templates refer to
 * @param location {@code file://<path>}, {@code http(s)://<url>} of the executable, or {@code
 *     java:<class>} for an in-process plugin; null when the plugin is reached at {@code endpoint}
 * @param endpoint base URL ({@code http(s)://host:port[/base]}) of a plugin running as its own
 *     service, or null
 * @param sha256 the expected SHA-256 of the executable (64 hex digits), or null
 * @param args command-line arguments for the plugin process (never null)
 * @param disabled whether the plugin is switched off (step plugins: their steps are skipped)
 * @param configSchema the JSON Schema the plugin's configuration must match, or null when none is
 *     declared
 */
public record PluginEntry(
    String name,
    String location,
    String endpoint,
    String sha256,
    List<String> args,
    boolean disabled,
    JsonNode configSchema) {}
