package io.rollgate.controller.plugin;

import com.fasterxml.jackson.databind.node.IntNode;
import io.rollgate.api.Rollout;
import io.rollgate.plugin.sdk.StepContext;
import io.rollgate.plugin.sdk.StepPlugin;
import io.rollgate.plugin.sdk.StepResult;
import io.vertx.core.Future;

/**
 * A step plugin loaded in-process by the tests: counts its runs in its status, succeeds at the
 * third.
 */
public final class InProcessTestStep implements StepPlugin {

  /** Creates the plugin (ServiceLoader needs a public no-argument constructor). */
  public InProcessTestStep() {}

  @Override
  public Future<StepResult> run(Rollout rollout, StepContext context) {
    int n = context.status() == null ? 1 : context.status().asInt() + 1;
    if (context.config() != null && context.config().path("fail").asBoolean()) {
      return Future.succeededFuture(StepResult.failed("job " + n + " failed", IntNode.valueOf(n)));
    }
    return Future.succeededFuture(
        n >= 3
            ? StepResult.successful(
                "done after " + n + " runs of step " + context.stepIndex(), IntNode.valueOf(n))
            : StepResult.running("run " + n, 12, IntNode.valueOf(n)));
  }

  @Override
  public Future<StepResult> terminate(Rollout rollout, StepContext context) {
    return Future.succeededFuture(StepResult.successful("terminated at " + context.status(), null));
  }

  @Override
  public Future<StepResult> abort(Rollout rollout, StepContext context) {
    return Future.failedFuture("nothing to undo");
  }
}
