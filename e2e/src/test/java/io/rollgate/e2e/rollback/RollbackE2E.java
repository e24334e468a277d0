package io.rollgate.e2e.rollback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * {@code kubectl argo rollouts undo} and {@code spec.rollbackWindow} (docs/compatibility.md §5.3,
 * §5.10, §7.3, §8.7).
 */
@ExtendWith(RollbackE2E.FailureTracker.class)
class RollbackE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("rollback");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "rollback", "--namespace", ns);
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

  static Rollout awaitHealthyAt(String name, String hash) {
    return rollouts.await(
        name,
        name + " Healthy" + (hash == null ? "" : " at " + hash),
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration())
                && (hash == null || hash.equals(r.getStatus().getStableRS())));
  }

  static Rollout awaitPaused(String name) {
    return rollouts.await(
        name,
        name + " Paused",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Paused".equals(r.getStatus().getPhase())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration()));
  }

  @Test
  void canaryUndoToTheStableReplicaSetMidUpdateSkipsTheSteps() {
    String name = "undo-canary";
    rollouts.create("rollback/canary.yaml", Map.of("NAME", name));
    String v1 = awaitHealthyAt(name, null).getStatus().getStableRS();
    rollouts.setImage(name, "registry.example/app:v2");
    Rollout paused = awaitPaused(name);
    assertEquals(1, paused.getStatus().getCurrentStepIndex());

    assertTrue(rollouts.undo(name, 0), "undo patched the template");

    Rollout back = awaitHealthyAt(name, v1);
    assertEquals(v1, back.getStatus().getCurrentPodHash());
    assertEquals(2, back.getStatus().getCurrentStepIndex(), "steps skipped");
    assertTrue(
        rollouts.eventMessages(name, "SkipSteps").contains("Rollback to stable ReplicaSets"));
    ReplicaSet rs = rollouts.replicaSet(name, v1);
    assertEquals("3", rs.getMetadata().getAnnotations().get("rollout.argoproj.io/revision"));
    assertEquals(
        "1", rs.getMetadata().getAnnotations().get("rollout.argoproj.io/revision-history"));
    assertEquals(
        "registry.example/app:v1",
        rs.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    assertTrue(!rollouts.undo(name, 3), "undo to the current template is a no-op");
  }

  @Test
  void blueGreenRollbackToActiveReplicaSetWithinWindowIsFastTracked() {
    String name = "bg-in";
    create(name, 1);
    String v1 = awaitHealthyAt(name, null).getStatus().getStableRS();
    rollouts.setImage(name, "registry.example/app:v2");
    awaitPaused(name);
    rollouts.promote(name);
    String v2 = awaitHealthyAt(name, null).getStatus().getStableRS();
    assertTrue(!v1.equals(v2));
    assertEquals(
        2, rollouts.specReplicas(name, v1), "previous active kept during scaleDownDelaySeconds");

    assertTrue(rollouts.undo(name, 1));

    rollouts.await(
        name,
        "fast-tracked back to v1 without a pause",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && v1.equals(r.getStatus().getStableRS())
                && "Healthy".equals(r.getStatus().getPhase())
                && (r.getStatus().getPauseConditions() == null
                    || r.getStatus().getPauseConditions().isEmpty()));
    List<String> completed = rollouts.eventMessages(name, "RolloutCompleted");
    assertTrue(
        completed.get(completed.size() - 1).endsWith(": Rollback within window"),
        completed.toString());
    assertTrue(
        rollouts.eventMessages(name, "RolloutPaused").size() == 1,
        "only the v2 update paused: " + rollouts.eventMessages(name, "RolloutPaused"));
  }

  @Test
  void blueGreenRollbackOutsideTheWindowPausesAsAnUpdate() {
    String name = "bg-out";
    create(name, 1);
    awaitHealthyAt(name, null);
    for (String image : new String[] {"registry.example/app:v2", "registry.example/app:v3"}) {
      rollouts.setImage(name, image);
      awaitPaused(name);
      rollouts.promote(name);
      awaitHealthyAt(name, null);
    }
    // scaleDownDelayRevisionLimit 1: revision 1 is scaled down once revision 3 is active.
    rollouts.await(
        name,
        "revision 1 scaled down",
        TIMEOUT,
        r ->
            rollouts.replicaSets(name).stream()
                .anyMatch(
                    rs ->
                        "1"
                                .equals(
                                    rs.getMetadata()
                                        .getAnnotations()
                                        .get("rollout.argoproj.io/revision"))
                            && rs.getSpec().getReplicas() == 0));

    assertTrue(rollouts.undo(name, 1));

    Rollout paused = awaitPaused(name);
    assertEquals("BlueGreenPause", paused.getStatus().getPauseConditions().get(0).getReason());
    assertTrue(
        rollouts.eventMessages(name, "RolloutCompleted").stream()
            .noneMatch(m -> m.endsWith("Rollback within window")));
  }

  @Test
  void canaryRollbackWithinWindowToAScaledDownReplicaSetSkipsStepsAndAnalysis() {
    String name = "canary-in";
    createAll("rollback/canary-window.yaml", Map.of("NAME", name));
    String v1 = awaitHealthyAt(name, null).getStatus().getStableRS();
    List<String> seen = new java.util.ArrayList<>(List.of(v1));
    for (String image :
        new String[] {
          "registry.example/app:v2", "registry.example/app:v3", "registry.example/app:v4"
        }) {
      rollouts.setImage(name, image);
      String hash =
          rollouts
              .await(
                  name,
                  name + " picks up " + image,
                  TIMEOUT,
                  r ->
                      r.getStatus() != null
                          && r.getStatus().getCurrentPodHash() != null
                          && !seen.contains(r.getStatus().getCurrentPodHash()))
              .getStatus()
              .getCurrentPodHash();
      awaitHealthyAt(name, hash);
      seen.add(hash);
    }
    String v2 = seen.get(1);
    assertEquals(3, analysisRuns(name), "one step analysis per update");
    String back = v2;
    rollouts.await(
        name, "revision 2 scaled down", TIMEOUT, r -> rollouts.specReplicas(name, back) == 0);
    assertTrue(!v1.equals(v2));

    // Back to the template of revision 2: its ReplicaSet becomes revision 5; revision 3 alone lies
    // in between.
    rollouts.setImage(name, "registry.example/app:v2");

    Rollout healthy = awaitHealthyAt(name, v2);
    assertEquals(2, healthy.getStatus().getCurrentStepIndex(), "steps skipped");
    assertEquals(3, analysisRuns(name), "fast rollback: no analysis");
    assertEquals(
        "5",
        rollouts
            .replicaSet(name, v2)
            .getMetadata()
            .getAnnotations()
            .get("rollout.argoproj.io/revision"));
    assertEquals(2, rollouts.specReplicas(name, v2));
    List<String> completed = rollouts.eventMessages(name, "RolloutCompleted");
    assertTrue(
        completed.get(completed.size() - 1).endsWith(": Rollback within window"),
        completed.toString());
  }

  static int analysisRuns(String rollout) {
    return (int)
        cluster.client().resources(AnalysisRun.class).inNamespace(ns).list().getItems().stream()
            .filter(
                r ->
                    r.getMetadata().getOwnerReferences() != null
                        && r.getMetadata().getOwnerReferences().stream()
                            .anyMatch(o -> rollout.equals(o.getName())))
            .count();
  }

  static void createAll(String resource, Map<String, String> vars) {
    String yaml = read(resource);
    for (Map.Entry<String, String> e : vars.entrySet()) {
      yaml = yaml.replace("${" + e.getKey() + "}", e.getValue());
    }
    var client = cluster.client();
    for (HasMetadata item :
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(item).inNamespace(ns).create();
    }
  }

  static void create(String name, int window) {
    String yaml =
        read("rollback/bluegreen.yaml")
            .replace("${NAME}", name)
            .replace("${WINDOW}", String.valueOf(window));
    var client = cluster.client();
    for (HasMetadata item :
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(item).inNamespace(ns).create();
    }
  }

  private static String read(String resource) {
    try (InputStream in = RollbackE2E.class.getClassLoader().getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Keeps the namespace of a failed class for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
