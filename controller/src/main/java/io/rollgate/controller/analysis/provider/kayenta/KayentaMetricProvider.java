package io.rollgate.controller.analysis.provider.kayenta;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.Measurement;
import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.rollgate.controller.analysis.provider.common.ProviderConfigs;
import io.rollgate.defaults.GoDurations;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * Argo's Kayenta provider ({@code metrics[].provider.kayenta}, docs/compatibility.md §9.7;
 * docs/metric-providers.md): starts a canary judgement and polls it. A measurement looks the canary
 * config up by {@code canaryConfigName} ({@code GET <address>/canaryConfig}), starts the judgement
 * ({@code POST <address>/canary/<configId>} with the scopes and thresholds) and is stored Running
 * with metadata {@code canaryExecutionId}; every 15 seconds after that the reconciler resumes it
 * ({@code GET <address>/canary/<executionId>}) until Kayenta reports it complete. The score ({@code
 * result.judgeResult.score.score}) decides: at least {@code threshold.pass} is Successful, at least
 * {@code threshold.marginal} Inconclusive, below Failed; the value is the score.
 *
 * <p>Scope times: a scope's {@code start}/{@code end} as written, else the measurement window: end
 * = the measurement time, start = one metric {@code interval} earlier, or the run's start with
 * {@code lookback: true}. Every call is bounded by 15 seconds.
 */
public final class KayentaMetricProvider implements MetricProvider {

  /** How long after a start or an incomplete answer the judgement is checked again. */
  static final Duration RESUME_DELAY = Duration.ofSeconds(15);

  /** Bound of one call. */
  static final Duration TIMEOUT = Duration.ofSeconds(15);

  /** The measurement metadata key holding Kayenta's execution id. */
  static final String EXECUTION_ID = "canaryExecutionId";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final MetricHttpClient http;

  /**
   * Creates the provider.
   *
   * @param http the shared HTTP client
   */
  public KayentaMetricProvider(MetricHttpClient http) {
    this.http = http;
  }

  @Override
  public String type() {
    return "kayenta";
  }

  @Override
  public Future<ProviderResult> run(MeasurementContext ctx) {
    return ProviderConfigs.bind(ctx.metric(), type(), KayentaConfig.class)
        .compose(config -> start(ctx, config));
  }

  private Future<ProviderResult> start(MeasurementContext ctx, KayentaConfig config) {
    ObjectNode request =
        judgementRequest(config, runStart(ctx), ctx.now(), ctx.metric().getInterval());
    String address = trim(config.address());
    return get(configListUrl(address, config))
        .map(answer -> configId(answer, config.canaryConfigName()))
        .compose(
            id ->
                http.send(
                    new MetricHttpClient.Call(
                        HttpMethod.POST,
                        startUrl(address, id, config),
                        List.of(Map.entry("Content-Type", "application/json")),
                        Buffer.buffer(request.toString()),
                        null,
                        false,
                        TIMEOUT)))
        .map(KayentaMetricProvider::executionId)
        .map(
            id ->
                new ProviderResult.Running(ctx.now().plus(RESUME_DELAY), Map.of(EXECUTION_ID, id)));
  }

  @Override
  public Future<ProviderResult> resume(MeasurementContext ctx, Measurement running) {
    Map<String, String> metadata = running.getMetadata() == null ? Map.of() : running.getMetadata();
    String id = metadata.get(EXECUTION_ID);
    if (id == null || id.isEmpty()) {
      return Future.failedFuture(new MetricProviderException("measurement has no " + EXECUTION_ID));
    }
    return ProviderConfigs.bind(ctx.metric(), type(), KayentaConfig.class)
        .compose(
            config ->
                get(trim(config.address()) + "/canary/" + segment(id))
                    .map(answer -> judgement(answer, config.threshold(), ctx.now(), metadata)));
  }

  private Future<JsonNode> get(String url) {
    return http.send(
            new MetricHttpClient.Call(
                HttpMethod.GET,
                url,
                List.of(Map.entry("Accept", "application/json")),
                null,
                null,
                false,
                TIMEOUT))
        .map(KayentaMetricProvider::json);
  }

  private static Instant runStart(MeasurementContext ctx) {
    String started = ctx.run().getStatus() == null ? null : ctx.run().getStatus().getStartedAt();
    return started == null || started.isEmpty() ? ctx.now() : Instant.parse(started);
  }

