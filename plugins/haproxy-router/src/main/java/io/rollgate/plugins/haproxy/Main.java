package io.rollgate.plugins.haproxy;

import io.rollgate.plugin.sdk.PluginProtocol;
import io.rollgate.plugin.sdk.PluginServer;

/**
 * Entry point of the executable plugin (the launcher script {@code target/haproxy-router} runs it):
 * serves {@link HaproxyTrafficRouterPlugin} over plugin protocol v1 under the name the controller
 * passes in {@code ROLLGATE_PLUGIN_NAME} (docs/plugins.md).
 */
public final class Main {

  private Main() {}

  /**
   * Serves the plugin until the controller stops the process.
   *
   * @param args ignored (the plugin reads its configuration from each Rollout)
   */
  public static void main(String[] args) {
    try {
      PluginServer.serve(
          new HaproxyTrafficRouterPlugin(null, System.getenv(PluginProtocol.ENV_NAME)));
    } catch (IllegalStateException e) {
      System.err.println("haproxy-router: " + e.getMessage());
      System.exit(2);
    }
  }
}
