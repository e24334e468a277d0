package io.rollgate.plugin.sdk;

/**
 * The constants of plugin protocol v1 (docs/plugins.md): environment variables, handshake line,
 * headers and paths.
 */
public final class PluginProtocol {

  /** The protocol version this SDK speaks. */
  public static final int VERSION = 1;

  /** Environment variable with the protocol version the controller speaks. */
  public static final String ENV_PROTOCOL = "ROLLGATE_PLUGIN_PROTOCOL";

  /** Environment variable with the plugin kind: {@code step} or {@code trafficrouter}. */
  public static final String ENV_KIND = "ROLLGATE_PLUGIN_KIND";

  /** Environment variable with the registered name, {@code <org>/<name>}. */
  public static final String ENV_NAME = "ROLLGATE_PLUGIN_NAME";

  /**
   * Environment variable with the per-process secret every request must carry as a bearer token.
   */
  public static final String ENV_COOKIE = "ROLLGATE_PLUGIN_COOKIE";

  /** First word of the handshake line: {@code rollgate-plugin <version> <base URL>}. */
  public static final String HANDSHAKE_PREFIX = "rollgate-plugin";

  /** Request header carrying the protocol version. */
  public static final String HEADER_PROTOCOL = "Rollgate-Plugin-Protocol";

  /** Kind value for step plugins. */
  public static final String KIND_STEP = "step";

  /** Kind value for traffic-router plugins. */
  public static final String KIND_TRAFFIC_ROUTER = "trafficrouter";

  /** Kind value for metric-provider plugins. */
  public static final String KIND_METRIC_PROVIDER = "metricprovider";

  private PluginProtocol() {}
}
