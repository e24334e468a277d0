package io.rollgate.plugin;

/** The three plugin kinds of {@code argo-rollouts-config}, each with its ConfigMap key. */
public enum PluginKind {
  /** Canary {@code plugin} steps, key {@code stepPlugins}. */
  STEP("stepPlugins"),
  /** {@code trafficRouting.plugins}, key {@code trafficRouterPlugins}. */
  TRAFFIC_ROUTER("trafficRouterPlugins"),
  /** AnalysisTemplate {@code provider.plugin}, key {@code metricProviderPlugins}. */
  METRIC_PROVIDER("metricProviderPlugins");

  private final String key;

  PluginKind(String key) {
    this.key = key;
  }

  /**
   * Returns the ConfigMap key that lists plugins of this kind.
   *
   * @return for example {@code stepPlugins}
   */
  public String key() {
    return key;
  }
}
