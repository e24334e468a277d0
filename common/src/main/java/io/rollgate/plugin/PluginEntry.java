package io.rollgate.plugin;

import java.util.List;

/**
 * One registered plugin, an item of a {@code argo-rollouts-config} list.
 *
 * @param name {@code <org>/<name>}, the name Rollouts and templates refer to
 * @param location {@code file://<path>} or {@code http(s)://<url>} of the executable
 * @param sha256 the expected SHA-256 of the executable (64 hex digits), or null
 * @param args command-line arguments for the plugin process (never null)
 * @param disabled whether the plugin is switched off (step plugins: their steps are skipped)
 */
public record PluginEntry(String name, String location, String sha256, List<String> args, boolean disabled) {}
