package io.rollgate.e2e.goplugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.Rollout;
import io.rollgate.api.StepPluginStatus;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.GoPlugins;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Canary {@code plugin} steps run by an unmodified Argo Rollouts Go step plugin: upstream's own e2e
 * step plugin ({@code test/cmd/step-plugin-e2e} of the argo-rollouts module, go-plugin over
 * net/rpc), registered in {@code argo-rollouts-config} as a user would ({@code file://} location
 * and its {@code sha256}). The controller finds out by itself that the binary speaks go-plugin and
 * runs it through {@code rollgate-plugin-bridge} (docs/plugins.md, "Go plugins of Argo Rollouts").
 * The plugin answers with the phase of its config's {@code return} (and {@code abort.return},
 * {@code terminate.return}), requeues after {@code requeue}, and keeps {@code {"Data": <uuid>,
 * "Count": <runs>}} as its status.
 */
@ExtendWith(GoStepPluginE2E.FailureTracker.class)
class GoStepPluginE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(120);
  static final String PLUGIN = "step/e2e-test";

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static Path binary;
  static GoPluginNamespace fx;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    binary = GoPlugins.argoTestPlugin("step-plugin-e2e");
    fx =
        GoPluginNamespace.start(
            "gostep", Map.of("stepPlugins", GoPluginNamespace.registration(PLUGIN, binary)));
    cluster = fx.cluster;
    ns = fx.ns;
    rollouts = fx.rollouts;
    controller = fx.controller;
  }

  @AfterAll
  static void tearDown() {
    GoPluginNamespace.close(fx, failed);
  }

  static String step(String config) {
    return "{plugin: {name: " + PLUGIN + ", config: " + config + "}}";
  }

  /** Creates a Rollout with these steps, waits for its first revision, then updates it. */
  static Rollout createAndUpdate(String name, String... steps) {
    rollouts.create(
        "stepplugins/rollout.yaml",
        Map.of("NAME", name, "STEPS", "[" + String.join(", ", steps) + "]"));
    Rollout first = awaitHealthy(name, null);
    rollouts.setImage(name, "registry.example/app:v2");
    return first;
  }

  static Rollout awaitHealthy(String name, String notHash) {
    return rollouts.await(
        name,
        name + " Healthy",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && r.getStatus().getStableRS() != null
                && r.getStatus().getStableRS().equals(r.getStatus().getCurrentPodHash())
                && !r.getStatus().getStableRS().equals(notHash));
  }

  static List<StepPluginStatus> statuses(Rollout r) {
    return r.getStatus() == null
            || r.getStatus().getCanary() == null
            || r.getStatus().getCanary().getStepPluginStatuses() == null
        ? List.of()
        : r.getStatus().getCanary().getStepPluginStatuses();
  }

  static Optional<StepPluginStatus> status(Rollout r, int index, String operation) {
    return statuses(r).stream()
        .filter(s -> Objects.equals(s.getIndex(), index) && operation.equals(s.getOperation()))
        .findFirst();
  }

  static void assertStatus(StepPluginStatus s, int index, String operation, String phase) {
    assertEquals(PLUGIN, s.getName());
    assertEquals(index, s.getIndex());
    assertEquals(operation, s.getOperation());
    assertEquals(phase, s.getPhase(), s.toString());
  }

  @Test
  void successfulStepsCompleteTheRollout_withThePluginsStatusKept() {
    Rollout first =
        createAndUpdate(
            "successful",
            step("{return: Successful}"),
            "{setWeight: 50}",
            step("{return: Successful}"));
    Rollout done = awaitHealthy("successful", first.getStatus().getStableRS());

    List<StepPluginStatus> all = statuses(done);
    assertEquals(2, all.size(), all.toString());
    assertStatus(all.get(0), 0, "Run", "Successful");
    assertStatus(all.get(1), 2, "Run", "Successful");
    assertEquals(1, all.get(0).getExecutions());
    assertEquals(
        1, all.get(0).getStatus().path("Count").asInt(), all.get(0).getStatus().toString());
    assertFalse(all.get(0).getStatus().path("Data").asText().isEmpty());
    assertTrue(all.get(0).getStartedAt() != null && all.get(0).getFinishedAt() != null);
    // The plugin runs as a child of the bridge, itself a child of the controller.
    List<String> children =
        ProcessHandle.of(controller.pid()).stream()
            .flatMap(ProcessHandle::descendants)
            .map(p -> p.info().commandLine().orElse(""))
            .toList();
    assertTrue(
        children.stream().anyMatch(c -> c.contains("rollgate-plugin-bridge --kind step")),
        children.toString());
  }

  @Test
  void failedStepAbortsTheRollout_andTheExecutedStepsAreAbortedInReverseOrder() {
    Rollout first =
        createAndUpdate(
            "failed", step("{return: Successful}"), step("{return: Failed}"), "{setWeight: 50}");
    Rollout aborted =
        rollouts.await(
            "failed",
            "failed aborted",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && Boolean.TRUE.equals(r.getStatus().getAbort())
                    && status(r, 0, "Abort").isPresent());

    assertEquals(first.getStatus().getStableRS(), aborted.getStatus().getStableRS());
    List<StepPluginStatus> all = statuses(aborted);
    assertEquals(3, all.size(), all.toString());
    assertStatus(all.get(0), 0, "Run", "Successful");
    assertStatus(all.get(1), 1, "Run", "Failed");
    assertStatus(all.get(2), 0, "Abort", "Successful");
    // Argo's message numbers the steps from 1: the plugin step at index 1 is "Step Plugin 2".
    assertTrue(
        aborted.getStatus().getMessage().contains("Step Plugin 2 (" + PLUGIN + ") failed"),
        aborted.getStatus().getMessage());
    rollouts.await(
        "failed", "failed Degraded", TIMEOUT, r -> "Degraded".equals(r.getStatus().getPhase()));
  }

  @Test
  void runningStepIsCalledAgainAfterItsRequeue_withItsStatus_andTerminatedOnFullPromotion() {
    Rollout first =
        createAndUpdate(
            "running",
            step("{return: Running, requeue: 12s, terminate: {return: Successful}}"),
            "{setWeight: 50}");
    Rollout twice =
        rollouts.await(
            "running",
            "running executed twice",
            TIMEOUT,
            r ->
                status(r, 0, "Run")
                    .map(s -> s.getExecutions() != null && s.getExecutions() >= 2)
                    .orElse(false));
    StepPluginStatus run = status(twice, 0, "Run").orElseThrow();
    assertStatus(run, 0, "Run", "Running");
    assertEquals("12s", run.getBackoff());
    // The status the plugin returned is given back to it: its run counter follows the executions.
    assertEquals(
        run.getExecutions().intValue(),
        run.getStatus().path("Count").asInt(),
        run.getStatus().toString());
    assertEquals(0, twice.getStatus().getCurrentStepIndex());

    rollouts.promoteFull("running");
    Rollout done = awaitHealthy("running", first.getStatus().getStableRS());
    StepPluginStatus terminate = status(done, 0, "Terminate").orElseThrow();
    assertStatus(terminate, 0, "Terminate", "Successful");
  }

  @Test
  void abortWhileRunningCallsAbortOnTheRunningStepThenTheEarlierOne() {
    Rollout first =
        createAndUpdate(
            "aborting",
            step("{return: Successful}"),
            step("{return: Running, requeue: 30s}"),
            "{setWeight: 50}");
    rollouts.await(
        "aborting",
        "aborting step 1 Running",
        TIMEOUT,
        r -> status(r, 1, "Run").map(s -> "Running".equals(s.getPhase())).orElse(false));
    rollouts.abort("aborting");
    Rollout aborted =
        rollouts.await(
            "aborting",
            "aborting aborted twice",
            TIMEOUT,
            r -> status(r, 0, "Abort").isPresent() && status(r, 1, "Abort").isPresent());
    List<StepPluginStatus> all = statuses(aborted);
    assertEquals(4, all.size(), all.toString());
    assertStatus(all.get(1), 1, "Run", "Running");
    assertStatus(all.get(2), 1, "Abort", "Successful");
    assertStatus(all.get(3), 0, "Abort", "Successful");
    assertNotEquals(first.getStatus().getCurrentPodHash(), aborted.getStatus().getCurrentPodHash());
    Awaitility.await("StepPluginTransition events")
        .atMost(Duration.ofSeconds(30))
        .until(() -> rollouts.eventMessages("aborting", "StepPluginTransition").size() >= 3);
  }

  /** Keeps the namespace of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
