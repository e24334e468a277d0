package io.rollgate.controller.analysis.provider.graphite;

import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.rollgate.controller.analysis.provider.common.ProviderConfigs;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Argo's Graphite provider ({@code metrics[].provider.graphite}, docs/compatibility.md §9.7;
 * docs/metric-providers.md): GETs {@code <address>/render?<query>&format=json} and answers the
 * non-null datapoint values of the first target as a list of Doubles, the value the conditions see
 * as {@code result} (for example {@code result[0] < 0.05}).
 *
 * <p>Configuration: {@code address} (an absolute http(s) URL, required) and {@code query} (render
 * API parameters such as {@code target=...&from=-5min}; white space is removed). Each call times
 * out after 10 seconds. An HTTP status of 400 or more, an answer without datapoints ({@code no
 * values found}) and a malformed answer are Error measurements.
 */
public final class GraphiteMetricProvider implements MetricProvider {

  /** The time one render call may take: 10 seconds, Argo's. */
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final MetricHttpClient http;

  /**
   * Creates the provider.
   *
   * @param http the shared metric HTTP client
   */
  public GraphiteMetricProvider(MetricHttpClient http) {
    this.http = http;
  }

  @Override
  public String type() {
    return "graphite";
  }

  @Override
  public Future<ProviderResult> run(MeasurementContext ctx) {
    String url;
    try {
      Map<String, Object> config = ProviderConfigs.of(ctx.metric(), type());
      url =
          GraphiteRender.url(
              ProviderConfigs.string(config, type(), "address"),
              ProviderConfigs.string(config, type(), "query"));
    } catch (MetricProviderException e) {
      return Future.failedFuture(e);
    }
    return http.send(
            new MetricHttpClient.Call(HttpMethod.GET, url, List.of(), null, null, false, TIMEOUT))
        .map(
            response -> {
              List<Double> values =
                  GraphiteRender.values(response.statusCode(), response.bodyAsString());
              return new ProviderResult.Value(values, GraphiteRender.text(values), null);
            });
  }
}
