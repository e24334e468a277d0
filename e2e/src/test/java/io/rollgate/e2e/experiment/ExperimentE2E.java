package io.rollgate.e2e.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Experiment;
import io.rollgate.api.TemplateStatus;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Stand-alone Experiments (docs/compatibility.md §12.1) on a real API server: ReplicaSets and a
 * Service per template, an AnalysisRun once every template is available, the phase, the scale-down
 * after the end, the events on the Experiment and the per-Experiment metrics (docs/compatibility.md
 * §14), which disappear with the Experiment.
 */
class ExperimentE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(120);

  static TestCluster cluster;
  static String ns;
  static Experiments experiments;
  static ControllerProcess controller;
  static boolean keep;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("experiment");
    experiments = new Experiments(cluster.client(), ns);
    experiments.createTemplates();
    controller = ControllerProcess.start(cluster, "experiment", "--namespace", ns);
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (ns != null && !keep) {
      cluster.deleteNamespace(ns);
    }
  }

  @Test
  void twoTemplatesWithADuration_succeedAndScaleDown() {
    keep = true;
    experiments.create(
        "experiment/experiment.yaml", Map.of("NAME", "ok", "DURATION", "8s", "TEMPLATE", "pass"));

    Experiment running =
        experiments.await(
            "ok",
            "ok Running with both templates available",
            TIMEOUT,
            e ->
                e.getStatus() != null
                    && "Running".equals(e.getStatus().getPhase())
                    && e.getStatus().getAvailableAt() != null);
    ReplicaSet baseline = experiments.replicaSet("ok-baseline");
    ReplicaSet canary = experiments.replicaSet("ok-canary");
    assertEquals(1, baseline.getSpec().getReplicas());
    assertEquals(2, canary.getSpec().getReplicas());
    assertEquals("ok", baseline.getMetadata().getAnnotations().get("experiment.argoproj.io/name"));
    assertEquals(
        "canary",
        canary.getMetadata().getAnnotations().get("experiment.argoproj.io/template-name"));
    assertEquals("Experiment", canary.getMetadata().getOwnerReferences().get(0).getKind());
    assertEquals(
        running.getMetadata().getUid(), canary.getMetadata().getOwnerReferences().get(0).getUid());
    String hash = canary.getMetadata().getLabels().get("rollouts-pod-template-hash");
    assertNotNull(hash, "pod-template hash label");
    assertEquals(
        hash, canary.getSpec().getSelector().getMatchLabels().get("rollouts-pod-template-hash"));
    TemplateStatus canaryStatus = template(running, "canary");
    assertEquals(hash, canaryStatus.getPodTemplateHash());
    assertEquals("Running", canaryStatus.getStatus());
    assertEquals(2, canaryStatus.getAvailableReplicas());

    Experiment withService =
        experiments.await(
            "ok",
            "the canary template's Service is recorded",
            TIMEOUT,
            e -> template(e, "canary") != null && template(e, "canary").getServiceName() != null);
    assertEquals("ok-canary", template(withService, "canary").getServiceName());
    Service svc = cluster.client().services().inNamespace(ns).withName("ok-canary").get();
    assertEquals(
        Map.of("app", "ok", "role", "canary", "rollouts-pod-template-hash", hash),
        svc.getSpec().getSelector());
    assertEquals(8080, svc.getSpec().getPorts().get(0).getPort());
    assertNull(
        template(withService, "baseline").getServiceName(),
        "no Service without templates[].service");

    AnalysisRun run =
        experiments.awaitRun("ok-smoke", "the analysis run exists", TIMEOUT, r -> true);
    assertEquals("Experiment", run.getMetadata().getOwnerReferences().get(0).getKind());
    assertEquals(
        "experiment", run.getMetadata().getLabels().get("purpose"), "analysisRunMetadata.labels");
    assertEquals(
        "payments",
        run.getSpec().getArgs().stream()
            .filter(a -> "team".equals(a.getName()))
            .findFirst()
            .orElseThrow()
            .getValue());

    Experiment done =
        experiments.await(
            "ok",
            "ok Successful",
            TIMEOUT,
            e -> e.getStatus() != null && "Successful".equals(e.getStatus().getPhase()));
    assertEquals("Successful", template(done, "baseline").getStatus());
    assertEquals("Successful", template(done, "canary").getStatus());
    experiments.await(
        "ok",
        "ReplicaSets scaled down and Service deleted after the end",
        TIMEOUT,
        e ->
            experiments.replicaSet("ok-baseline").getSpec().getReplicas() == 0
                && experiments.replicaSet("ok-canary").getSpec().getReplicas() == 0
                && cluster.client().services().inNamespace(ns).withName("ok-canary").get() == null);
    assertTrue(
        experiments.eventReasons("ok").contains("TemplateRunning"),
        experiments.eventReasons("ok").toString());
    assertTrue(
        experiments.eventReasons("ok").contains("TemplateSuccessful"),
        experiments.eventReasons("ok").toString());
    keep = false;
  }

  @Test
  void failingAnalysis_failsTheExperimentAndScalesDown() {
    keep = true;
    experiments.create(
        "experiment/experiment.yaml", Map.of("NAME", "bad", "DURATION", "10m", "TEMPLATE", "fail"));

    Experiment failed =
        experiments.await(
            "bad",
            "bad Failed",
            TIMEOUT,
            e -> e.getStatus() != null && "Failed".equals(e.getStatus().getPhase()));
    assertTrue(
        failed.getStatus().getMessage().startsWith("AnalysisRun 'bad-smoke' Failed"),
        failed.getStatus().getMessage());
    assertEquals("Failed", failed.getStatus().getAnalysisRuns().get(0).getPhase());
    experiments.await(
        "bad",
        "ReplicaSets scaled down",
        TIMEOUT,
        e ->
            experiments.replicaSet("bad-baseline").getSpec().getReplicas() == 0
                && experiments.replicaSet("bad-canary").getSpec().getReplicas() == 0);
    Experiment after = experiments.get("bad");
    assertEquals(
        "Successful", template(after, "baseline").getStatus(), "the templates themselves ran fine");
    assertEquals("Failed", after.getStatus().getPhase(), "a completed phase does not change");
    Event event =
        experiments.events("bad").stream()
            .filter(e -> "AnalysisRunFailed".equals(e.getReason()))
            .findFirst()
            .orElse(null);
    assertNotNull(event, "AnalysisRunFailed event: " + experiments.eventReasons("bad"));
    assertEquals("Warning", event.getType());
    keep = false;
  }

  @Test
  void invalidSpec_isReportedWithoutCreatingAnything() {
    keep = true;
    experiments.create(
        "experiment/experiment.yaml",
        Map.of("NAME", "broken", "DURATION", "soon", "TEMPLATE", "pass"));

    Experiment broken =
        experiments.await(
            "broken",
            "broken Error",
            TIMEOUT,
            e -> e.getStatus() != null && "Error".equals(e.getStatus().getPhase()));
    assertTrue(
        broken.getStatus().getMessage().contains("spec.duration: Invalid value: \"soon\""),
        broken.getStatus().getMessage());
    assertEquals("InvalidSpec", broken.getStatus().getConditions().get(0).getType());
    assertNull(
        cluster.client().apps().replicaSets().inNamespace(ns).withName("broken-baseline").get());
    keep = false;
  }

  @Test
  void metricsFollowTheExperiment_andDisappearWhenItIsDeleted() {
    keep = true;
    experiments.create(
        "experiment/experiment.yaml",
        Map.of("NAME", "metered", "DURATION", "3s", "TEMPLATE", "pass"));
    experiments.await(
        "metered",
        "metered Successful",
        TIMEOUT,
        e -> e.getStatus() != null && "Successful".equals(e.getStatus().getPhase()));
    String labels = "namespace=\"" + ns + "\",name=\"metered\"";
    Awaitility.await("experiment series")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              String text = scrape();
              assertEquals(
                  1.0, sample(text, "experiment_info{" + labels + ",phase=\"Successful\"}"));
              assertEquals(
                  1.0, sample(text, "experiment_phase{" + labels + ",phase=\"Successful\"}"));
              assertEquals(0.0, sample(text, "experiment_phase{" + labels + ",phase=\"Running\"}"));
              assertTrue(
                  sample(text, "experiment_reconcile_count{" + labels + "}") >= 1,
                  "reconciles counted");
              assertNotNull(
                  sample(text, "experiment_reconcile_error{" + labels + "}"),
                  "error counter exposed");
              assertNotNull(
                  sample(text, "experiment_reconcile_bucket{" + labels + ",le=\"0.01\"}"),
                  "histogram buckets");
              assertTrue(
                  text.contains("rollgate_workqueue_depth{queue=\"Experiment\"}"),
                  "Experiment work queue");
            });

    cluster.client().resources(Experiment.class).inNamespace(ns).withName("metered").delete();
    Awaitility.await("series of the deleted Experiment are gone")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> !scrape().contains("name=\"metered\""));
    assertFalse(scrape().contains("name=\"metered\""));
    keep = false;
  }

  @Test
  void analysisArgs_getEachTemplatesPodTemplateHashAndReplicaSetName() {
    keep = true;
    experiments.create("experiment/experiment-placeholders.yaml", Map.of("NAME", "hashes"));

    AnalysisRun run =
        experiments.awaitRun("hashes-smoke", "the analysis run exists", TIMEOUT, r -> true);
    String canaryHash =
        experiments
            .replicaSet("hashes-canary")
            .getMetadata()
            .getLabels()
            .get("rollouts-pod-template-hash");
    assertNotNull(canaryHash);
    assertEquals(canaryHash, arg(run, "hash"), "{{templates.canary.podTemplateHash}}");
    assertEquals("hashes-baseline", arg(run, "team"), "{{ templates.baseline.replicaset.name }}");
    experiments.await(
        "hashes",
        "hashes Successful",
        TIMEOUT,
        e -> e.getStatus() != null && "Successful".equals(e.getStatus().getPhase()));
    keep = false;
  }

  @Test
  void serviceWithoutContainerPorts_isNotCreatedAndTheExperimentCarriesOn() {
    keep = true;
    experiments.create("experiment/experiment-placeholders.yaml", Map.of("NAME", "noport"));

    Experiment running =
        experiments.await(
            "noport",
            "noport Running with both templates available",
            TIMEOUT,
            e ->
                e.getStatus() != null
                    && "Running".equals(e.getStatus().getPhase())
                    && e.getStatus().getAvailableAt() != null);
    assertEquals("Running", template(running, "baseline").getStatus());
    assertNull(template(running, "baseline").getServiceName());
    Experiment done =
        experiments.await(
            "noport",
            "noport Successful",
            TIMEOUT,
            e -> e.getStatus() != null && "Successful".equals(e.getStatus().getPhase()));
    assertEquals(
        "Successful",
        template(done, "baseline").getStatus(),
        String.valueOf(template(done, "baseline").getMessage()));
    assertNull(template(done, "baseline").getServiceName());
    assertNull(
        cluster.client().services().inNamespace(ns).withName("noport-baseline").get(),
        "no Service without a port");
    assertFalse(
        experiments.eventReasons("noport").contains("TemplateError"),
        experiments.eventReasons("noport").toString());
    keep = false;
  }

  static String arg(AnalysisRun run, String name) {
    return run.getSpec().getArgs().stream()
        .filter(a -> name.equals(a.getName()))
        .findFirst()
        .orElseThrow()
        .getValue();
  }

  static TemplateStatus template(Experiment e, String name) {
    if (e.getStatus() == null || e.getStatus().getTemplateStatuses() == null) {
      return null;
    }
    return e.getStatus().getTemplateStatuses().stream()
        .filter(t -> name.equals(t.getName()))
        .findFirst()
        .orElse(null);
  }

  static String scrape() {
    return Experiments.httpGet(controller.metricsPort(), "/metrics");
  }

  /** The value of the sample line starting with {@code series}, or null when absent. */
  static Double sample(String exposition, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(exposition);
    return m.find() ? Double.valueOf(m.group(1)) : null;
  }
}
