/**
 * The plugin registry as Argo Rollouts keeps it: the ConfigMap {@code argo-rollouts-config} in the
 * controller's namespace, whose keys {@code stepPlugins}, {@code trafficRouterPlugins} and {@code
 * metricProviderPlugins} each hold a YAML list of plugins ({@code name}, {@code location}, {@code
 * sha256}, {@code args}, {@code disabled}).
 *
 * <p>Pure: parsing only, no I/O. The checks of the ConfigMap live in {@link
 * io.rollgate.validation.PluginConfigValidator}.
 */
package io.rollgate.plugin;