  private static String trim(String address) {
    return address.endsWith("/") ? address.substring(0, address.length() - 1) : address;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** A URL path segment: query encoding, with spaces as {@code %20}. */
  private static String segment(String s) {
    return enc(s).replace("+", "%20");
  }

  static String configListUrl(String address, KayentaConfig c) {
    return address
        + "/canaryConfig?application="
        + enc(c.application())
        + "&configurationAccountName="
        + enc(c.configurationAccountName());
  }

  static String startUrl(String address, String configId, KayentaConfig c) {
    return address
        + "/canary/"
        + segment(configId)
        + "?application="
        + enc(c.application())
        + "&metricsAccountName="
        + enc(c.metricsAccountName())
        + "&configurationAccountName="
        + enc(c.configurationAccountName())
        + "&storageAccountName="
        + enc(c.storageAccountName());
  }

  /**
   * The judgement request body: {@code {scopes: {<name>: {controlScope, experimentScope}},
   * thresholds}}.
   *
   * @param c the configuration
   * @param runStart the run's {@code status.startedAt} (for {@code lookback})
   * @param now the measurement time
   * @param interval the metric's {@code interval}, for scopes without a start
   * @return the body
   */
  static ObjectNode judgementRequest(
      KayentaConfig c, Instant runStart, Instant now, String interval) {
    ObjectNode body = JSON.createObjectNode();
    ObjectNode scopes = body.putObject("scopes");
    for (KayentaConfig.Scope s : c.scopes()) {
      String start = null;
      if (empty(s.controlScope().start())) {
        start = c.lookback() ? rfc3339(runStart) : rfc3339(now.minus(interval(interval)));
      }
      String end = empty(s.controlScope().end()) ? rfc3339(now) : null;
      ObjectNode scope = scopes.putObject(s.name());
      scope.set("controlScope", detail(s.controlScope(), start, end));
      scope.set("experimentScope", detail(s.experimentScope(), start, end));
    }
    body.putObject("thresholds")
        .put("pass", c.threshold().pass())
        .put("marginal", c.threshold().marginal());
    return body;
  }

  private static Duration interval(String interval) {
    return GoDurations.parse(interval == null ? "" : interval)
        .orElseThrow(
            () ->
                new MetricProviderException(
                    "Invalid duration \"" + interval + "\" in the metric's interval"));
  }

  private static ObjectNode detail(KayentaConfig.ScopeDetail d, String start, String end) {
    ObjectNode n = JSON.createObjectNode();
    n.put("scope", d.scope());
    n.put("location", d.region() == null ? "" : d.region());
    n.put("step", d.step());
    String s = empty(d.start()) ? start : d.start();
    String e = empty(d.end()) ? end : d.end();
    if (!empty(s)) {
      n.put("start", s);
    }
    if (!empty(e)) {
      n.put("end", e);
    }
    return n;
  }

  private static boolean empty(String s) {
    return s == null || s.isEmpty();
  }

  private static String rfc3339(Instant t) {
    return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  static JsonNode json(HttpResponse<Buffer> r) {
    String body = MetricHttpClient.bodyText(r);
    if (r.statusCode() != 200) {
      throw new MetricProviderException(
          "Invalid Response: HTTP " + r.statusCode() + " " + MetricHttpClient.excerpt(body));
    }
    try {
      JsonNode node = JSON.readTree(body);
      if (node == null || node.isMissingNode()) {
        throw new MetricProviderException("Invalid Response: empty body");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new MetricProviderException("Invalid Response: " + e.getOriginalMessage());
    }
  }

  static String configId(JsonNode configs, String name) {
    if (!configs.isArray()) {
      throw new MetricProviderException("Invalid Response: the canary config list is not a list");
    }
    for (JsonNode c : configs) {
      if (name.equals(c.path("name").asText(null))) {
        return c.path("id").asText("");
      }
    }
    throw new MetricProviderException("Canary config not found: " + name);
  }

  static String executionId(HttpResponse<Buffer> r) {
    JsonNode id = json(r).path(EXECUTION_ID);
    if (!id.isValueNode() || id.asText("").isEmpty()) {
      throw new MetricProviderException("Invalid canaryExecutionId");
    }
    return id.asText();
  }

  /**
   * Reads a judgement: Running again while incomplete, else the verdict of its score.
   *
   * @param answer Kayenta's execution status
   * @param threshold the pass and marginal scores
   * @param now the time of this check
   * @param metadata the measurement's metadata (kept)
   * @return Running (resume in {@link #RESUME_DELAY}) or the verdict with the score as value
   */
  static ProviderResult judgement(
      JsonNode answer,
      KayentaConfig.Threshold threshold,
      Instant now,
      Map<String, String> metadata) {
    JsonNode complete = answer.path("complete");
    if (!complete.isBoolean()) {
      throw new MetricProviderException("Missing Complete Status");
    }
    if (!complete.asBoolean()) {
      return new ProviderResult.Running(now.plus(RESUME_DELAY), metadata);
    }
    JsonNode score = answer.path("result").path("judgeResult").path("score").path("score");
    if (!score.isNumber()) {
      throw new MetricProviderException("Missing Score");
    }
    long s = (long) score.asDouble();
    String phase =
        s >= threshold.pass()
            ? AnalysisPhase.SUCCESSFUL
            : s >= threshold.marginal() ? AnalysisPhase.INCONCLUSIVE : AnalysisPhase.FAILED;
    return new ProviderResult.Verdict(phase, null, metadata, Long.toString(s));
  }
}
