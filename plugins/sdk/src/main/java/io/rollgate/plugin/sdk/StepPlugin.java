package io.rollgate.plugin.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.Rollout;
import io.vertx.core.Future;

/**
 * A step plugin: the logic behind a canary step {@code plugin: {name, config}}
 * (docs/compatibility.md §10, docs/plugins.md).
 *
 * <p>Every method returns at once with a Future. A failed Future is a plugin error (the controller
 * records phase {@code Error} and retries). {@link #run} must be idempotent: after a controller
 * restart it is called again with the stored status and must continue, not restart, the work.
 */
public interface StepPlugin {

  /**
   * Prepares the plugin; called once after start, before any other call.
   *
   * @return a Future completing when ready; a failure counts as a failed start
   */
  default Future<Void> init() {
    return Future.succeededFuture();
  }

  /**
   * A short description for logs.
   *
   * @return the type, for example {@code ci-job}
   */
  default String type() {
    return getClass().getSimpleName();
  }

  /**
   * The JSON Schema (draft 2020-12) that a step's {@code plugin.config} must match.
   *
   * @return the schema, or null when the plugin declares none
   */
  default JsonNode configSchema() {
    return null;
  }

  /**
   * Runs (or continues) the step.
   *
   * @param rollout the Rollout as stored
   * @param context the step's config and this operation's last status
   * @return the result
   */
  Future<StepResult> run(Rollout rollout, StepContext context);

  /**
   * Stops a running step because the Rollout was fully promoted (called once, never retried).
   *
   * @param rollout the Rollout as stored
   * @param context the step's config and the last status of {@code run}
   * @return the result; {@code Running} is taken as {@code Failed}
   */
  Future<StepResult> terminate(Rollout rollout, StepContext context);

  /**
   * Undoes a step because the Rollout was aborted (called once, never retried, in reverse step
   * order).
   *
   * @param rollout the Rollout as stored
   * @param context the step's config and the last status of {@code run}
   * @return the result; {@code Running} is taken as {@code Failed}
   */
  Future<StepResult> abort(Rollout rollout, StepContext context);
}
