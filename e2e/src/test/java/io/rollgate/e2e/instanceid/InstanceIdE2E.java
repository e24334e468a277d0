package io.rollgate.e2e.instanceid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Controller sharding with {@code --instance-id}: a controller with an id reconciles only Rollouts
 * labelled {@code argo-rollouts.argoproj.io/controller-instance-id=<id>}, one without an id only
 * Rollouts without that label.
 */
@ExtendWith(InstanceIdE2E.FailureTracker.class)
class InstanceIdE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(60);
  static final String LABELLED_A = "{argo-rollouts.argoproj.io/controller-instance-id: a}";
  static final String UNLABELLED = "{}";

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess instanceA;
  static ControllerProcess noInstance;
  static ControllerLog logA;
  static ControllerLog logNone;

  /** Log lines written before this class started (the log files are appended to). */
  static int fromA;

  static int fromNone;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("instance");
    rollouts = new Rollouts(cluster.client(), ns);
    logA = new ControllerLog(Path.of("target", "controller-instanceid-a.log"));
    logNone = new ControllerLog(Path.of("target", "controller-instanceid-none.log"));
    // A started controller writes its log afresh: its lines start at line 0.
    fromA = 0;
    fromNone = 0;
    instanceA =
        ControllerProcess.start(cluster, "instanceid-a", "--namespace", ns, "--instance-id", "a");
    noInstance = ControllerProcess.start(cluster, "instanceid-none", "--namespace", ns);
    logA.awaitLine(fromA, ControllerLog.SYNCED, TIMEOUT);
    logNone.awaitLine(fromNone, ControllerLog.SYNCED, TIMEOUT);
  }

  @AfterAll
  static void tearDown() {
    if (instanceA != null) {
      instanceA.close();
    }
    if (noInstance != null) {
      noInstance.close();
    }
    if (!failed && ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  @BeforeEach
  void bothControllersRunning() {
    if (!instanceA.isAlive()) {
      int mark = logA.size();
      instanceA.restart();
      logA.awaitLine(mark, ControllerLog.SYNCED, TIMEOUT);
    }
    if (!noInstance.isAlive()) {
      int mark = logNone.size();
      noInstance.restart();
      logNone.awaitLine(mark, ControllerLog.SYNCED, TIMEOUT);
    }
  }

  @Test
  void eachControllerReconcilesOnlyTheRolloutsOfItsInstance() {
    rollouts.create("instanceid/rollout.yaml", Map.of("NAME", "for-a", "LABELS", LABELLED_A));
    rollouts.create("instanceid/rollout.yaml", Map.of("NAME", "for-none", "LABELS", UNLABELLED));
    rollouts.create(
        "instanceid/rollout.yaml",
        Map.of("NAME", "for-b", "LABELS", "{argo-rollouts.argoproj.io/controller-instance-id: b}"));
    awaitHealthy("for-a");
    awaitHealthy("for-none");
    rollouts.holdsFor(
        "for-b",
        "a Rollout of instance b is left alone by both controllers",
        Duration.ofSeconds(3),
        r -> r != null && r.getStatus() == null && rollouts.replicaSets("for-b").isEmpty());
    assertEquals(1, rollouts.replicaSets("for-a").size());
    assertEquals(1, rollouts.replicaSets("for-none").size());

    List<String> aOnA = logA.reconcileLines(fromA, ns, "for-a");
    List<String> noneOnNone = logNone.reconcileLines(fromNone, ns, "for-none");
    assertFalse(
        aOnA.isEmpty(),
        "the instance-a controller reconciled the labelled Rollout (" + logA.file() + ")");
    assertFalse(
        noneOnNone.isEmpty(),
        "the controller without id reconciled the unlabelled Rollout (" + logNone.file() + ")");
    assertEquals(
        List.of(),
        logA.reconcileLines(fromA, ns, "for-none"),
        "instance a left the unlabelled Rollout alone");
    assertEquals(
        List.of(),
        logNone.reconcileLines(fromNone, ns, "for-a"),
        "no-id controller left the labelled Rollout alone");
    assertEquals(List.of(), logA.reconcileLines(fromA, ns, "for-b"));
    assertEquals(List.of(), logNone.reconcileLines(fromNone, ns, "for-b"));
  }

  @Test
  void leavesAnUnlabelledRolloutWithoutStatus_whenOnlyAnInstanceControllerRuns() {
    noInstance.close();
    assertFalse(noInstance.isAlive(), "controller without id stopped");
    Rollout created =
        rollouts.create("instanceid/rollout.yaml", Map.of("NAME", "unowned", "LABELS", UNLABELLED));
    String rv = created.getMetadata().getResourceVersion();

    rollouts.holdsFor(
        "unowned",
        "no status, no write and no ReplicaSet for an unlabelled Rollout",
        Duration.ofSeconds(10),
        r ->
            r != null
                && r.getStatus() == null
                && rv.equals(r.getMetadata().getResourceVersion())
                && rollouts.replicaSets("unowned").isEmpty());
    assertTrue(rollouts.events("unowned").isEmpty(), "no events");
    assertEquals(List.of(), logA.reconcileLines(fromA, ns, "unowned"), "instance a ignored it");

    // The same Rollout is picked up as soon as a controller without id runs again.
    int mark = logNone.size();
    noInstance.restart();
    logNone.awaitLine(mark, ControllerLog.SYNCED, TIMEOUT);
    awaitHealthy("unowned");
  }

  static Rollout awaitHealthy(String name) {
    return rollouts.await(
        name,
        name + " Healthy",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration()));
  }

  /** Keeps the namespace of a failed class for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
