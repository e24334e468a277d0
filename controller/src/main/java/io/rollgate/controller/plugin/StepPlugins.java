package io.rollgate.controller.plugin;

import io.rollgate.api.Rollout;
import io.rollgate.plugin.PluginEntry;
import io.rollgate.plugin.sdk.StepContext;
import io.rollgate.plugin.sdk.StepResult;
import io.vertx.core.Future;
import java.util.Optional;

/**
 * How the Rollout reconciler reaches step plugins, whatever their form (executable, endpoint,
 * in-process).
 *
 * <p>A {@link StepResult} with an {@code error} is a plugin error (docs/compatibility.md §10.4:
 * phase {@code Error}, retried after 30 s). A failed Future is a handled error: the plugin is not
 * registered, could not be fetched or started, or the call failed in transport or timed out; its
 * message names the plugin and the reason.
 */
public interface StepPlugins {

  /**
   * The plugin's current registration in {@code argo-rollouts-config}.
   *
   * @param name the plugin name, {@code <org>/<name>}
   * @return the entry, or empty when no step plugin has that name
   */
  Optional<PluginEntry> registration(String name);

  /**
   * Calls a step plugin operation. Never blocks; bounded by {@code --plugin-call-timeout}.
   *
   * @param name the plugin name, {@code <org>/<name>}
   * @param operation the operation
   * @param rollout the Rollout as stored
   * @param context the step's config and the operation's last plugin status
   * @return the plugin's answer, or a failed Future for a handled error
   */
  Future<StepResult> call(
      String name, StepOperation operation, Rollout rollout, StepContext context);
}
