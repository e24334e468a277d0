package io.rollgate.controller.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.plugin.PluginEntry;
import io.rollgate.plugin.PluginKind;
import io.rollgate.plugin.sdk.StepContext;
import io.rollgate.plugin.sdk.StepPhase;
import io.rollgate.plugin.sdk.StepResult;
import io.vertx.core.Future;
import java.util.Optional;

/**
 * {@link StepPlugins} backed by the {@link PluginHost}: encodes {@code step/run}, {@code
 * step/terminate} and {@code step/abort} requests ({@code {"rollout", "context"}}) and decodes the
 * answers into {@link StepResult}s (docs/plugins.md, "Step plugins"). An answer with an unknown
 * {@code phase} or a {@code requeueAfterSeconds} that is not a number fails the Future with a
 * {@link PluginCallException} naming the plugin and the field.
 */
public final class HostedStepPlugins implements StepPlugins {

  private final PluginHost host;

  /**
   * Creates the step plugins of a host.
   *
   * @param host the plugin host
   */
  public HostedStepPlugins(PluginHost host) {
    this.host = host;
  }

  @Override
  public Optional<PluginEntry> registration(String name) {
    return host.registration(PluginKind.STEP, name);
  }

  @Override
  public Future<StepResult> call(
      String name, StepOperation operation, Rollout rollout, StepContext context) {
    ObjectNode body = ModelJson.mapper().createObjectNode();
    body.set("rollout", ModelJson.toTree(rollout));
    ObjectNode ctx = body.putObject("context");
    ctx.put("pluginName", context.pluginName() == null ? name : context.pluginName());
    ctx.put("stepIndex", context.stepIndex());
    ctx.set("config", context.config() == null ? NullNode.getInstance() : context.config());
    ctx.set("status", context.status() == null ? NullNode.getInstance() : context.status());
    return host.call(PluginKind.STEP, name, operation.path(), body, rollout, context.stepIndex())
        .compose(answer -> decode(name, operation.path(), answer));
  }

  /**
   * Decodes a step answer.
   *
   * @param name the plugin name, for messages
   * @param path the call, for messages
   * @param answer the answer body
   * @return the result; fails with {@link PluginCallException} ({@code BAD_ANSWER}) for an unknown
   *     phase or a non-numeric {@code requeueAfterSeconds}
   */
  static Future<StepResult> decode(String name, String path, JsonNode answer) {
    String error = text(answer, "error");
    JsonNode status = answer.get("status");
    if (status != null && status.isNull()) {
      status = null;
    }
    if (error != null && !error.isEmpty()) {
      return Future.succeededFuture(new StepResult(null, null, null, null, error));
    }
    String phaseText = text(answer, "phase");
    StepPhase phase = null;
    if (phaseText != null && !phaseText.isEmpty()) {
      try {
        phase = StepPhase.valueOf(phaseText);
      } catch (IllegalArgumentException e) {
        return bad(
            name,
            path,
            "phase '" + phaseText + "' is not one of Running, Successful, Failed, Error");
      }
    }
    JsonNode requeue = answer.get("requeueAfterSeconds");
    Long requeueSeconds = null;
    if (requeue != null && !requeue.isNull()) {
      if (!requeue.isNumber()) {
        return bad(name, path, "requeueAfterSeconds must be a number of seconds, got " + requeue);
      }
      requeueSeconds = requeue.asLong();
    }
    return Future.succeededFuture(
        new StepResult(phase, text(answer, "message"), requeueSeconds, status, null));
  }

  private static String text(JsonNode answer, String field) {
    JsonNode n = answer.get(field);
    return n == null || n.isNull() ? null : n.asText();
  }

  private static <T> Future<T> bad(String name, String path, String why) {
    return Future.failedFuture(
        new PluginCallException(
            PluginCallException.Reason.BAD_ANSWER,
            "plugin " + name + ": " + path + " answered a bad " + why));
  }
}
