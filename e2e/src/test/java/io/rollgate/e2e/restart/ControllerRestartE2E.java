package io.rollgate.e2e.restart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Labels;
import io.rollgate.api.PauseCondition;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.FaultReport;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The controller is killed with SIGKILL in the middle of an update and started again: everything it
 * needs is in the cluster, so the new process carries on from the stored status without duplicating
 * ReplicaSets or losing a pause or a user's promote.
 */
@ExtendWith(ControllerRestartE2E.FailureTracker.class)
class ControllerRestartE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(60);

  /**
   * How long a restarted controller is watched to make sure it does not move a paused Rollout on
   * its own.
   */
  static final Duration STILL_PAUSED = Duration.ofSeconds(3);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static ControllerLog log;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("restart");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "restart", "--namespace", ns);
    log = ControllerLog.of(controller);
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

  /** A test that failed half-way may have left the controller killed. */
  @BeforeEach
  void controllerRunning() {
    if (!controller.isAlive()) {
      restartAndAwaitSynced();
    }
  }

  // -----------------------------------------------------------------------------------------------------------------

  @Test
  void pausedRolloutStaysAtItsStepAcrossSigkillAndPromotesToHealthy() {
    createHealthy("paused", 4, 25);
    String v1 = rollouts.status("paused").getStableRS();
    rollouts.setImage("paused", "registry.example/app:v2");
    RolloutStatus before = awaitPausedWithSplit("paused", 1, 1, 3).getStatus();
    String v2 = before.getCurrentPodHash();
    PauseCondition pause = before.getPauseConditions().get(0);
    List<String> rsNamesBefore = names(rollouts.replicaSets("paused"));

    controller.kill();
    assertFalse(controller.isAlive(), "controller killed");
    restartAndAwaitSynced();

    Rollout after =
        rollouts.holdsFor(
            "paused",
            "still paused at step 1 with the same pause after the restart",
            STILL_PAUSED,
            r ->
                "Paused".equals(r.getStatus().getPhase())
                    && Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex())
                    && r.getStatus().getPauseConditions() != null
                    && r.getStatus().getPauseConditions().size() == 1
                    && pause
                        .getStartTime()
                        .equals(r.getStatus().getPauseConditions().get(0).getStartTime())
                    && Boolean.TRUE.equals(r.getStatus().getControllerPause())
                    && rollouts.specReplicas("paused", v2) == 1
                    && rollouts.specReplicas("paused", v1) == 3);
    assertEquals("CanaryPauseStep", after.getStatus().getPauseConditions().get(0).getReason());
    assertEquals(v1, after.getStatus().getStableRS());
    assertEquals(v2, after.getStatus().getCurrentPodHash());
    assertEquals(
        rsNamesBefore,
        names(rollouts.replicaSets("paused")),
        "no ReplicaSet created or deleted by the restart");
    assertCountersMatchReplicaSets("paused", after);

    rollouts.promote("paused");
    awaitPausedWithSplit("paused", 3, 3, 2);
    rollouts.promote("paused");
    Rollout done = awaitHealthy("paused");
    assertEquals(v2, done.getStatus().getStableRS());
    assertEquals(4, done.getStatus().getCurrentStepIndex());
    assertOneReplicaSetPerTemplate("paused", 2);
    rollouts.await(
        "paused", "v1 scaled to 0", TIMEOUT, r -> rollouts.specReplicas("paused", v1) == 0);
    assertFullSizeCounters(awaitHealthy("paused"), 4);
  }

  @Test
  void convergesWithoutDuplicateReplicaSets_whenKilledRightAfterTheImageChange() {
    createHealthy("instant", 4, 25);
    String v1 = rollouts.status("instant").getStableRS();
    rollouts.setImage("instant", "registry.example/app:v2");
    controller.kill();
    String atKill = rollouts.describeReplicaSets("instant");
    restartAndAwaitSynced();

    Rollout paused = awaitPausedWithSplit("instant", 1, 1, 3);
    assertNotEquals(
        v1, paused.getStatus().getCurrentPodHash(), "ReplicaSets when killed: " + atKill);
    assertEquals(v1, paused.getStatus().getStableRS());
    assertOneReplicaSetPerTemplate("instant", 2);
    assertNull(paused.getStatus().getCollisionCount(), "no hash collision");
    assertCountersMatchReplicaSets("instant", paused);

    rollouts.promoteFull("instant");
    Rollout done = awaitHealthy("instant");
    assertEquals(paused.getStatus().getCurrentPodHash(), done.getStatus().getStableRS());
    assertOneReplicaSetPerTemplate("instant", 2);
  }

  @Test
  void convergesWithoutDuplicateReplicaSets_whenKilledWhileTheCanaryScalesUp() {
    createHealthy("midway", 10, 30);
    String v1 = rollouts.status("midway").getStableRS();
    rollouts.setImage("midway", "registry.example/app:v2");
    // With maxSurge 1 and maxUnavailable 0 the 3 canary pods come one at a time, each after a
    // stable pod went away:
    // the kill lands after the first canary pod and before the third.
    Awaitility.await("canary scaled to its first pod")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(20))
        .ignoreExceptions()
        .until(
            () ->
                rollouts.replicaSets("midway").stream()
                    .anyMatch(
                        rs ->
                            !v1.equals(rs.getMetadata().getLabels().get(Labels.POD_TEMPLATE_HASH))
                                && rs.getSpec().getReplicas() >= 1));
    controller.kill();
    ReplicaSet canaryAtKill =
        rollouts.replicaSets("midway").stream()
            .filter(rs -> !v1.equals(rs.getMetadata().getLabels().get(Labels.POD_TEMPLATE_HASH)))
            .findFirst()
            .orElseThrow();
    assertTrue(
        canaryAtKill.getSpec().getReplicas() < 3,
        "killed before the canary was fully scaled: " + rollouts.describeReplicaSets("midway"));
    restartAndAwaitSynced();

    Rollout paused = awaitPausedWithSplit("midway", 1, 3, 7);
    assertEquals(
        canaryAtKill.getMetadata().getLabels().get(Labels.POD_TEMPLATE_HASH),
        paused.getStatus().getCurrentPodHash());
    assertEquals(
        canaryAtKill.getMetadata().getUid(),
        rollouts
            .replicaSet("midway", paused.getStatus().getCurrentPodHash())
            .getMetadata()
            .getUid(),
        "the same canary ReplicaSet object");
    assertOneReplicaSetPerTemplate("midway", 2);
    assertNull(paused.getStatus().getCollisionCount(), "no hash collision");
    assertCountersMatchReplicaSets("midway", paused);

    rollouts.promoteFull("midway");
    awaitHealthy("midway");
    rollouts.await(
        "midway", "v1 scaled to 0", TIMEOUT, r -> rollouts.specReplicas("midway", v1) == 0);
    assertOneReplicaSetPerTemplate("midway", 2);
    assertFullSizeCounters(awaitHealthy("midway"), 10);
  }

  @Test
  void promoteAppliedWhileTheControllerIsDownIsHonouredAfterRestart() {
    createHealthy("offline-promote", 4, 25);
    rollouts.setImage("offline-promote", "registry.example/app:v2");
    awaitPausedWithSplit("offline-promote", 1, 1, 3);

    controller.kill();
    rollouts.promote("offline-promote");
    RolloutStatus whileDown = rollouts.status("offline-promote");
    assertNull(whileDown.getPauseConditions(), "promote removed the pause condition");
    assertEquals(Boolean.TRUE, whileDown.getControllerPause());
    restartAndAwaitSynced();

    // The removed pause condition with controllerPause still true reads as "resumed by the user":
    // the pause step
    // completes, setWeight 60 is applied and the Rollout stops at the next pause (not again at step
    // 1).
    Rollout next = awaitPausedWithSplit("offline-promote", 3, 3, 2);
    assertStepEvents(
        "offline-promote",
        "Rollout step 2/4 completed (pause)",
        "Rollout step 3/4 completed (setWeight: 60)");
    assertOneReplicaSetPerTemplate("offline-promote", 2);
    assertCountersMatchReplicaSets("offline-promote", next);

    rollouts.promote("offline-promote");
    Rollout done = awaitHealthy("offline-promote");
    assertEquals(next.getStatus().getCurrentPodHash(), done.getStatus().getStableRS());
  }

  @Test
  void abortAppliedWhileTheControllerIsDownIsHonouredAfterRestart() {
    createHealthy("offline-abort", 4, 25);
    String v1 = rollouts.status("offline-abort").getStableRS();
    rollouts.setImage("offline-abort", "registry.example/app:v2");
    String v2 = awaitPausedWithSplit("offline-abort", 1, 1, 3).getStatus().getCurrentPodHash();

    controller.kill();
    rollouts.abort("offline-abort");
    restartAndAwaitSynced();

    Rollout aborted =
        rollouts.await(
            "offline-abort",
            "aborted and rolled back after the restart",
            TIMEOUT,
            r ->
                "Degraded".equals(r.getStatus().getPhase())
                    && rollouts.specReplicas("offline-abort", v2) == 0
                    && rollouts.specReplicas("offline-abort", v1) == 4
                    && rollouts.availableReplicas("offline-abort", v1) == 4);
    assertEquals(Boolean.TRUE, aborted.getStatus().getAbort());
    assertEquals(0, aborted.getStatus().getCurrentStepIndex());
    assertNull(aborted.getStatus().getPauseConditions());
    assertOneReplicaSetPerTemplate("offline-abort", 2);
  }

  @Test
  void timedPauseRunningAtTheKillEndsOnItsOwnAfterRestartWithoutStartingOver() {
    rollouts.create("restart/timed-pause.yaml", Map.of("NAME", "timed"));
    awaitHealthy("timed");
    rollouts.setImage("timed", "registry.example/app:v2");
    Rollout paused =
        rollouts.await(
            "timed",
            "timed pause started",
            TIMEOUT,
            r ->
                "Paused".equals(r.getStatus().getPhase())
                    && Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex()));
    String startTime = paused.getStatus().getPauseConditions().get(0).getStartTime();

    controller.kill();
    restartAndAwaitSynced();

    RolloutStatus afterRestart = rollouts.status("timed");
    if (afterRestart.getPauseConditions() != null && !afterRestart.getPauseConditions().isEmpty()) {
      assertEquals(
          startTime,
          afterRestart.getPauseConditions().get(0).getStartTime(),
          "the pause did not start over");
    }
    // No promote: the restarted controller still ends the 8 s pause.
    Rollout done = awaitHealthy("timed");
    assertEquals(done.getStatus().getCurrentPodHash(), done.getStatus().getStableRS());
    assertEquals(2, done.getStatus().getCurrentStepIndex());
    // The event of the first pause may be lost with the killed process (events are written after
    // the status); what matters is that the restarted controller did not pause a second time.
    assertTrue(
        rollouts.eventMessages("timed", "RolloutPaused").size() <= 1,
        "paused once, not again by the restarted controller: "
            + rollouts.eventMessages("timed", "RolloutPaused"));
    assertStepEvents("timed", "Rollout step 2/2 completed (pause: 8s)");
    assertOneReplicaSetPerTemplate("timed", 2);
  }

  // -----------------------------------------------------------------------------------------------------------------

  static void restartAndAwaitSynced() {
    int mark = log.size();
    controller.restart();
    log.awaitLine(mark, ControllerLog.SYNCED, TIMEOUT);
  }

  /**
   * The steps completed after the restart are each reported once, and no step twice. (An event of
   * the killed process may be missing: events are written after the status they describe.)
   */
  static void assertStepEvents(String name, String... afterRestart) {
    List<String> messages = new ArrayList<>();
    for (Event e : rollouts.events(name)) {
      if ("RolloutStepCompleted".equals(e.getReason())) {
        for (int i = 0; i < (e.getCount() == null ? 1 : e.getCount()); i++) {
          messages.add(e.getMessage());
        }
      }
    }
    for (String m : afterRestart) {
      assertEquals(1, messages.stream().filter(m::equals).count(), m + " in " + messages);
    }
    assertEquals(
        messages.size(),
        messages.stream().distinct().count(),
        "no step completed twice: " + messages);
  }

  static Map<String, String> vars(String name, int replicas, int weight) {
    Map<String, String> v = new HashMap<>();
    v.put("NAME", name);
    v.put("REPLICAS", String.valueOf(replicas));
    v.put("WEIGHT", String.valueOf(weight));
    return v;
  }

  static Rollout createHealthy(String name, int replicas, int weight) {
    rollouts.create("restart/rollout.yaml", vars(name, replicas, weight));
    return awaitHealthy(name);
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

  /**
   * Waits for a pause at a step with the canary and stable ReplicaSets at the given sizes, all pods
   * available.
   */
  static Rollout awaitPausedWithSplit(String name, int stepIndex, int canary, int stable) {
    return rollouts.await(
        name,
        name
            + " paused at step "
            + stepIndex
            + " with "
            + canary
            + " canary / "
            + stable
            + " stable",
        TIMEOUT,
        r -> {
          RolloutStatus s = r.getStatus();
          return s != null
              && "Paused".equals(s.getPhase())
              && Integer.valueOf(stepIndex).equals(s.getCurrentStepIndex())
              && rollouts.specReplicas(name, s.getCurrentPodHash()) == canary
              && rollouts.availableReplicas(name, s.getCurrentPodHash()) == canary
              && rollouts.specReplicas(name, s.getStableRS()) == stable
              && rollouts.availableReplicas(name, s.getStableRS()) == stable
              && Objects.equals(s.getAvailableReplicas(), canary + stable);
        });
  }

  /**
   * Every ReplicaSet of the Rollout's pods (by the {@code app} label, owned or not) has its own
   * template (image), hash and revision: a restart must never create a second ReplicaSet for a
   * template that already has one.
   */
  static void assertOneReplicaSetPerTemplate(String name, int expected) {
    List<ReplicaSet> all =
        cluster
            .client()
            .apps()
            .replicaSets()
            .inNamespace(ns)
            .withLabel("app", name)
            .list()
            .getItems();
    String described = rollouts.describeReplicaSets(name);
    assertEquals(expected, all.size(), "ReplicaSets: " + described);
    assertEquals(
        expected, rollouts.replicaSets(name).size(), "all owned by the Rollout: " + described);
    assertEquals(
        expected,
        distinct(all, rs -> rs.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()),
        "one per image: " + described);
    assertEquals(
        expected,
        distinct(all, rs -> rs.getMetadata().getLabels().get(Labels.POD_TEMPLATE_HASH)),
        "one per hash: " + described);
    assertEquals(
        expected,
        distinct(all, rs -> rs.getMetadata().getAnnotations().get("rollout.argoproj.io/revision")),
        "one per revision: " + described);
    Rollout r = rollouts.get(name);
    ReplicaSet newRS = rollouts.replicaSet(name, r.getStatus().getCurrentPodHash());
    assertEquals(
        newRS.getMetadata().getAnnotations().get("rollout.argoproj.io/revision"),
        r.getMetadata().getAnnotations().get("rollout.argoproj.io/revision"),
        "the Rollout's revision is its new ReplicaSet's");
  }

  static long distinct(List<ReplicaSet> rss, Function<ReplicaSet, String> key) {
    return rss.stream().map(key).filter(Objects::nonNull).distinct().count();
  }

  /**
   * The Rollout's replica counters are the sums over its ReplicaSets (docs/compatibility.md §3.1).
   */
  static void assertCountersMatchReplicaSets(String name, Rollout r) {
    rollouts.await(
        name,
        "status counters equal the ReplicaSets' sums",
        TIMEOUT,
        x -> {
          List<ReplicaSet> rss = rollouts.replicaSets(name);
          RolloutStatus s = x.getStatus();
          ReplicaSet newRS = rollouts.replicaSet(name, s.getCurrentPodHash());
          return Objects.equals(s.getReplicas(), sum(rss, rs -> rs.getStatus().getReplicas()))
              && Objects.equals(s.getHPAReplicas(), s.getReplicas())
              && Objects.equals(
                  s.getReadyReplicas(), sum(rss, rs -> rs.getStatus().getReadyReplicas()))
              && Objects.equals(
                  s.getAvailableReplicas(), sum(rss, rs -> rs.getStatus().getAvailableReplicas()))
              && newRS != null
              && Objects.equals(s.getUpdatedReplicas(), nz(newRS.getStatus().getReplicas()));
        });
  }

  static void assertFullSizeCounters(Rollout r, int replicas) {
    RolloutStatus s = r.getStatus();
    assertEquals(replicas, s.getReplicas());
    assertEquals(replicas, s.getUpdatedReplicas());
    assertEquals(replicas, s.getReadyReplicas());
    assertEquals(replicas, s.getAvailableReplicas());
    assertEquals(replicas, s.getHPAReplicas());
  }

  static int sum(List<ReplicaSet> rss, Function<ReplicaSet, Integer> f) {
    return rss.stream()
        .filter(rs -> rs.getStatus() != null)
        .map(f)
        .mapToInt(ControllerRestartE2E::nz)
        .sum();
  }

  static int nz(Integer i) {
    return i == null ? 0 : i;
  }

  static List<String> names(List<ReplicaSet> rss) {
    return rss.stream().map(rs -> rs.getMetadata().getName()).sorted().collect(Collectors.toList());
  }

  /** Keeps the namespace of a failed class for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }

    @Override
    public void testSuccessful(ExtensionContext context) {
      FaultReport.record(
          "controller killed mid-update",
          "SIGKILL, then a new process",
          context.getRequiredTestMethod().getName().replace('_', ' '),
          "passed");
    }
  }
}
