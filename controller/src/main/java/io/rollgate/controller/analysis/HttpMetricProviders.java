package io.rollgate.controller.analysis;

import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.OAuth2ClientCredentials;
import io.rollgate.controller.analysis.provider.common.ProviderSecrets;
import io.rollgate.controller.analysis.provider.datadog.DatadogMetricProvider;
import io.rollgate.controller.analysis.provider.kayenta.KayentaMetricProvider;
import io.rollgate.controller.analysis.provider.newrelic.NewRelicMetricProvider;
import io.rollgate.controller.analysis.provider.prometheus.PrometheusApi;
import io.rollgate.controller.analysis.provider.prometheus.PrometheusMetricProvider;
import io.rollgate.controller.analysis.provider.skywalking.SkyWalkingMetricProvider;
import io.rollgate.controller.analysis.provider.wavefront.WavefrontMetricProvider;
import io.rollgate.controller.analysis.provider.web.WebMetricProvider;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * The providers that measure over HTTP ({@code prometheus}, {@code web}, {@code datadog}, {@code
 * newRelic}, {@code wavefront}, {@code kayenta}, {@code skywalking}), sharing one Vert.x web client
 * pair and one OAuth2 token cache.
 */
public final class HttpMetricProviders {

  private HttpMetricProviders() {}

  /**
   * Creates the HTTP providers.
   *
   * @param http the controller's one metric HTTP client (shared with {@link
   *     TimeSeriesMetricProviders})
   * @param clock the clock for OAuth2 token expiry
   * @param env the process environment ({@code ARGO_ROLLOUTS_PROMETHEUS_ADDRESS}, Datadog's {@code
   *     DD_*})
   * @param secrets where providers read their credential Secrets (Datadog, New Relic, Wavefront)
   * @return the providers, ready to register
   */
  public static List<MetricProvider> create(
      MetricHttpClient http, Clock clock, Map<String, String> env, ProviderSecrets secrets) {
    OAuth2ClientCredentials oauth2 = new OAuth2ClientCredentials(http, clock);
    return List.of(
        new PrometheusMetricProvider(new PrometheusApi(http), oauth2, env),
        new WebMetricProvider(http, oauth2),
        new DatadogMetricProvider(http, secrets, env),
        new NewRelicMetricProvider(http, secrets),
        new WavefrontMetricProvider(http, secrets),
        new KayentaMetricProvider(http),
        new SkyWalkingMetricProvider(http));
  }
}
