package io.rollgate.e2e.stepplugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.rollgate.api.Rollout;
import io.rollgate.api.StepPluginStatus;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.nio.file.Files;
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
 * Canary {@code plugin} steps with the reference plugin {@code ci-job-step} run by the controller
 * as a real process (registered in {@code argo-rollouts-config} with a {@code file://} location)
 * against a local CI server (docs/compatibility.md §10, docs/plugins.md): what the user sees in
 * {@code status.canary.stepPluginStatuses}, the Rollout's phase, message and events, and what the
 * CI server was asked to do.
 */
@ExtendWith(StepPluginE2E.FailureTracker.class)
class StepPluginE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(120);
  static final String CI_JOB = "example/ci-job";
  static final String CI_JOB_TOGGLE = "example/ci-job-toggle";
  static final String CI_JOB_AUTH = "example/ci-job-auth";
  static final int CALL_TIMEOUT_SECONDS = 5;

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static FakeCiServer ci;
  static String launcher;
  static boolean failed;

  @BeforeAll
  static void setUp() throws Exception {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("stepplugins");
    rollouts = new Rollouts(cluster.client(), ns);
    ci = new FakeCiServer();
    Path script =
        Path.of(
            System.getProperty(
                "rollgate.cijob.launcher", "../plugins/ci-job-step/target/ci-job-step"));
    if (!Files.isExecutable(script)) {
      throw new IllegalStateException(
          "plugin launcher not found at " + script + " (run mvn package first)");
    }
    launcher = "file://" + script.toAbsolutePath().normalize();
    writeRegistry(false);
    controller = start();
  }

  static ControllerProcess start() {
    return ControllerProcess.start(
        cluster,
        "stepplugins",
        "--namespace",
        ns,
        "--plugin-config-namespace",
        ns,
        "--plugin-dir",
        Path.of("target", "plugins-stepplugins").toAbsolutePath().toString(),
        "--plugin-call-timeout",
        String.valueOf(CALL_TIMEOUT_SECONDS));
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (ci != null) {
      ci.close();
    }
    if (!failed && ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  /** Registers both plugin names with the same executable; the second one can be disabled. */
  static void writeRegistry(boolean toggleDisabled) {
    String yaml =
        "- name: "
            + CI_JOB
            + "\n  location: "
            + launcher
            + "\n"
            + "- name: "
            + CI_JOB_TOGGLE
            + "\n  location: "
            + launcher
            + "\n  disabled: "
            + toggleDisabled
            + "\n"
            + "- name: "
            + CI_JOB_AUTH
            + "\n  location: "
            + launcher
            + "\n"
            + "  args: [\"--kubeconfig\", \""
            + cluster.kubeconfig().toAbsolutePath()
            + "\"]\n";
    cluster
        .client()
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("argo-rollouts-config")
                .withNamespace(ns)
                .endMetadata()
                .withData(Map.of("stepPlugins", yaml))
                .build())
        .serverSideApply();
  }

  static String pluginStep(String plugin, String job) {
    return "{plugin: {name: "
        + plugin
        + ", config: {url: \""
        + ci.url()
        + "\", job: "
        + job
        + ", pollIntervalSeconds: 11, timeoutSeconds: 60, parameters: {suite: "
        + job
        + "}}}}";
  }

  /**
   * Creates a Rollout with these steps (after a {@code setWeight: 50}), waits for its first
   * revision, then updates it.
   */
  static Rollout createAndUpdate(String name, String... steps) {
    String list = "[{setWeight: 50}, " + String.join(", ", steps) + "]";
    rollouts.create("stepplugins/rollout.yaml", Map.of("NAME", name, "STEPS", list));
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

  static Rollout awaitRunPhase(String name, int index, String phase) {
    return rollouts.await(
        name,
        name + " step " + index + " Run " + phase,
        TIMEOUT,
        r -> status(r, index, "Run").map(s -> phase.equals(s.getPhase())).orElse(false));
  }

  /**
   * Events are recorded after the status write that caused them: wait for one with this reason and
   * message.
   */
  static void awaitEvent(String name, String reason, String message) {
    Awaitility.await(name + " event " + reason + ": " + message)
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> rollouts.eventMessages(name, reason).contains(message));
  }

  static String key(String name) {
    return ns + "/" + name;
  }

  static List<ProcessHandle> pluginProcesses() {
    return ProcessHandle.of(controller.pid()).stream()
        .flatMap(ProcessHandle::descendants)
        .filter(p -> p.info().commandLine().orElse("").contains("rollgate-ci-job-step.jar"))
        .toList();
  }

  @Test
  void jobsRunInStepOrderAndTheRolloutCompletes_withTheJobIdInTheStatus() {
    Rollout first =
        createAndUpdate(
            "ordered", pluginStep(CI_JOB, "ordered-build"), pluginStep(CI_JOB, "ordered-smoke"));
    Rollout done = awaitHealthy("ordered", first.getStatus().getStableRS());

    List<String> log = ci.log(key("ordered"));
    assertEquals(2, log.size(), log.toString());
    assertTrue(
        log.get(0).startsWith("start ordered-build " + key("ordered") + " 1 "), log.toString());
    assertTrue(
        log.get(1).startsWith("start ordered-smoke " + key("ordered") + " 2 "), log.toString());
    StepPluginStatus build = status(done, 1, "Run").orElseThrow();
    assertEquals(CI_JOB, build.getName());
    assertEquals("Successful", build.getPhase());
    assertEquals(1, build.getExecutions());
    assertTrue(
        build.getMessage().contains("ordered-build") && build.getMessage().contains("succeeded"),
        build.getMessage());
    assertEquals(
        log.get(0).substring(log.get(0).lastIndexOf(' ') + 1),
        build.getStatus().path("jobId").asText());
    assertTrue(build.getStartedAt() != null && build.getFinishedAt() != null);
    awaitEvent(
        "ordered", "RolloutStepCompleted", "Rollout step 2/3 completed (plugin: example/ci-job)");
  }

  @Test
  void failedJobAbortsTheRolloutWithArgosMessage() {
    FakeCiServer.Script s = ci.script("failing-tests");
    s.finalState = "failed";
    s.message = "3 tests failed";
    createAndUpdate("failing", pluginStep(CI_JOB, "failing-tests"), "{pause: {}}");
    Rollout aborted =
        rollouts.await(
            "failing",
            "failing aborted",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && Boolean.TRUE.equals(r.getStatus().getAbort())
                    && "Degraded".equals(r.getStatus().getPhase()));

    String jobId = ci.jobs(key("failing")).get(0).id;
    String expected =
        "Step Plugin 2 (example/ci-job) failed: job "
            + jobId
            + " (failing-tests) failed: 3 tests failed";
    assertEquals(
        "RolloutAborted: Rollout aborted update to revision 2: " + expected,
        aborted.getStatus().getMessage());
    StepPluginStatus run = status(aborted, 1, "Run").orElseThrow();
    assertEquals("Failed", run.getPhase());
    awaitEvent(
        "failing",
        "StepPluginTransition",
        "Step plugin example/ci-job (step 2) transitioned to Failed");
    awaitEvent("failing", "RolloutAborted", "Rollout aborted update to revision 2: " + expected);
    // The failed step itself is not aborted again.
    rollouts.holdsFor(
        "failing",
        "no Abort of the failed step",
        Duration.ofSeconds(5),
        r -> status(r, 1, "Abort").isEmpty());
    assertEquals(1, ci.log(key("failing")).size(), ci.log(key("failing")).toString());
  }

  @Test
  void abortCallsTheExecutedPluginStepsInReverseOrder() {
    createAndUpdate(
        "undo",
        pluginStep(CI_JOB, "undo-a"),
        pluginStep(CI_JOB, "undo-b"),
        pluginStep(CI_JOB, "undo-c"),
        "{pause: {}}");
    rollouts.await(
        "undo",
        "undo paused at the last step",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && Integer.valueOf(4).equals(r.getStatus().getCurrentStepIndex())
                && "Paused".equals(r.getStatus().getPhase()));
    rollouts.abort("undo");
    Rollout aborted =
        rollouts.await(
            "undo",
            "three Abort entries",
            TIMEOUT,
            r -> statuses(r).stream().filter(s -> "Abort".equals(s.getOperation())).count() == 3);

    List<String> cancels =
        ci.log(key("undo")).stream().filter(l -> l.startsWith("cancel ")).toList();
    assertEquals(3, cancels.size(), ci.log(key("undo")).toString());
    assertTrue(cancels.get(0).startsWith("cancel undo-c "), cancels.toString());
    assertTrue(cancels.get(1).startsWith("cancel undo-b "), cancels.toString());
    assertTrue(cancels.get(2).startsWith("cancel undo-a "), cancels.toString());
    for (int i = 1; i <= 3; i++) {
      StepPluginStatus abort = status(aborted, i, "Abort").orElseThrow();
      assertEquals("Successful", abort.getPhase());
      assertTrue(abort.getMessage().contains("had already ended"), abort.getMessage());
    }
    // Events are written after the status and carry whole seconds: their set is asserted, the order
    // is the CI log's.
    List<String> abortEvents =
        List.of(
            "Step plugin example/ci-job (step 4) aborted (Successful)",
            "Step plugin example/ci-job (step 3) aborted (Successful)",
            "Step plugin example/ci-job (step 2) aborted (Successful)");
    Awaitility.await("the three abort events")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> rollouts.eventMessages("undo", "StepPluginTransition").containsAll(abortEvents));
    rollouts.holdsFor(
        "undo",
        "abort is never called again",
        Duration.ofSeconds(5),
        r -> statuses(r).stream().filter(s -> "Abort".equals(s.getOperation())).count() == 3);
    assertEquals(3, ci.log(key("undo")).stream().filter(l -> l.startsWith("cancel ")).count());

    // Retry: the leftovers of the aborted attempt are cleared and the jobs run again from the first
    // plugin step.
    rollouts.retry("undo");
    rollouts.await(
        "undo",
        "undo back at the pause after retry",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && Integer.valueOf(4).equals(r.getStatus().getCurrentStepIndex())
                && !Boolean.TRUE.equals(r.getStatus().getAbort())
                && statuses(r).size() == 3
                && statuses(r).stream()
                    .allMatch(
                        s -> "Run".equals(s.getOperation()) && "Successful".equals(s.getPhase())));
    assertEquals(
        6,
        ci.log(key("undo")).stream().filter(l -> l.startsWith("start ")).count(),
        ci.log(key("undo")).toString());
  }

  @Test
  void promoteFullTerminatesTheRunningStepOnce() {
    ci.script("long-suite").hold = true;
    Rollout first = createAndUpdate("full", pluginStep(CI_JOB, "long-suite"), "{pause: {}}");
    awaitRunPhase("full", 1, "Running");
    rollouts.promoteFull("full");
    Rollout done = awaitHealthy("full", first.getStatus().getStableRS());

    StepPluginStatus terminate =
        rollouts
            .await(
                "full", "Terminate recorded", TIMEOUT, r -> status(r, 1, "Terminate").isPresent())
            .getStatus()
            .getCanary()
            .getStepPluginStatuses()
            .stream()
            .filter(s -> "Terminate".equals(s.getOperation()))
            .findFirst()
            .orElseThrow();
    assertEquals("Successful", terminate.getPhase());
    assertTrue(terminate.getMessage().endsWith("cancelled"), terminate.getMessage());
    assertEquals(
        "Running",
        status(done, 1, "Run").orElseThrow().getPhase(),
        "the Run entry stays as it was");
    rollouts.holdsFor(
        "full",
        "terminate is called once",
        Duration.ofSeconds(20),
        r -> ci.log(key("full")).stream().filter(l -> l.startsWith("cancel ")).count() == 1);
    assertEquals(1, ci.jobs(key("full")).size());
    assertTrue(ci.jobs(key("full")).get(0).cancelled, "the CI job was cancelled");
    awaitEvent(
        "full",
        "StepPluginTransition",
        "Step plugin example/ci-job (step 2) terminated (Successful)");
  }

  @Test
  void controllerKilledWhileAStepRuns_resumesTheSameJob() {
    FakeCiServer.Script s = ci.script("restart-suite");
    s.hold = true;
    Rollout first = createAndUpdate("resume", pluginStep(CI_JOB, "restart-suite"));
    Rollout running = awaitRunPhase("resume", 1, "Running");
    String jobId = status(running, 1, "Run").orElseThrow().getStatus().path("jobId").asText();

    List<ProcessHandle> plugins = pluginProcesses();
    controller.kill();
    plugins.forEach(
        ProcessHandle::destroyForcibly); // a killed pod takes its plugin processes with it
    s.hold = false;
    controller = start();

    Rollout done = awaitHealthy("resume", first.getStatus().getStableRS());
    assertEquals(
        List.of("start restart-suite " + key("resume") + " 1 " + jobId),
        ci.log(key("resume")).stream().filter(l -> l.startsWith("start ")).toList(),
        "no second job after the restart");
    StepPluginStatus run = status(done, 1, "Run").orElseThrow();
    assertEquals("Successful", run.getPhase());
    assertEquals(jobId, run.getStatus().path("jobId").asText());
    assertTrue(run.getExecutions() >= 2, "polled after the restart: " + run.getExecutions());
  }

  @Test
  void pluginProcessKilledMidRollout_isStartedAgainAndTheRolloutCompletes() {
    FakeCiServer.Script s = ci.script("crash-suite");
    s.hold = true;
    Rollout first = createAndUpdate("crash", pluginStep(CI_JOB, "crash-suite"));
    awaitRunPhase("crash", 1, "Running");
    List<ProcessHandle> before = pluginProcesses();
    assertTrue(!before.isEmpty(), "the plugin runs as a child of the controller");
    before.forEach(ProcessHandle::destroyForcibly);
    s.hold = false;

    Rollout done = awaitHealthy("crash", first.getStatus().getStableRS());
    assertEquals("Successful", status(done, 1, "Run").orElseThrow().getPhase());
    assertEquals(1, ci.jobs(key("crash")).size(), "the restarted plugin polled the same job");
    List<Long> pidsBefore = before.stream().map(ProcessHandle::pid).toList();
    assertTrue(pluginProcesses().stream().noneMatch(p -> pidsBefore.contains(p.pid())));
    assertTrue(!pluginProcesses().isEmpty(), "a new plugin process serves the calls");
  }

  @Test
  void pluginHangingPastItsTimeout_isAHandledErrorAndTheStepGoesOnLater() {
    FakeCiServer.Script s = ci.script("hanging-suite");
    s.hold = true;
    Rollout first = createAndUpdate("hang", pluginStep(CI_JOB, "hanging-suite"));
    Rollout running = awaitRunPhase("hang", 1, "Running");
    s.hangPolls = true;
    Awaitility.await("a timed-out plugin call reported")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                rollouts.eventMessages("hang", "ReconciliationError").stream()
                    .anyMatch(
                        m ->
                            m.startsWith("Reconciliation failed with error: ")
                                && m.contains(CI_JOB)));
    Rollout during = rollouts.get("hang");
    StepPluginStatus run = status(during, 1, "Run").orElseThrow();
    assertEquals("Running", run.getPhase(), "a timed-out call leaves the step's status as it was");
    assertEquals(status(running, 1, "Run").orElseThrow().getStatus(), run.getStatus());
    assertNotEquals("Degraded", during.getStatus().getPhase());

    s.hangPolls = false;
    s.hold = false;
    ci.releaseHungPolls();
    Rollout done = awaitHealthy("hang", first.getStatus().getStableRS());
    assertEquals("Successful", status(done, 1, "Run").orElseThrow().getPhase());
    assertEquals(1, ci.jobs(key("hang")).size());
  }

  @Test
  void disablingThePluginDuringARunningStepSkipsIt() {
    ci.script("toggled-suite").hold = true;
    Rollout first = createAndUpdate("toggle", pluginStep(CI_JOB_TOGGLE, "toggled-suite"));
    awaitRunPhase("toggle", 1, "Running");
    writeRegistry(true);
    try {
      Rollout done = awaitHealthy("toggle", first.getStatus().getStableRS());
      StepPluginStatus run = status(done, 1, "Run").orElseThrow();
      assertEquals(Boolean.TRUE, run.getDisabled());
      assertNull(run.getPhase());
      assertEquals(1, ci.jobs(key("toggle")).size());
    } finally {
      writeRegistry(false);
    }
  }

  @Test
  void ciServerErrorsAreRetriedUntilItAnswers() {
    FakeCiServer.Script s = ci.script("flaky-suite");
    s.hold = true;
    Rollout first = createAndUpdate("flaky", pluginStep(CI_JOB, "flaky-suite"));
    awaitRunPhase("flaky", 1, "Running");
    s.failWith = 500;
    Rollout erroring = awaitRunPhase("flaky", 1, "Error");
    StepPluginStatus run = status(erroring, 1, "Run").orElseThrow();
    assertTrue(run.getMessage().startsWith("CI server answered 500"), run.getMessage());
    assertEquals("30s", run.getBackoff());
    assertTrue(run.getStatus().path("jobId").isTextual(), "the job id is kept through errors");
    awaitEvent(
        "flaky",
        "StepPluginTransition",
        "Step plugin example/ci-job (step 2) transitioned to Error");
    s.failWith = 0;
    s.hold = false;
    Rollout done = awaitHealthy("flaky", first.getStatus().getStableRS());
    assertEquals("Successful", status(done, 1, "Run").orElseThrow().getPhase());
    assertEquals(1, ci.jobs(key("flaky")).size());
  }

  @Test
  void bearerTokenIsReadFromTheSecretNamedInTheConfig() {
    cluster
        .client()
        .secrets()
        .inNamespace(ns)
        .resource(
            new io.fabric8.kubernetes.api.model.SecretBuilder()
                .withNewMetadata()
                .withName("ci-token")
                .endMetadata()
                .withStringData(Map.of("token", "s3cret-token\n"))
                .build())
        .create();
    String step =
        "{plugin: {name: "
            + CI_JOB_AUTH
            + ", config: {url: \""
            + ci.url()
            + "\", job: auth-suite,"
            + " tokenSecret: {name: ci-token}}}}";
    Rollout first = createAndUpdate("auth", step);
    awaitHealthy("auth", first.getStatus().getStableRS());
    List<FakeCiServer.Job> jobs = ci.jobs(key("auth"));
    assertEquals(1, jobs.size());
    assertEquals("Bearer s3cret-token", jobs.get(0).authorization);
    String log = readLog();
    assertTrue(!log.contains("s3cret-token"), "the token never reaches the controller's log");
  }

  static String readLog() {
    try {
      return Files.readString(controller.log());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Keeps the namespace of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
