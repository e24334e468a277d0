package io.rollgate.controller.analysis;

import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.cloudwatch.CloudWatchMetricProvider;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.graphite.GraphiteMetricProvider;
import io.rollgate.controller.analysis.provider.influxdb.InfluxdbMetricProvider;
import java.util.List;

/**
 * The providers that query a time-series store: Graphite ({@code graphite}), InfluxDB ({@code
 * influxdb}) and CloudWatch ({@code cloudWatch}), sharing one {@link MetricHttpClient}
 * (docs/metric-providers.md).
 */
public final class TimeSeriesMetricProviders {

  private TimeSeriesMetricProviders() {}

  /**
   * Creates the Graphite, InfluxDB and CloudWatch providers.
   *
   * @param http the controller's one metric HTTP client (shared with {@link HttpMetricProviders})
   * @param secrets reads the InfluxDB credentials Secret ({@code KubeApi#getSecret})
   * @param namespace the controller's namespace, where the InfluxDB Secret ({@code influxdb} or
   *     {@code profile}) lives
   * @return the providers, ready to register
   */
  public static List<MetricProvider> create(
      MetricHttpClient http, InfluxdbMetricProvider.SecretReader secrets, String namespace) {
    return List.of(
        new GraphiteMetricProvider(http),
        new InfluxdbMetricProvider(http, secrets, namespace),
        new CloudWatchMetricProvider(http));
  }
}
