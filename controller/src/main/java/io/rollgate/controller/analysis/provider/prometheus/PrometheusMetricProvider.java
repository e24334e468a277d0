package io.rollgate.controller.analysis.provider.prometheus;

import io.rollgate.api.Authentication;
import io.rollgate.api.BasicAuth;
import io.rollgate.api.OAuth2Config;
import io.rollgate.api.PrometheusMetric;
import io.rollgate.api.PrometheusRangeQueryArgs;
import io.rollgate.api.WebMetricHeader;
import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.rollgate.controller.analysis.provider.common.OAuth2ClientCredentials;
import io.rollgate.defaults.GoDurations;
import io.rollgate.expr.Expression;
import io.vertx.core.Future;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Argo's Prometheus provider ({@code metrics[].provider.prometheus}, docs/compatibility.md §9.7):
 * runs {@code query} as an instant query at the measurement time, or as a range query when {@code
 * rangeQuery {start, end, step}} is set (start and end are condition-language expressions such as
 * {@code now() - duration("5m")}, step a Go duration), and answers the value the conditions see as
 * {@code result}: a {@code scalar} as a Double, a {@code vector} or {@code matrix} as the list of
 * all sample values (an empty list, value text {@code []}, when nothing matched).
 *
 * <p>Configuration: {@code address} (else env {@code ARGO_ROLLOUTS_PROMETHEUS_ADDRESS}), {@code
 * timeout} in seconds (default 30, negative is an error), {@code insecure} (skip TLS verification),
 * {@code headers[] {key, value}}, {@code authentication.basicAuth {username, password}} or {@code
 * authentication.oauth2 {tokenUrl, clientId, clientSecret, scopes}} (client-credentials grant,
 * token cached until it expires). {@code authentication.sigv4} (Amazon Managed Prometheus, used by
 * Argo only for addresses containing {@code aps-workspaces}) is not supported and gives an Error
 * measurement saying so.
 *
 * <p>Metadata: Prometheus {@code warnings} are stored on the measurement as {@code warnings}
 * (joined with {@code ", "}); the query is stored on the metric result as {@code
 * ResolvedPrometheusQuery}.
 */
public final class PrometheusMetricProvider implements MetricProvider {

  /** Environment variable with the default server address (Argo's). */
  public static final String ADDRESS_ENV = "ARGO_ROLLOUTS_PROMETHEUS_ADDRESS";

  /** Default {@code timeout}: 30 seconds. */
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  private final PrometheusApi api;
  private final OAuth2ClientCredentials oauth2;
  private final Map<String, String> env;

  /**
   * Creates the provider.
   *
   * @param api the Prometheus HTTP API client
   * @param oauth2 the shared OAuth2 token source
   * @param env the process environment (for {@link #ADDRESS_ENV})
   */
  public PrometheusMetricProvider(
      PrometheusApi api, OAuth2ClientCredentials oauth2, Map<String, String> env) {
    this.api = api;
    this.oauth2 = oauth2;
    this.env = Map.copyOf(env);
  }

  @Override
  public String type() {
    return "prometheus";
  }

  @Override
  public Future<ProviderResult> run(MeasurementContext ctx) {
    PrometheusMetric config =
        ctx.metric().getProvider() == null ? null : ctx.metric().getProvider().getPrometheus();
    if (config == null) {
      return Future.failedFuture(new MetricProviderException("metric has no prometheus provider"));
    }
    Settings settings;
    try {
      settings = settings(config, ctx.now());
    } catch (MetricProviderException e) {
      return Future.failedFuture(e);
    } catch (RuntimeException e) {
      return Future.failedFuture(new MetricProviderException(e.getMessage(), e));
    }
    return authorization(config, settings)
        .compose(
            auth -> {
              List<Map.Entry<String, String>> headers = new ArrayList<>(settings.headers());
              auth.ifPresent(a -> headers.add(Map.entry("Authorization", a)));
              return api.query(
                  settings.address(),
                  settings.query(),
                  ctx.now(),
                  settings.range(),
                  headers,
                  settings.insecure(),
                  settings.timeout());
            })
        .onFailure(e -> forgetRejectedToken(config, e))
        .map(answer -> toResult(answer, settings.query()));
  }

  /**
   * A 401 with an OAuth2 token means the server no longer accepts it: fetch a new one next time.
   */
  private void forgetRejectedToken(PrometheusMetric config, Throwable e) {
    OAuth2Config o =
        config.getAuthentication() == null ? null : config.getAuthentication().getOauth2();
    if (o != null && "client_error: client error: 401".equals(e.getMessage())) {
      oauth2.invalidate(
          new OAuth2ClientCredentials.Config(
              o.getTokenUrl(), o.getClientId(), o.getClientSecret(), o.getScopes()));
    }
  }

  private record Settings(
      String address,
      String query,
      Duration timeout,
      boolean insecure,
      List<Map.Entry<String, String>> headers,
      PrometheusApi.Range range) {}

