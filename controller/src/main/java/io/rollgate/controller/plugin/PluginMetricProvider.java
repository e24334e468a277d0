package io.rollgate.controller.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.Measurement;
import io.rollgate.api.ModelJson;
import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.plugin.PluginKind;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code plugin} metric provider ({@code metrics[].provider.plugin: {"<org>/<name>": {...}}},
 * docs/compatibility.md §9.7): each measurement call goes to the metric-provider plugin registered
 * under that name in {@code argo-rollouts-config} ({@code metricProviderPlugins}), as {@code
 * metricprovider/run}, {@code resume}, {@code terminate} or {@code garbageCollect} with the
 * AnalysisRun and the metric (docs/plugins.md, "Metric-provider plugins"). The plugin decides the
 * measurement's phase itself; its value, message and metadata are stored as it answers them. A
 * {@code Running} or {@code Pending} measurement is resumed at its {@code resumeAt} (10 s later
 * when it gives none). A plugin error, a call that cannot be made or a bad answer fails the Future,
 * which is an {@code Error} measurement with that message.
 */
public final class PluginMetricProvider implements MetricProvider {

  /** When a running measurement comes back without a {@code resumeAt}. */
  static final Duration DEFAULT_RESUME = Duration.ofSeconds(10);

  private final PluginHost host;

  /**
   * Creates the provider.
   *
   * @param host the plugin host
   */
  public PluginMetricProvider(PluginHost host) {
    this.host = host;
  }

  @Override
  public String type() {
    return "plugin";
  }

  @Override
  public Future<ProviderResult> run(MeasurementContext ctx) {
    return measure(ctx, "run", null);
  }

  @Override
  public Future<ProviderResult> resume(MeasurementContext ctx, Measurement running) {
    return measure(ctx, "resume", running);
  }

  @Override
  public Future<ProviderResult> terminate(MeasurementContext ctx, Measurement running) {
    return measure(ctx, "terminate", running);
  }

  @Override
  public Future<Void> garbageCollect(MeasurementContext ctx, int keep) {
    String name;
    try {
      name = pluginName(ctx);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    ObjectNode body = body(ctx, null);
    body.put("limit", keep);
    return host.call(
            PluginKind.METRIC_PROVIDER, name, "metricprovider/garbageCollect", body, null, null)
        .compose(
            a -> {
              String error = a.path("error").asText("");
              return error.isEmpty()
                  ? Future.<Void>succeededFuture()
                  : Future.failedFuture("plugin " + name + ": garbageCollect: " + error);
            });
  }

  private Future<ProviderResult> measure(MeasurementContext ctx, String call, Measurement running) {
    String name;
    try {
      name = pluginName(ctx);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return host.call(
            PluginKind.METRIC_PROVIDER,
            name,
            "metricprovider/" + call,
            body(ctx, running),
            null,
            null)
        .compose(answer -> decode(name, call, answer, ctx.now()));
  }

  private static ObjectNode body(MeasurementContext ctx, Measurement running) {
    ObjectNode body = ModelJson.mapper().createObjectNode();
    body.set("analysisRun", ModelJson.toTree(ctx.run()));
    body.set("metric", ModelJson.toTree(ctx.metric()));
    body.set("measurement", running == null ? NullNode.getInstance() : ModelJson.toTree(running));
    return body;
  }

  /**
   * The plugin a metric names: the one key of {@code provider.plugin}.
   *
   * @throws IllegalArgumentException when {@code provider.plugin} is not an object with exactly one
   *     key
   */
  static String pluginName(MeasurementContext ctx) {
    Object raw =
        ctx.metric().getProvider() == null
            ? null
            : ctx.metric().getProvider().getAdditionalProperties().get("plugin");
    JsonNode plugin = raw == null ? null : ModelJson.toTree(raw);
    if (plugin == null || !plugin.isObject() || plugin.size() != 1) {
      throw new IllegalArgumentException(
          "metric "
              + ctx.metric().getName()
              + ": provider.plugin must name exactly one plugin, got "
              + plugin);
    }
    Iterator<String> names = plugin.fieldNames();
    return names.next();
  }

  /**
   * Decodes an answer ({@code {"measurement": {...}, "error": ""}}).
   *
   * @param name the plugin name, for messages
   * @param call the call, for messages
   * @param answer the answer body
   * @param now the measurement time, for a running measurement without {@code resumeAt}
   * @return the result; fails with the plugin's error, or with a {@link PluginCallException}
   *     ({@code BAD_ANSWER}) naming the field that is wrong
   */
  static Future<ProviderResult> decode(String name, String call, JsonNode answer, Instant now) {
    String error = answer.path("error").asText("");
    if (!error.isEmpty()) {
      return Future.failedFuture("plugin " + name + ": " + error);
    }
    JsonNode m = answer.path("measurement");
    if (!m.isObject()) {
      return bad(name, call, "measurement: expected an object, got " + m);
    }
    Map<String, String> metadata = new LinkedHashMap<>();
    m.path("metadata")
        .fields()
        .forEachRemaining(e -> metadata.put(e.getKey(), e.getValue().asText()));
    String phase = m.path("phase").asText("");
    String message = m.path("message").asText(null);
    String value = m.path("value").asText(null);
    switch (phase) {
      case AnalysisPhase.RUNNING, AnalysisPhase.PENDING -> {
        Instant resumeAt = now.plus(DEFAULT_RESUME);
        String at = m.path("resumeAt").asText("");
        if (!at.isEmpty()) {
          try {
            resumeAt = Instant.parse(at);
          } catch (DateTimeParseException e) {
            return bad(name, call, "measurement.resumeAt '" + at + "' is not an RFC 3339 time");
          }
        }
        return Future.succeededFuture(new ProviderResult.Running(resumeAt, metadata));
      }
      case AnalysisPhase.SUCCESSFUL,
          AnalysisPhase.FAILED,
          AnalysisPhase.INCONCLUSIVE,
          AnalysisPhase.ERROR -> {
        return Future.succeededFuture(new ProviderResult.Verdict(phase, message, metadata, value));
      }
      default -> {
        return bad(
            name,
            call,
            "measurement.phase '"
                + phase
                + "' is not one of Pending, Running, Successful,"
                + " Failed, Inconclusive, Error");
      }
    }
  }

  private static <T> Future<T> bad(String name, String call, String why) {
    return Future.failedFuture(
        new PluginCallException(
            PluginCallException.Reason.BAD_ANSWER,
            "plugin " + name + ": " + call + " answered a bad " + why));
  }
}
