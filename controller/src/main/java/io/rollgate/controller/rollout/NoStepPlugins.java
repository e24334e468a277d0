package io.rollgate.controller.rollout;

import io.rollgate.api.Rollout;
import io.rollgate.controller.plugin.StepOperation;
import io.rollgate.controller.plugin.StepPlugins;
import io.rollgate.plugin.PluginEntry;
import io.rollgate.plugin.sdk.StepContext;
import io.rollgate.plugin.sdk.StepResult;
import io.vertx.core.Future;
import java.util.Optional;

/**
 * The step plugins of a controller built without a plugin runtime: none is registered, every call
 * fails.
 */
final class NoStepPlugins implements StepPlugins {

  static final NoStepPlugins INSTANCE = new NoStepPlugins();

  private NoStepPlugins() {}

  @Override
  public Optional<PluginEntry> registration(String name) {
    return Optional.empty();
  }

  @Override
  public Future<StepResult> call(
      String name, StepOperation operation, Rollout rollout, StepContext context) {
    return Future.failedFuture(
        new IllegalStateException("step plugin " + name + " is not registered"));
  }
}
