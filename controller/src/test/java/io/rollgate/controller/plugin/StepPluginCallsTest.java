package io.rollgate.controller.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import io.rollgate.api.ModelJson;
import io.rollgate.plugin.PluginRegistry;
import io.rollgate.plugin.sdk.StepContext;
import io.rollgate.plugin.sdk.StepPhase;
import io.rollgate.plugin.sdk.StepResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Step plugin calls through the host: status round trip, phases, plugin errors, registration
 * lookups.
 */
// Plugin processes are JVMs: on a busy machine a start takes far longer than the default 30 s
// budget.
@io.vertx.junit5.Timeout(value = 3, timeUnit = java.util.concurrent.TimeUnit.MINUTES)
@ExtendWith(VertxExtension.class)
class StepPluginCallsTest {

  @TempDir Path dir;
  PluginHost host;

  @AfterEach
  void tearDown(VertxTestContext t) {
    (host == null ? Future.<Void>succeededFuture() : host.close())
        .onComplete(ar -> t.completeNow());
  }

  private StepPlugins steps(Vertx vertx) {
    host =
        new PluginHost(
            vertx,
            dir,
            Duration.ofSeconds(5),
            Duration.ofSeconds(30),
            "test/argo-rollouts-config",
            null,
            null,
            Clock.systemUTC());
    host.update(
        PluginRegistry.fromConfigMapData(
            Map.of(
                "stepPlugins",
                "- name: test/step\n  location: java:"
                    + InProcessTestStep.class.getName()
                    + "\n- name: test/off\n"
                    + "  location: java:"
                    + InProcessTestStep.class.getName()
                    + "\n  disabled: true\n")));
    return host.stepPlugins();
  }

  @Test
  void runKeepsItsStatusAcrossCalls(Vertx vertx, VertxTestContext t) {
    StepPlugins steps = steps(vertx);
    var rollout = PluginHostTest.request("web").rollout();
    steps
        .call("test/step", StepOperation.RUN, rollout, new StepContext("test/step", 2, null, null))
        .compose(
            r1 ->
                steps
                    .call(
                        "test/step",
                        StepOperation.RUN,
                        rollout,
                        new StepContext("test/step", 2, null, r1.status()))
                    .compose(
                        r2 ->
                            steps
                                .call(
                                    "test/step",
                                    StepOperation.RUN,
                                    rollout,
                                    new StepContext("test/step", 2, null, r2.status()))
                                .map(r3 -> new StepResult[] {r1, r2, r3})))
        .onComplete(
            t.succeeding(
                rs ->
                    t.verify(
                        () -> {
                          assertEquals(StepPhase.Running, rs[0].phase());
                          assertEquals(12L, rs[0].requeueAfterSeconds());
                          assertEquals(IntNode.valueOf(1), rs[0].status());
                          assertEquals(StepPhase.Running, rs[1].phase());
                          assertEquals(StepPhase.Successful, rs[2].phase());
                          assertEquals("done after 3 runs of step 2", rs[2].message());
                          t.completeNow();
                        })));
  }

  @Test
  void failedAndPluginErrorsAreResults(Vertx vertx, VertxTestContext t) {
    StepPlugins steps = steps(vertx);
    var rollout = PluginHostTest.request("web").rollout();
    var config = ModelJson.mapper().createObjectNode().put("fail", true);
    steps
        .call(
            "test/step", StepOperation.RUN, rollout, new StepContext("test/step", 0, config, null))
        .compose(
            failed ->
                steps
                    .call(
                        "test/step",
                        StepOperation.ABORT,
                        rollout,
                        new StepContext("test/step", 0, null, IntNode.valueOf(1)))
                    .map(aborted -> new StepResult[] {failed, aborted}))
        .onComplete(
            t.succeeding(
                rs ->
                    t.verify(
                        () -> {
                          assertEquals(StepPhase.Failed, rs[0].phase());
                          assertEquals("job 1 failed", rs[0].message());
                          assertNull(rs[1].phase());
                          assertEquals("nothing to undo", rs[1].error());
                          t.completeNow();
                        })));
  }

  @Test
  void registrationsAreLookedUpByName(Vertx vertx) {
    StepPlugins steps = steps(vertx);
    assertTrue(steps.registration("test/off").orElseThrow().disabled());
    assertTrue(steps.registration("test/step").isPresent());
    assertTrue(steps.registration("test/none").isEmpty());
  }

  @Test
  void unregisteredStepPluginFailsNamingIt(Vertx vertx, VertxTestContext t) {
    steps(vertx)
        .call(
            "test/none",
            StepOperation.RUN,
            PluginHostTest.request("web").rollout(),
            new StepContext("test/none", 0, null, null))
        .onComplete(
            t.failing(
                err ->
                    t.verify(
                        () -> {
                          assertEquals(
                              "plugin test/none is not available: not registered in test/argo-rollouts-config (stepPlugins)",
                              err.getMessage());
                          t.completeNow();
                        })));
  }
}
