package io.rollgate.controller.traffic;

/**
 * A {@link TrafficRouter} backed by a plugin of the plugin registry ({@code argo-rollouts-config},
 * {@code trafficRouterPlugins}), which may or may not be registered at a given moment. A registered
 * plugin takes precedence over a built-in router of the same {@code trafficRouting.plugins} name
 * (docs/plugins.md, "Precedence"), so that a user's own build of, say, the Gateway API plugin runs
 * instead of Rollgate's.
 */
public interface HostedTrafficRouter extends TrafficRouter {

  /**
   * Whether the plugin is registered now.
   *
   * @return true when the registry has an entry of this name
   */
  boolean registered();
}
