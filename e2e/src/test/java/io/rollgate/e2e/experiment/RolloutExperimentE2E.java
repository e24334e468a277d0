package io.rollgate.e2e.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Experiment;
import io.rollgate.api.ExperimentTemplate;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutCondition;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.RouterCrds;
import io.rollgate.e2e.support.TestCluster;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The canary {@code experiment} step (docs/compatibility.md §12.2) on a real API server: the
 * Rollout creates the step's Experiment from its canary and stable pod templates, completes the
 * step when the Experiment succeeds, and aborts when the Experiment's analysis fails.
 */
class RolloutExperimentE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(150);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static Experiments experiments;
  static ControllerProcess controller;
  static boolean keep;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("rollout-experiment");
    rollouts = new Rollouts(cluster.client(), ns);
    experiments = new Experiments(cluster.client(), ns);
    experiments.createTemplates();
    RouterCrds.ensure(cluster.client());
    controller = ControllerProcess.start(cluster, "rollout-experiment", "--namespace", ns);
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

  /**
   * A Rollout whose experiment step runs for {@code duration} (the analysis is not
   * requiredForCompletion).
   */
  static Rollout createHealthy(String name, String template, String duration) {
    rollouts.create(
        "experiment/rollout.yaml",
        Map.of("NAME", name, "TEMPLATE", template, "DURATION", duration));
    return rollouts.await(
        name,
        name + " Healthy",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && r.getStatus().getStableRS() != null);
  }

  @Test
  void experimentStepSucceeds_rolloutCompletes() {
    keep = true;
    Rollout first = createHealthy("ok", "pass", "5s");
    String stable = first.getStatus().getStableRS();
    rollouts.setImage("ok", "registry.example/app:v2");

    Rollout atStep =
        rollouts.await(
            "ok",
            "ok runs its experiment step",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && r.getStatus().getCanary() != null
                    && r.getStatus().getCanary().getCurrentExperiment() != null);
    String hash = atStep.getStatus().getCurrentPodHash();
    String name = "ok-" + hash + "-2-1";
    assertEquals(name, atStep.getStatus().getCanary().getCurrentExperiment());
    assertEquals(Integer.valueOf(1), atStep.getStatus().getCurrentStepIndex());

    Experiment ex =
        experiments.await(
            name,
            "the step's Experiment runs",
            TIMEOUT,
            e -> e.getStatus() != null && "Running".equals(e.getStatus().getPhase()));
    assertEquals("Rollout", ex.getMetadata().getOwnerReferences().get(0).getKind());
    assertEquals(
        atStep.getMetadata().getUid(), ex.getMetadata().getOwnerReferences().get(0).getUid());
    assertEquals(hash, ex.getMetadata().getLabels().get("rollouts-pod-template-hash"));
    assertEquals(
        "payments", ex.getMetadata().getLabels().get("team"), "the Rollout's labels are copied");
    assertEquals("2", ex.getMetadata().getAnnotations().get("rollout.argoproj.io/revision"));
    assertEquals("5s", ex.getSpec().getDuration());
    ExperimentTemplate preview = ex.getSpec().getTemplates().get(0);
    ExperimentTemplate baseline = ex.getSpec().getTemplates().get(1);
    assertEquals(
        "registry.example/app:v2",
        preview.getTemplate().getSpec().getContainers().get(0).getImage(),
        "specRef: canary");
    assertEquals(
        "registry.example/app:v1",
        baseline.getTemplate().getSpec().getContainers().get(0).getImage(),
        "specRef: stable");
    assertEquals(
        Map.of("app", "ok", "experiment-role", "preview"), preview.getSelector().getMatchLabels());
    assertEquals("preview", preview.getTemplate().getMetadata().getLabels().get("experiment-role"));
    assertTrue(baseline.getService() != null, "service requested");
    ReplicaSet previewRs = experiments.replicaSet(name + "-preview");
    assertNotNull(previewRs);
    String previewHash = previewRs.getMetadata().getLabels().get("rollouts-pod-template-hash");
    assertTrue(
        !hash.equals(previewHash) && !stable.equals(previewHash),
        "the experiment's pods carry their own hash");
    AnalysisRun run =
        experiments.awaitRun(name + "-smoke", "the Experiment's analysis run", TIMEOUT, r -> true);
    assertEquals(
        hash,
        run.getSpec().getArgs().stream()
            .filter(a -> "hash".equals(a.getName()))
            .findFirst()
            .orElseThrow()
            .getValue(),
        "podTemplateHashValue: Latest resolved by the Rollout");
    assertEquals(
        "payments",
        run.getSpec().getArgs().stream()
            .filter(a -> "team".equals(a.getName()))
            .findFirst()
            .orElseThrow()
            .getValue());

    Rollout done =
        rollouts.await(
            "ok",
            "ok Healthy on the new revision",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && "Healthy".equals(r.getStatus().getPhase())
                    && hash.equals(r.getStatus().getStableRS()));
    assertEquals("Successful", experiments.get(name).getStatus().getPhase());
    assertTrue(
        rollouts
            .eventMessages("ok", "ExperimentCreated")
            .contains("Created Experiment '" + name + "'"),
        rollouts.eventMessages("ok", "ExperimentCreated").toString());
    assertTrue(
        rollouts
            .eventMessages("ok", "RolloutStepCompleted")
            .contains("Rollout step 2/3 completed (experiment)"),
        rollouts.eventMessages("ok", "RolloutStepCompleted").toString());
    assertEquals(1, experiments.ownedBy("ok").size(), "one Experiment for one experiment step");
    experiments.await(
        name,
        "the Experiment's ReplicaSets are scaled down",
        TIMEOUT,
        e ->
            experiments.replicaSet(name + "-preview").getSpec().getReplicas() == 0
                && experiments.replicaSet(name + "-baseline").getSpec().getReplicas() == 0);
    assertEquals(null, done.getStatus().getAbort());
    keep = false;
  }

  @Test
  void experimentAnalysisFails_rolloutAborts() {
    keep = true;
    // A long duration: the failing analysis, not the end of the duration, decides the phase.
    Rollout first = createHealthy("bad", "fail", "10m");
    String stable = first.getStatus().getStableRS();
    rollouts.setImage("bad", "registry.example/app:v2");

    Rollout aborted =
        rollouts.await(
            "bad",
            "bad aborted",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && Boolean.TRUE.equals(r.getStatus().getAbort())
                    && "Degraded".equals(r.getStatus().getPhase()));
    String hash = aborted.getStatus().getCurrentPodHash();
    String name = "bad-" + hash + "-2-1";
    Experiment ex = experiments.get(name);
    assertEquals("Failed", ex.getStatus().getPhase());
    RolloutCondition progressing =
        aborted.getStatus().getConditions().stream()
            .filter(c -> "Progressing".equals(c.getType()))
            .findFirst()
            .orElseThrow();
    assertEquals("RolloutAborted", progressing.getReason());
    assertEquals(
        "Rollout aborted update to revision 2: Experiment analysis phase is failed: "
            + ex.getStatus().getMessage(),
        progressing.getMessage());
    assertEquals(stable, aborted.getStatus().getStableRS(), "stable unchanged");
    rollouts.await(
        "bad",
        "canary scaled down and stable back at full size",
        TIMEOUT,
        r -> rollouts.specReplicas("bad", hash) == 0 && rollouts.specReplicas("bad", stable) == 2);
    List<String> mirrored = rollouts.eventMessages("bad", "AnalysisRunFailed");
    assertTrue(
        mirrored.stream().anyMatch(m -> m.contains("'" + name + "-smoke'")),
        "the Experiment's AnalysisRunFailed is mirrored on the Rollout: " + mirrored);
    keep = false;
  }

  @Test
  void weightedTemplate_isAnAdditionalIstioDestinationWhileTheExperimentRuns() {
    keep = true;
    String yaml = Experiments.read("experiment/istio.yaml").replace("${NAME}", "wt");
    for (HasMetadata item :
        cluster
            .client()
            .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
            .items()) {
      cluster.client().resource(item).inNamespace(ns).create();
    }
    rollouts.create("experiment/rollout-weighted.yaml", Map.of("NAME", "wt"));
    rollouts.await(
        "wt",
        "wt Healthy",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && r.getStatus().getStableRS() != null);
    rollouts.setImage("wt", "registry.example/app:v2");

    Rollout atStep =
        rollouts.await(
            "wt",
            "wt routes a share to the experiment",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && r.getStatus().getCanary() != null
                    && r.getStatus().getCanary().getWeights() != null
                    && r.getStatus().getCanary().getWeights().getAdditional() != null);
    String name = atStep.getStatus().getCanary().getCurrentExperiment();
    var weights = atStep.getStatus().getCanary().getWeights();
    assertEquals(20, weights.getCanary().getWeight());
    assertEquals(70, weights.getStable().getWeight(), "stable gets 100 - canary - experiment");
    assertEquals(10, weights.getAdditional().get(0).getWeight());
    assertEquals(name + "-preview", weights.getAdditional().get(0).getServiceName());
    JsonNode route =
        awaitRoute("the VirtualService has the experiment destination", r -> r.size() == 3);
    assertEquals(70, weight(route, "wt-stable"));
    assertEquals(20, weight(route, "wt-canary"));
    assertEquals(10, weight(route, name + "-preview"));

    rollouts.await(
        "wt",
        "wt Healthy on the new revision",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && r.getStatus().getStableRS().equals(r.getStatus().getCurrentPodHash()));
    awaitRoute(
        "the experiment destination is removed and the stable takes all traffic",
        r -> r.size() == 2 && weight(r, "wt-stable") == 100);
    assertEquals("Successful", experiments.get(name).getStatus().getPhase());
    keep = false;
  }

  @Test
  void experimentAnalysisArgs_getTheExperimentTemplatesPodTemplateHashes() {
    keep = true;
    rollouts.create(
        "experiment/rollout-placeholders.yaml",
        Map.of("NAME", "tph", "TEMPLATE", "pass", "DURATION", "5s"));
    Rollout first =
        rollouts.await(
            "tph",
            "tph Healthy",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && "Healthy".equals(r.getStatus().getPhase())
                    && r.getStatus().getStableRS() != null);
    String stable = first.getStatus().getStableRS();
    rollouts.setImage("tph", "registry.example/app:v2");

    Rollout atStep =
        rollouts.await(
            "tph",
            "tph runs its experiment step",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && r.getStatus().getCanary() != null
                    && r.getStatus().getCanary().getCurrentExperiment() != null);
    String name = atStep.getStatus().getCanary().getCurrentExperiment();
    AnalysisRun run =
        experiments.awaitRun(name + "-smoke", "the Experiment's analysis run", TIMEOUT, r -> true);
    String previewHash =
        experiments
            .replicaSet(name + "-preview")
            .getMetadata()
            .getLabels()
            .get("rollouts-pod-template-hash");
    String baselineHash =
        experiments
            .replicaSet(name + "-baseline")
            .getMetadata()
            .getLabels()
            .get("rollouts-pod-template-hash");
    assertEquals(previewHash, arg(run, "hash"), "{{templates.preview.podTemplateHash}}");
    assertEquals(baselineHash, arg(run, "team"), "{{templates.baseline.podTemplateHash}}");
    assertTrue(!previewHash.equals(baselineHash), "canary and stable templates differ");
    assertTrue(
        !stable.equals(baselineHash) && !atStep.getStatus().getCurrentPodHash().equals(previewHash),
        "the experiment's pods carry their own hash, not the Rollout's");

    String hash = atStep.getStatus().getCurrentPodHash();
    rollouts.await(
        "tph",
        "tph Healthy on the new revision",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && hash.equals(r.getStatus().getStableRS()));
    assertEquals("Successful", experiments.get(name).getStatus().getPhase());
    keep = false;
  }

  static String arg(AnalysisRun run, String name) {
    return run.getSpec().getArgs().stream()
        .filter(a -> name.equals(a.getName()))
        .findFirst()
        .orElseThrow()
        .getValue();
  }

  static JsonNode awaitRoute(String what, java.util.function.Predicate<JsonNode> condition) {
    JsonNode[] last = new JsonNode[1];
    Awaitility.await(what)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .until(
            () -> {
              GenericKubernetesResource vs =
                  cluster
                      .client()
                      .genericKubernetesResources("networking.istio.io/v1alpha3", "VirtualService")
                      .inNamespace(ns)
                      .withName("wt-vsvc")
                      .get();
              last[0] =
                  new ObjectMapper()
                      .valueToTree(vs)
                      .path("spec")
                      .path("http")
                      .path(0)
                      .path("route");
              return condition.test(last[0]);
            });
    return last[0];
  }

  /** The weight of the destination with this host, -1 when there is none. */
  static int weight(JsonNode route, String host) {
    for (JsonNode d : route) {
      if (host.equals(d.path("destination").path("host").asText())) {
        return d.path("weight").asInt();
      }
    }
    return -1;
  }
}
