package io.rollgate.plugin.sdk;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The answer of a step plugin to {@code run}, {@code terminate} or {@code abort} (Argo Rollouts'
 * {@code RpcStepResult} and {@code RpcError}, docs/compatibility.md §10.2).
 *
 * @param phase the new phase, or null to keep the previous one
 * @param message a human-readable message for the Rollout status, or null
 * @param requeueAfterSeconds when {@code Running}: seconds until the next call (values up to 10
 *     become 30), or null
 * @param status any JSON the plugin keeps for its next call (stored in {@code
 *     stepPluginStatuses[].status}), or null
 * @param error a plugin error (non-empty: the operation is recorded as {@code Error} and retried),
 *     or null
 */
public record StepResult(
    StepPhase phase, String message, Long requeueAfterSeconds, JsonNode status, String error) {

  /**
   * A {@code Running} result.
   *
   * @param message the message
   * @param requeueAfterSeconds seconds until the next call
   * @param status the plugin status to keep
   * @return the result
   */
  public static StepResult running(String message, long requeueAfterSeconds, JsonNode status) {
    return new StepResult(StepPhase.Running, message, requeueAfterSeconds, status, null);
  }

  /**
   * A {@code Successful} result.
   *
   * @param message the message
   * @param status the plugin status to keep
   * @return the result
   */
  public static StepResult successful(String message, JsonNode status) {
    return new StepResult(StepPhase.Successful, message, null, status, null);
  }

  /**
   * A {@code Failed} result.
   *
   * @param message why it failed (it becomes part of the Rollout's abort message)
   * @param status the plugin status to keep
   * @return the result
   */
  public static StepResult failed(String message, JsonNode status) {
    return new StepResult(StepPhase.Failed, message, null, status, null);
  }

  /**
   * A plugin error: the controller records phase {@code Error}, keeps the previous status and
   * retries.
   *
   * @param error what went wrong
   * @return the result
   */
  public static StepResult error(String error) {
    return new StepResult(null, null, null, null, error);
  }
}
