package io.rollgate.controller.analysis.provider.datadog;

import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.rollgate.controller.analysis.provider.common.ProviderConfigs;
import io.rollgate.controller.analysis.provider.common.ProviderSecrets;
import io.rollgate.defaults.GoDurations;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Argo's Datadog provider ({@code metrics[].provider.datadog}, docs/compatibility.md §9.7;
 * docs/metric-providers.md): runs {@code query} over the last {@code interval} (default 5m) through
 * the v1 metrics query API, or with {@code apiVersion: v2} runs {@code query} or the named {@code
 * queries} combined by {@code formula} through the v2 scalar query API with {@code aggregator}
 * (default {@code last}). The value the conditions see is a number, or {@code null} when Datadog
 * returned no data.
 *
 * <p>Credentials ({@code api-key}, {@code app-key}, optional {@code address}, default {@code
 * https://api.datadoghq.com}): the Secret named by {@code secretRef.name} (in the AnalysisRun's
 * namespace when {@code secretRef.namespaced}, else the controller's); without {@code secretRef},
 * the environment variables {@code DD_API_KEY}, {@code DD_APP_KEY} and {@code DD_ADDRESS} when all
 * three are set, else the {@code datadog} Secret in the controller's namespace. The call is bounded
 * by {@code requestTimeout} (default 10s).
 */
public final class DatadogMetricProvider implements MetricProvider {

  /** The default Secret's name. */
  public static final String SECRET_NAME = "datadog";

  static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(5);
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  private static final List<String> ENV_KEYS = List.of("DD_API_KEY", "DD_APP_KEY", "DD_ADDRESS");

  private final MetricHttpClient http;
  private final ProviderSecrets secrets;
  private final Map<String, String> env;

  /** The credentials of one measurement. */
  record Credentials(String address, String apiKey, String appKey) {}

  /**
   * Creates the provider.
   *
   * @param http the shared HTTP client
   * @param secrets where the credential Secrets are read
   * @param env the process environment ({@code DD_API_KEY}, {@code DD_APP_KEY}, {@code DD_ADDRESS})
   */
  public DatadogMetricProvider(
      MetricHttpClient http, ProviderSecrets secrets, Map<String, String> env) {
    this.http = http;
    this.secrets = secrets;
    this.env = Map.copyOf(env);
  }

  @Override
  public String type() {
    return "datadog";
  }

  @Override
  public Future<ProviderResult> run(MeasurementContext ctx) {
    return ProviderConfigs.bind(ctx.metric(), type(), DatadogConfig.class)
        .compose(config -> query(ctx, config));
  }

  private Future<ProviderResult> query(MeasurementContext ctx, DatadogConfig config) {
    Duration interval = duration(config.interval(), DEFAULT_INTERVAL);
    Duration timeout = duration(config.requestTimeout(), DEFAULT_TIMEOUT);
    return credentials(
            config, ctx.run().getMetadata() == null ? null : ctx.run().getMetadata().getNamespace())
        .compose(
            c -> {
              String address =
                  c.address() == null || c.address().isEmpty()
                      ? DatadogApi.DEFAULT_ADDRESS
                      : c.address();
              if (address.endsWith("/")) {
                address = address.substring(0, address.length() - 1);
              }
              DatadogApi.Request request = DatadogApi.request(config, address, ctx.now(), interval);
              List<Map.Entry<String, String>> headers =
                  List.of(
                      Map.entry("Content-Type", "application/json"),
                      Map.entry("DD-API-KEY", c.apiKey()),
                      Map.entry("DD-APPLICATION-KEY", c.appKey()));
              return http.send(
                  new MetricHttpClient.Call(
                      request.method(),
                      request.url(),
                      headers,
                      request.body(),
                      null,
                      false,
                      timeout));
            })
        .map(r -> DatadogApi.parse(config.v2(), r.statusCode(), MetricHttpClient.bodyText(r)));
  }

  private static Duration duration(String text, Duration fallback) {
    if (text == null || text.isEmpty()) {
      return fallback;
    }
    return GoDurations.parse(text)
        .orElseThrow(() -> new MetricProviderException("invalid duration \"" + text + "\""));
  }

  /** Finds the credentials in the order Argo looks for them. */
  Future<Credentials> credentials(DatadogConfig config, String runNamespace) {
    DatadogConfig.SecretRef ref = config.secretRef();
    if (ref != null && ref.name() != null && !ref.name().isEmpty()) {
      String ns =
          ref.namespaced() && runNamespace != null ? runNamespace : secrets.controllerNamespace();
      return fromSecret(ns, ref.name()).compose(DatadogMetricProvider::found);
    }
    if (ENV_KEYS.stream().allMatch(env::containsKey)) {
      Credentials c =
          new Credentials(env.get("DD_ADDRESS"), env.get("DD_API_KEY"), env.get("DD_APP_KEY"));
      if (!c.apiKey().isEmpty() && !c.appKey().isEmpty()) {
        return Future.succeededFuture(c);
      }
    }
    return fromSecret(secrets.controllerNamespace(), SECRET_NAME)
        .compose(DatadogMetricProvider::found);
  }

  private Future<Optional<Credentials>> fromSecret(String namespace, String name) {
    return secrets
        .read(namespace, name)
        .map(
            data ->
                data.map(d -> new Credentials(d.get("address"), d.get("api-key"), d.get("app-key")))
                    .filter(
                        c ->
                            c.apiKey() != null
                                && !c.apiKey().isEmpty()
                                && c.appKey() != null
                                && !c.appKey().isEmpty()));
  }

  private static Future<Credentials> found(Optional<Credentials> c) {
    return c.map(Future::succeededFuture)
        .orElseGet(
            () ->
                Future.failedFuture(
                    new MetricProviderException(
                        "failed to find the credentials for datadog metrics provider")));
  }
}
