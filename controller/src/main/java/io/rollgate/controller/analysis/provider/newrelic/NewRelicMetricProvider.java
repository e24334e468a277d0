package io.rollgate.controller.analysis.provider.newrelic;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.GoFormat;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.rollgate.controller.analysis.provider.common.ProviderConfigs;
import io.rollgate.controller.analysis.provider.common.ProviderSecrets;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Argo's New Relic provider ({@code metrics[].provider.newRelic}, docs/compatibility.md §9.7;
 * docs/metric-providers.md): runs the NRQL {@code query} through the NerdGraph GraphQL API ({@code
 * actor.account(id).nrql(query, timeout).results}) with the NRQL {@code timeout} in seconds
 * (default 5). One result row is the value the conditions see as a map ({@code result.count});
 * several rows are a list of maps; no row is an Error.
 *
 * <p>Credentials: the Secret named by {@code profile} (default {@code newrelic}) in the
 * controller's namespace, keys {@code personal-api-key} (sent as {@code Api-Key}), {@code
 * account-id}, optional {@code region} ({@code us} default, {@code eu}, {@code staging}) and {@code
 * base-url-nerdgraph} (overrides the region's endpoint; {@code base-url-rest} is accepted and
 * unused: NRQL goes through NerdGraph only). The query is stored on the metric result as {@code
 * ResolvedNewRelicQuery}.
 */
public final class NewRelicMetricProvider implements MetricProvider {

  /** The default Secret's name. */
  public static final String DEFAULT_PROFILE = "newrelic";

  static final long DEFAULT_NRQL_TIMEOUT_SECONDS = 5;

  /** Time the HTTP call gets on top of the NRQL timeout. */
  static final Duration HTTP_MARGIN = Duration.ofSeconds(10);

  static final Map<String, String> NERDGRAPH_BY_REGION =
      Map.of(
          "us", "https://api.newrelic.com/graphql",
          "eu", "https://api.eu.newrelic.com/graphql",
          "staging", "https://staging-api.newrelic.com/graphql");

  static final String GRAPHQL =
      "query ($query: Nrql!, $accountId: Int!, $timeout: Seconds!) "
          + "{ actor { account(id: $accountId) { nrql(query: $query, timeout: $timeout) { results } } } }";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * {@code metrics[].provider.newRelic}.
   *
   * @param profile the credentials Secret's name
   * @param query the NRQL query
   * @param timeout the NRQL timeout in seconds
   */
  record Config(
      @JsonProperty("profile") String profile,
      @JsonProperty("query") String query,
      @JsonProperty("timeout") Long timeout) {}

  /** The account settings read from the profile Secret. */
  record Account(String apiKey, long accountId, String endpoint) {}

  private final MetricHttpClient http;
  private final ProviderSecrets secrets;

  /**
   * Creates the provider.
   *
   * @param http the shared HTTP client
   * @param secrets where the profile Secrets are read
   */
  public NewRelicMetricProvider(MetricHttpClient http, ProviderSecrets secrets) {
    this.http = http;
    this.secrets = secrets;
  }

  @Override
  public String type() {
    return "newRelic";
  }

  @Override
  public Future<ProviderResult> run(MeasurementContext ctx) {
    return ProviderConfigs.bind(ctx.metric(), type(), Config.class).compose(this::query);
  }

  private Future<ProviderResult> query(Config config) {
    String profile =
        config.profile() == null || config.profile().isEmpty() ? DEFAULT_PROFILE : config.profile();
    long nrqlTimeout = config.timeout() == null ? DEFAULT_NRQL_TIMEOUT_SECONDS : config.timeout();
    return secrets
        .require(secrets.controllerNamespace(), profile)
        .map(data -> account(profile, data))
        .compose(
            account ->
                http.send(
                    new MetricHttpClient.Call(
                        HttpMethod.POST,
                        account.endpoint(),
                        List.of(
                            Map.entry("Api-Key", account.apiKey()),
                            Map.entry("Content-Type", "application/json")),
                        body(account.accountId(), config.query(), nrqlTimeout),
                        null,
                        false,
                        Duration.ofSeconds(nrqlTimeout).plus(HTTP_MARGIN))))
        .map(r -> parse(r.statusCode(), MetricHttpClient.bodyText(r), config.query()));
  }

  /** Reads the account settings of a profile Secret. */
  static Account account(String profile, Map<String, String> data) {
    String apiKey = data.get("personal-api-key");
    String accountId = data.get("account-id");
    if (apiKey == null || apiKey.isEmpty() || accountId == null || accountId.isEmpty()) {
      throw new MetricProviderException("account ID or personal API key not found");
    }
    long id;
    try {
      id = Long.parseLong(accountId.strip());
    } catch (NumberFormatException e) {
      throw new MetricProviderException(
          "could not parse account ID: \"" + accountId + "\" is not a number");
    }
    String endpoint = data.get("base-url-nerdgraph");
    if (endpoint == null || endpoint.isEmpty()) {
      String region = data.getOrDefault("region", "us").strip().toLowerCase(Locale.ROOT);
      endpoint = NERDGRAPH_BY_REGION.get(region.isEmpty() ? "us" : region);
      if (endpoint == null) {
        throw new MetricProviderException(
            "secret \""
                + profile
                + "\": region \""
                + data.get("region")
                + "\" is not one of us, eu, staging");
      }
    }
    return new Account(apiKey, id, endpoint);
  }

  /** The GraphQL request body. */
  static Buffer body(long accountId, String nrql, long timeoutSeconds) {
    ObjectNode body = JSON.createObjectNode();
    body.put("query", GRAPHQL);
    ObjectNode variables = body.putObject("variables");
    variables.put("accountId", accountId);
    variables.put("query", nrql);
    variables.put("timeout", timeoutSeconds);
    return Buffer.buffer(body.toString());
  }

  /** Reads the NerdGraph answer: GraphQL errors, then the NRQL result rows. */
  static ProviderResult.Value parse(int status, String body, String query) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      root = null;
    }
    String errors = ProviderConfigs.graphQlErrors(root);
    if (errors != null) {
      throw new MetricProviderException("NerdGraph query failed: " + errors);
    }
    if (status / 100 != 2) {
      throw new MetricProviderException(
          "NerdGraph answered " + status + ": " + MetricHttpClient.excerpt(body));
    }
    if (root == null || !root.isObject()) {
      throw new MetricProviderException(
          "could not parse the NerdGraph response: " + MetricHttpClient.excerpt(body));
    }
    JsonNode results = root.path("data").path("actor").path("account").path("nrql").path("results");
    Object rows = GoFormat.numbersAsFloat64(JSON.convertValue(results, Object.class));
    Map<String, String> metadata =
        Map.of(METRIC_RESULT_METADATA_PREFIX + "ResolvedNewRelicQuery", query);
    if (rows instanceof List<?> list
        && list.size() == 1
        && list.get(0) instanceof Map<?, ?> row
        && !row.isEmpty()) {
      return new ProviderResult.Value(row, GoFormat.marshalJson(row), metadata);
    }
    if (rows instanceof List<?> list && list.size() > 1) {
      return new ProviderResult.Value(list, GoFormat.marshalJson(list), metadata);
    }
    throw new MetricProviderException("no results returned from NRQL query");
  }
}