  private Settings settings(PrometheusMetric config, Instant now) {
    String address = config.getAddress();
    if (address == null || address.isBlank()) {
      address = env.get(ADDRESS_ENV);
    }
    if (address == null || address.isBlank()) {
      throw new MetricProviderException("prometheus address is not configured");
    }
    if (!isAbsoluteUrl(address)) {
      throw new MetricProviderException("prometheus address is not is url format");
    }
    Duration timeout = DEFAULT_TIMEOUT;
    if (config.getTimeout() != null) {
      if (config.getTimeout() < 0) {
        throw new MetricProviderException("prometheus timeout should not be negative");
      }
      if (config.getTimeout() > 0) {
        timeout = Duration.ofSeconds(config.getTimeout());
      }
    }
    Authentication auth = config.getAuthentication();
    if (auth != null && auth.getSigv4() != null && address.contains("aps-workspaces")) {
      throw new MetricProviderException("sigv4 authentication is not supported");
    }
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    if (config.getHeaders() != null) {
      for (WebMetricHeader h : config.getHeaders()) {
        if (h.getKey() == null || h.getKey().isBlank()) {
          throw new MetricProviderException("prometheus headers: key must not be empty");
        }
        headers.add(Map.entry(h.getKey(), h.getValue() == null ? "" : h.getValue()));
      }
    }
    String query = config.getQuery() == null ? "" : config.getQuery();
    return new Settings(
        address,
        query,
        timeout,
        Boolean.TRUE.equals(config.getInsecure()),
        headers,
        range(config.getRangeQuery(), now));
  }

  private static boolean isAbsoluteUrl(String address) {
    try {
      URI uri = new URI(address);
      return uri.getScheme() != null && uri.getHost() != null && !uri.getHost().isEmpty();
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static PrometheusApi.Range range(PrometheusRangeQueryArgs args, Instant now) {
    if (args == null) {
      return null;
    }
    Instant start = time("rangeQuery.start", args.getStart(), now);
    Instant end = time("rangeQuery.end", args.getEnd(), now);
    if (args.getStep() == null || args.getStep().isBlank()) {
      throw new MetricProviderException("rangeQuery.step is required");
    }
    Optional<Duration> step = GoDurations.parse(args.getStep().trim());
    if (step.isEmpty() || step.get().isNegative() || step.get().isZero()) {
      throw new MetricProviderException(
          "rangeQuery.step: invalid duration \""
              + args.getStep()
              + "\" (a positive Go duration such as 1m is expected)");
    }
    if (end.isBefore(start)) {
      throw new MetricProviderException(
          "rangeQuery: end (" + end + ") is before start (" + start + ")");
    }
    return new PrometheusApi.Range(start, end, step.get());
  }

  private static Instant time(String field, String source, Instant now) {
    if (source == null || source.isBlank()) {
      throw new MetricProviderException(field + " is required, e.g. now() - duration(\"5m\")");
    }
    Object value;
    try {
      value = Expression.parse(source).evaluate(Map.of(), Clock.fixed(now, ZoneOffset.UTC));
    } catch (RuntimeException e) {
      throw new MetricProviderException(field + ": " + e.getMessage(), e);
    }
    if (value instanceof Instant t) {
      return t;
    }
    throw new MetricProviderException(
        field
            + ": expected a time, but got "
            + (value == null ? "nil" : value.getClass().getSimpleName()));
  }

  private Future<Optional<String>> authorization(PrometheusMetric config, Settings settings) {
    Authentication auth = config.getAuthentication();
    if (auth == null) {
      return Future.succeededFuture(Optional.empty());
    }
    OAuth2Config o = auth.getOauth2();
    if (o != null && o.getTokenUrl() != null && !o.getTokenUrl().isBlank()) {
      return oauth2
          .token(
              new OAuth2ClientCredentials.Config(
                  o.getTokenUrl(), o.getClientId(), o.getClientSecret(), o.getScopes()),
              settings.insecure(),
              settings.timeout())
          .map(t -> Optional.of(t.authorization()));
    }
    BasicAuth basic = auth.getBasicAuth();
    if (basic != null && (notEmpty(basic.getUsername()) || notEmpty(basic.getPassword()))) {
      String pair = nullToEmpty(basic.getUsername()) + ":" + nullToEmpty(basic.getPassword());
      return Future.succeededFuture(
          Optional.of(
              "Basic "
                  + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8))));
    }
    return Future.succeededFuture(Optional.empty());
  }

  private static boolean notEmpty(String s) {
    return s != null && !s.isEmpty();
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  private static ProviderResult toResult(PrometheusApi.Answer answer, String query) {
    PrometheusResults.Converted converted =
        PrometheusResults.convert(answer.resultType(), answer.result());
    Map<String, String> metadata = new HashMap<>();
    if (!answer.warnings().isEmpty()) {
      metadata.put("warnings", String.join(", ", answer.warnings()));
    }
    if (!query.isEmpty()) {
      metadata.put(METRIC_RESULT_METADATA_PREFIX + "ResolvedPrometheusQuery", query);
    }
    return new ProviderResult.Value(converted.value(), converted.text(), metadata);
  }
}
