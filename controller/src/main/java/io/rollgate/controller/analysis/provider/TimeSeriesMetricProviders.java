package io.rollgate.controller.analysis.provider;

import io.rollgate.controller.analysis.provider.cloudwatch.CloudWatchMetricProvider;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.graphite.GraphiteMetricProvider;
import io.rollgate.controller.analysis.provider.influxdb.InfluxdbMetricProvider;
import io.vertx.core.Vertx;
import java.util.List;

/**
 * The providers that query a time-series store: Graphite ({@code graphite}), InfluxDB ({@code influxdb}) and
 * CloudWatch ({@code cloudWatch}), sharing one {@link MetricHttpClient} (docs/metric-providers.md).
 */
public final class TimeSeriesMetricProviders {

  private TimeSeriesMetricProviders() {}

  /**
   * Creates the Graphite, InfluxDB and CloudWatch providers.
   *
   * @param vertx the controller's Vert.x instance (the HTTP client and the AWS SDK's worker pool run on it)
   * @param secrets reads the InfluxDB credentials Secret ({@code KubeApi#getSecret})
   * @param namespace the controller's namespace, where the InfluxDB Secret ({@code influxdb} or {@code profile}) lives
   * @return the providers, ready to register
   */
  public static List<MetricProvider> create(Vertx vertx, InfluxdbMetricProvider.SecretReader secrets, String namespace) {
    MetricHttpClient http = new MetricHttpClient(vertx);
    return List.of(
        new GraphiteMetricProvider(http),
        new InfluxdbMetricProvider(http, secrets, namespace),
        new CloudWatchMetricProvider(http));
  }
}
