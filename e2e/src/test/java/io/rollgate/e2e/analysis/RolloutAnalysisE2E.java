package io.rollgate.e2e.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Argument;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutCondition;
import io.rollgate.api.RolloutStatus;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Canary Rollouts with analysis (docs/compatibility.md §9.8): inline {@code analysis} steps and
 * background analysis, measured by Jobs (the Job provider), observed the way a user sees them: the
 * AnalysisRuns, the Rollout status, its events and ReplicaSets.
 */
@ExtendWith(RolloutAnalysisE2E.FailureTracker.class)
class RolloutAnalysisE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static AnalysisFixtures fixtures;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("analysis");
    rollouts = new Rollouts(cluster.client(), ns);
    fixtures = new AnalysisFixtures(cluster.client(), ns);
    fixtures.createTemplates();
    controller = ControllerProcess.start(cluster, "rollout-analysis", "--namespace", ns);
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (!failed && ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  static Rollout createHealthy(
      String resource, String name, String template, int okLimit, int badLimit) {
    Map<String, String> v = new HashMap<>();
    v.put("NAME", name);
    v.put("TEMPLATE", template);
    v.put("OK_LIMIT", String.valueOf(okLimit));
    v.put("BAD_LIMIT", String.valueOf(badLimit));
    rollouts.create(resource, v);
    return awaitHealthy(name, null);
  }

  /** Waits until the Rollout is Healthy on a stable hash other than {@code notHash}. */
  static Rollout awaitHealthy(String name, String notHash) {
    return rollouts.await(
        name,
        name + " Healthy",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration())
                && r.getStatus().getStableRS() != null
                && r.getStatus().getStableRS().equals(r.getStatus().getCurrentPodHash())
                && !r.getStatus().getStableRS().equals(notHash));
  }

  static Rollout awaitAborted(String name) {
    return rollouts.await(
        name,
        name + " aborted",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && Boolean.TRUE.equals(r.getStatus().getAbort())
                && "Degraded".equals(r.getStatus().getPhase()));
  }

  static RolloutCondition condition(RolloutStatus s, String type) {
    return s.getConditions() == null
        ? null
        : s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
  }

  static String arg(AnalysisRun run, String name) {
    return run.getSpec().getArgs().stream()
        .filter(a -> name.equals(a.getName()))
        .map(Argument::getValue)
        .findFirst()
        .orElse(null);
  }

  static List<Event> events(String name, String reason) {
    return rollouts.events(name).stream()
        .filter(e -> reason.equals(e.getReason()))
        .collect(Collectors.toList());
  }

  @Test
  void stepAnalysisSucceeds_rolloutCompletesWithALabelledOwnedRun() {
    Rollout first = createHealthy("analysis/canary-step.yaml", "ok", "pass", 5, 5);
    assertTrue(fixtures.runs("ok").isEmpty(), "no AnalysisRun on the first deploy");
    rollouts.setImage("ok", "registry.example/app:v2");
    Rollout done = awaitHealthy("ok", first.getStatus().getStableRS());
    String hash = done.getStatus().getCurrentPodHash();
    String runName = "ok-" + hash + "-2-1";
    AnalysisRun run = fixtures.run(runName);
    assertEquals("Successful", AnalysisFixtures.phase(run), "the step's run succeeded");
    Map<String, String> labels = run.getMetadata().getLabels();
    assertEquals(hash, labels.get("rollouts-pod-template-hash"));
    assertEquals("Step", labels.get("rollout-type"));
    assertEquals("1", labels.get("step-index"));
    assertEquals("ok", labels.get("app"), "the Rollout's selector labels are copied");
    assertEquals("smoke", labels.get("purpose"), "analysisRunMetadata.labels");
    assertEquals("2", run.getMetadata().getAnnotations().get("rollout.argoproj.io/revision"));
    assertEquals(
        "payments-team",
        run.getMetadata().getAnnotations().get("owner"),
        "analysisRunMetadata.annotations");
    OwnerReference owner = run.getMetadata().getOwnerReferences().get(0);
    assertEquals("Rollout", owner.getKind());
    assertEquals("ok", owner.getName());
    assertEquals(done.getMetadata().getUid(), owner.getUid());
    assertEquals(Boolean.TRUE, owner.getController());
    assertEquals(hash, arg(run, "hash"), "podTemplateHashValue: Latest");
    assertEquals("payments", arg(run, "team"), "fieldRef metadata.labels['team']");
    assertEquals(1, fixtures.runs("ok").size(), "one run for one analysis step");
    assertTrue(
        rollouts.eventMessages("ok", "AnalysisRunSuccessful").stream()
            .anyMatch(
                m ->
                    m.startsWith(
                        "Step Analysis Run '"
                            + runName
                            + "' Status New: 'Successful' Previous: '")),
        "AnalysisRunSuccessful event: " + rollouts.eventMessages("ok", "AnalysisRunSuccessful"));
    assertTrue(
        rollouts
            .eventMessages("ok", "RolloutStepCompleted")
            .contains("Rollout step 2/3 completed (analysis)"));
    assertNull(
        done.getStatus().getCanary() == null
            ? null
            : done.getStatus().getCanary().getCurrentStepAnalysisRunStatus(),
        "the step's run reference is cleared once the step completed");
  }

  @Test
  void stepAnalysisFails_abortsAutomatically_andRetryCreatesANewRun() {
    Rollout first = createHealthy("analysis/canary-step.yaml", "bad", "fail", 5, 5);
    String stable = first.getStatus().getStableRS();
    rollouts.setImage("bad", "registry.example/app:v2");
    Rollout aborted = awaitAborted("bad");
    String hash = aborted.getStatus().getCurrentPodHash();
    String runName = "bad-" + hash + "-2-1";
    AnalysisRun run = fixtures.run(runName);
    assertEquals("Failed", AnalysisFixtures.phase(run));
    String expected =
        "Rollout aborted update to revision 2: Step-based analysis phase failed: "
            + run.getStatus().getMessage();
    RolloutCondition progressing = condition(aborted.getStatus(), "Progressing");
    assertEquals("RolloutAborted", progressing.getReason());
    assertEquals(expected, progressing.getMessage());
    assertEquals("RolloutAborted: " + expected, aborted.getStatus().getMessage());
    assertEquals(stable, aborted.getStatus().getStableRS(), "stable unchanged");
    assertEquals(
        "Failed", aborted.getStatus().getCanary().getCurrentStepAnalysisRunStatus().getStatus());
    assertEquals(
        runName, aborted.getStatus().getCanary().getCurrentStepAnalysisRunStatus().getName());
    rollouts.await(
        "bad",
        "canary scaled down and stable back at full size",
        TIMEOUT,
        r ->
            rollouts.specReplicas("bad", hash) == 0
                && rollouts.specReplicas("bad", stable) == 2
                && rollouts.availableReplicas("bad", stable) == 2);
    assertTrue(
        events("bad", "RolloutAborted").stream().anyMatch(e -> "Warning".equals(e.getType())),
        "Warning RolloutAborted");
    List<Event> failedEvents = events("bad", "AnalysisRunFailed");
    assertFalse(failedEvents.isEmpty(), "AnalysisRunFailed event");
    assertEquals("Warning", failedEvents.get(0).getType());
    assertTrue(
        failedEvents
            .get(0)
            .getMessage()
            .startsWith("Step Analysis Run '" + runName + "' Status New: 'Failed' Previous: '"));

    rollouts.retry("bad");
    String retryRun = runName + ".1";
    fixtures.awaitRun(retryRun, "the retry creates a new run with a suffix", TIMEOUT, r -> true);
    Rollout again =
        rollouts.await(
            "bad",
            "aborted again by the new run",
            TIMEOUT,
            r ->
                Boolean.TRUE.equals(r.getStatus().getAbort())
                    && r.getStatus().getCanary() != null
                    && r.getStatus().getCanary().getCurrentStepAnalysisRunStatus() != null
                    && retryRun.equals(
                        r.getStatus().getCanary().getCurrentStepAnalysisRunStatus().getName()));
    assertEquals(stable, again.getStatus().getStableRS());
  }

  @Test
  void inconclusiveStepPausesTheRollout_thenPromoteMovesOn() {
    Rollout first = createHealthy("analysis/canary-step.yaml", "unsure", "pending", 5, 5);
    rollouts.setImage("unsure", "registry.example/app:v2");
    Rollout atStep =
        rollouts.await(
            "unsure",
            "at the analysis step",
            TIMEOUT,
            r ->
                Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex())
                    && r.getStatus().getCanary() != null
                    && r.getStatus().getCanary().getCurrentStepAnalysisRunStatus() != null);
    String runName = atStep.getStatus().getCanary().getCurrentStepAnalysisRunStatus().getName();
    assertEquals("unsure-" + atStep.getStatus().getCurrentPodHash() + "-2-1", runName);
    fixtures.failImagePull(runName, TIMEOUT);
    Rollout paused =
        rollouts.await(
            "unsure",
            "paused on the inconclusive run",
            TIMEOUT,
            r ->
                "Paused".equals(r.getStatus().getPhase())
                    && r.getStatus().getPauseConditions() != null
                    && r.getStatus().getPauseConditions().stream()
                        .anyMatch(c -> "InconclusiveAnalysisRun".equals(c.getReason())));
    assertEquals("InconclusiveAnalysisRun", paused.getStatus().getMessage());
    assertEquals(Boolean.TRUE, paused.getStatus().getControllerPause());
    assertEquals(
        "Inconclusive",
        paused.getStatus().getCanary().getCurrentStepAnalysisRunStatus().getStatus());
    assertEquals("Inconclusive", AnalysisFixtures.phase(fixtures.run(runName)));
    assertFalse(Boolean.TRUE.equals(paused.getStatus().getAbort()), "not aborted");
    rollouts.holdsFor(
        "unsure",
        "stays paused at the analysis step",
        Duration.ofSeconds(3),
        r ->
            Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex())
                && "Paused".equals(r.getStatus().getPhase()));

    rollouts.promote("unsure");
    Rollout done = awaitHealthy("unsure", first.getStatus().getStableRS());
    assertEquals(3, done.getStatus().getCurrentStepIndex());
  }

  @Test
  void historyKeepsSuccessfulRunHistoryLimitRuns() {
    Rollout first = createHealthy("analysis/canary-step.yaml", "hist", "pass", 1, 1);
    rollouts.setImage("hist", "registry.example/app:v2");
    Rollout v2 = awaitHealthy("hist", first.getStatus().getStableRS());
    rollouts.setImage("hist", "registry.example/app:v3");
    Rollout v3 = awaitHealthy("hist", v2.getStatus().getStableRS());
    String latest = "hist-" + v3.getStatus().getCurrentPodHash() + "-3-1";
    Awaitility.await("only the newest successful run is kept")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(
            () ->
                fixtures.runs("hist").stream()
                    .map(r -> r.getMetadata().getName())
                    .collect(Collectors.toList())
                    .equals(List.of(latest)));
  }

  @Test
  void backgroundAnalysisFailingMidRollout_abortsTheRollout() {
    Rollout first = createHealthy("analysis/canary-background.yaml", "bgfail", "fail", 5, 5);
    rollouts.setImage("bgfail", "registry.example/app:v2");
    Rollout aborted = awaitAborted("bgfail");
    String hash = aborted.getStatus().getCurrentPodHash();
    String runName = "bgfail-" + hash + "-2";
    AnalysisRun run = fixtures.run(runName);
    assertEquals("Background", run.getMetadata().getLabels().get("rollout-type"));
    assertFalse(run.getMetadata().getLabels().containsKey("step-index"));
    assertEquals(
        "Rollout aborted update to revision 2: Background analysis phase failed: "
            + run.getStatus().getMessage(),
        condition(aborted.getStatus(), "Progressing").getMessage());
    assertEquals(
        runName, aborted.getStatus().getCanary().getCurrentBackgroundAnalysisRunStatus().getName());
    assertEquals(first.getStatus().getStableRS(), aborted.getStatus().getStableRS());
    rollouts.await(
        "bgfail", "canary scaled down", TIMEOUT, r -> rollouts.specReplicas("bgfail", hash) == 0);
  }

  @Test
  void backgroundAnalysisStartsAtStartingStep_andIsTerminatedOnFullPromotion() {
    Rollout first = createHealthy("analysis/canary-background.yaml", "bgfull", "pending", 5, 5);
    rollouts.setImage("bgfull", "registry.example/app:v2");
    Rollout paused =
        rollouts.await(
            "bgfull",
            "paused at step 1 with a background run",
            TIMEOUT,
            r ->
                Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex())
                    && "Paused".equals(r.getStatus().getPhase())
                    && r.getStatus().getCanary() != null
                    && r.getStatus().getCanary().getCurrentBackgroundAnalysisRunStatus() != null);
    String runName =
        paused.getStatus().getCanary().getCurrentBackgroundAnalysisRunStatus().getName();
    assertEquals("bgfull-" + paused.getStatus().getCurrentPodHash() + "-2", runName);
    fixtures.awaitRun(
        runName, "measuring", TIMEOUT, r -> "Running".equals(AnalysisFixtures.phase(r)));
    rollouts.promoteFull("bgfull");
    Rollout done = awaitHealthy("bgfull", first.getStatus().getStableRS());
    assertNotEquals(Boolean.TRUE, done.getStatus().getAbort());
    fixtures.awaitRun(
        runName,
        "terminated after the full promotion",
        TIMEOUT,
        r ->
            Boolean.TRUE.equals(r.getSpec().getTerminate())
                && r.getStatus() != null
                && r.getStatus().getCompletedAt() != null);
  }

  static String scrape() throws Exception {
    var http = java.net.http.HttpClient.newHttpClient();
    var req =
        java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + controller.metricsPort() + "/metrics"))
            .build();
    return http.send(req, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
  }

  @Test
  void metricsDescribeRuns_andForgetDeletedOnes() throws Exception {
    Rollout first = createHealthy("analysis/canary-step.yaml", "met", "pass", 5, 5);
    rollouts.setImage("met", "registry.example/app:v2");
    Rollout done = awaitHealthy("met", first.getStatus().getStableRS());
    String run = "met-" + done.getStatus().getCurrentPodHash() + "-2-1";
    String id = "namespace=\"" + ns + "\",name=\"" + run + "\"";
    Awaitility.await("analysis metrics of " + run)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(
            () -> {
              String text = scrape();
              return text.contains("analysis_run_info{" + id + ",phase=\"Successful\"} 1")
                  && text.contains(
                      "analysis_run_metric_type{" + id + ",metric=\"smoke\",type=\"Job\"} 1")
                  && text.contains(
                      "analysis_run_metric_phase{"
                          + id
                          + ",metric=\"smoke\",type=\"Job\",dry_run=\"false\",phase=\"Successful\"} 1")
                  && text.contains(
                      "analysis_run_metric_phase{"
                          + id
                          + ",metric=\"smoke\",type=\"Job\",dry_run=\"false\",phase=\"Failed\"} 0");
            });
    cluster.client().resources(AnalysisRun.class).inNamespace(ns).withName(run).delete();
    Awaitility.await("series of the deleted run removed")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(() -> !scrape().contains(id));
  }

  @Test
  void missingTemplate_isInvalidSpec() {
    Map<String, String> v = new HashMap<>();
    v.put("NAME", "missing");
    v.put("TEMPLATE", "no-such-template");
    v.put("OK_LIMIT", "5");
    v.put("BAD_LIMIT", "5");
    rollouts.create("analysis/canary-step.yaml", v);
    Rollout r =
        rollouts.await(
            "missing",
            "InvalidSpec",
            TIMEOUT,
            x -> x.getStatus() != null && condition(x.getStatus(), "InvalidSpec") != null);
    assertEquals(
        "The Rollout \"missing\" is invalid: spec.strategy.canary.steps[1].analysis.templates: Invalid value: "
            + "\"templateNames: [no-such-template]\": AnalysisTemplate 'no-such-template' not found",
        condition(r.getStatus(), "InvalidSpec").getMessage());
    assertEquals("Degraded", r.getStatus().getPhase());
  }

  /** Keeps the namespace of a failed class for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
