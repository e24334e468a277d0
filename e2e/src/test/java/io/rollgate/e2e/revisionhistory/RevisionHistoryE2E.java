package io.rollgate.e2e.revisionhistory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Labels;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * {@code revisionHistoryLimit}, the {@code rollout.argoproj.io/revision} and {@code
 * revision-history} annotations, and rollbacks: to an old template whose ReplicaSet is still kept
 * (reused, steps walked again) and to the current stable template in the middle of an update (steps
 * skipped).
 */
@ExtendWith(RevisionHistoryE2E.FailureTracker.class)
class RevisionHistoryE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(60);
  static final String REVISION = "rollout.argoproj.io/revision";
  static final String REVISION_HISTORY = "rollout.argoproj.io/revision-history";

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("history");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "revisionhistory", "--namespace", ns);
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

  @Test
  void keepsOneOldReplicaSetAndReusesItForARollbackThatWalksTheSteps() {
    rollouts.create("revisionhistory/rollout.yaml", Map.of("NAME", "history"));
    Rollout first = awaitHealthy("history");
    Map<Integer, String> hashes = new HashMap<>();
    Map<Integer, String> uids = new HashMap<>();
    List<Long> stableRevisions = new ArrayList<>();
    hashes.put(1, first.getStatus().getStableRS());
    uids.put(1, rollouts.replicaSet("history", hashes.get(1)).getMetadata().getUid());
    stableRevisions.add(revision(rollouts.replicaSet("history", hashes.get(1))));

    for (int v = 2; v <= 5; v++) {
      String previous = hashes.get(v - 1);
      rollouts.setImage("history", "registry.example/app:v" + v);
      Rollout paused = awaitPausedOnNewTemplate("history", previous);
      String hash = paused.getStatus().getCurrentPodHash();
      rollouts.promote("history");
      awaitHealthyOn("history", hash);
      hashes.put(v, hash);
      uids.put(v, rollouts.replicaSet("history", hash).getMetadata().getUid());

      List<ReplicaSet> rss = awaitStableAndOneDrainedOldReplicaSet("history", hash);
      ReplicaSet old =
          rss.stream().filter(rs -> !hash.equals(hashOf(rs))).findFirst().orElseThrow();
      assertEquals(previous, hashOf(old), "the one kept is the previous revision");
      assertEquals(v - 1, revision(old));
      ReplicaSet stable = rollouts.replicaSet("history", hash);
      assertEquals(v, revision(stable), "revision of v" + v);
      stableRevisions.add(revision(stable));
      assertEquals(
          String.valueOf(v), rollouts.get("history").getMetadata().getAnnotations().get(REVISION));
    }
    assertEquals(
        List.of(1L, 2L, 3L, 4L, 5L), stableRevisions, "revisions increase with every update");

    // Roll back to v4: its ReplicaSet (revision 4, 0 replicas) is still there and is reused as the
    // new one.
    rollouts.setImage("history", "registry.example/app:v4");
    Rollout paused =
        rollouts.await(
            "history",
            "rollback to v4 paused at step 1 with its canary",
            TIMEOUT,
            r -> {
              RolloutStatus s = r.getStatus();
              return "Paused".equals(s.getPhase())
                  && Integer.valueOf(1).equals(s.getCurrentStepIndex())
                  && hashes.get(4).equals(s.getCurrentPodHash())
                  && rollouts.availableReplicas("history", hashes.get(4)) == 1
                  && rollouts.specReplicas("history", hashes.get(5)) == 1;
            });
    assertEquals(
        hashes.get(5),
        paused.getStatus().getStableRS(),
        "v4 is not the stable one: the steps apply");
    List<ReplicaSet> rss = rollouts.replicaSets("history");
    assertEquals(
        Set.of(uids.get(4), uids.get(5)),
        rss.stream().map(rs -> rs.getMetadata().getUid()).collect(Collectors.toSet()),
        "no new ReplicaSet: " + rollouts.describeReplicaSets("history"));
    ReplicaSet reused = rollouts.replicaSet("history", hashes.get(4));
    assertEquals(
        "6", reused.getMetadata().getAnnotations().get(REVISION), "raised to the newest revision");
    assertEquals(
        "4",
        reused.getMetadata().getAnnotations().get(REVISION_HISTORY),
        "old revision remembered");
    assertEquals("6", paused.getMetadata().getAnnotations().get(REVISION));
    awaitEventMessage("history", "RolloutUpdated", "Rollout updated to revision 6");
    assertTrue(
        rollouts.eventMessages("history", "NewReplicaSetCreated").stream()
            .noneMatch(m -> m.contains("(revision 6)")),
        "no ReplicaSet created for revision 6");

    rollouts.promote("history");
    Rollout done = awaitHealthyOn("history", hashes.get(4));
    assertEquals(2, done.getStatus().getCurrentStepIndex());
    List<ReplicaSet> after = awaitStableAndOneDrainedOldReplicaSet("history", hashes.get(4));
    assertEquals(
        Set.of(hashes.get(4), hashes.get(5)),
        after.stream().map(RevisionHistoryE2E::hashOf).collect(Collectors.toSet()));
  }

  @Test
  void rollbackToTheStableTemplateMidUpdateSkipsTheSteps() {
    rollouts.create("revisionhistory/rollout.yaml", Map.of("NAME", "back"));
    String v1 = awaitHealthy("back").getStatus().getStableRS();
    rollouts.setImage("back", "registry.example/app:v2");
    Rollout paused = awaitPausedOnNewTemplate("back", v1);
    String v2 = paused.getStatus().getCurrentPodHash();
    rollouts.await(
        "back", "v2 canary running", TIMEOUT, r -> rollouts.availableReplicas("back", v2) == 1);

    rollouts.setImage("back", "registry.example/app:v1");
    Rollout done =
        rollouts.await(
            "back",
            "back on v1, Healthy, v2 scaled to 0",
            Duration.ofSeconds(30),
            r ->
                r.getStatus() != null
                    && "Healthy".equals(r.getStatus().getPhase())
                    && String.valueOf(r.getMetadata().getGeneration())
                        .equals(r.getStatus().getObservedGeneration())
                    && v1.equals(r.getStatus().getCurrentPodHash())
                    && rollouts.specReplicas("back", v2) == 0
                    && rollouts.specReplicas("back", v1) == 2);
    RolloutStatus s = done.getStatus();
    assertEquals(v1, s.getStableRS());
    assertEquals(2, s.getCurrentStepIndex(), "steps skipped");
    assertTrue(s.getPauseConditions() == null || s.getPauseConditions().isEmpty());
    awaitEventMessage("back", "SkipSteps", "Rollback to stable ReplicaSets");
    assertEquals(
        List.of("Rollout step 1/2 completed (setWeight: 50)"),
        rollouts.eventMessages("back", "RolloutStepCompleted"),
        "only the v2 attempt walked a step");
    assertEquals(
        2,
        rollouts.replicaSets("back").size(),
        "no new ReplicaSet: " + rollouts.describeReplicaSets("back"));
    ReplicaSet stable = rollouts.replicaSet("back", v1);
    assertEquals(
        "3",
        stable.getMetadata().getAnnotations().get(REVISION),
        "stable ReplicaSet is the newest revision again");
    assertEquals("1", stable.getMetadata().getAnnotations().get(REVISION_HISTORY));
    assertEquals("3", done.getMetadata().getAnnotations().get(REVISION));
  }

  // -----------------------------------------------------------------------------------------------------------------

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

  static Rollout awaitHealthyOn(String name, String hash) {
    return rollouts.await(
        name,
        name + " Healthy on " + hash,
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration())
                && hash.equals(r.getStatus().getStableRS())
                && hash.equals(r.getStatus().getCurrentPodHash()));
  }

  static Rollout awaitPausedOnNewTemplate(String name, String stableHash) {
    return rollouts.await(
        name,
        name + " paused at step 1 on a new template",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Paused".equals(r.getStatus().getPhase())
                && Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex())
                && stableHash.equals(r.getStatus().getStableRS())
                && !stableHash.equals(r.getStatus().getCurrentPodHash()));
  }

  /**
   * Waits until only the stable ReplicaSet (at full size) and one old ReplicaSet with 0 replicas
   * remain.
   */
  static List<ReplicaSet> awaitStableAndOneDrainedOldReplicaSet(String name, String stableHash) {
    AtomicReference<List<ReplicaSet>> last = new AtomicReference<>();
    rollouts.await(
        name,
        "stable plus one drained old ReplicaSet (revisionHistoryLimit 1)",
        TIMEOUT,
        r -> {
          List<ReplicaSet> rss = rollouts.replicaSets(name);
          last.set(rss);
          return rss.size() == 2
              && rss.stream()
                  .allMatch(
                      rs ->
                          stableHash.equals(hashOf(rs))
                              ? rs.getSpec().getReplicas() == 2
                              : rs.getSpec().getReplicas() == 0
                                  && nz(rs.getStatus().getReplicas()) == 0);
        });
    // It must stay that way: no further deletion or re-creation.
    rollouts.holdsFor(
        name,
        "still stable plus one old ReplicaSet",
        Duration.ofSeconds(1),
        r -> rollouts.replicaSets(name).size() == 2);
    return last.get();
  }

  static void awaitEventMessage(String name, String reason, String message) {
    try {
      Awaitility.await(reason + " event")
          .atMost(Duration.ofSeconds(15))
          .pollInterval(Duration.ofMillis(250))
          .until(() -> rollouts.eventMessages(name, reason).contains(message));
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError(
          "no "
              + reason
              + " event '"
              + message
              + "'; events: "
              + rollouts.events(name).stream()
                  .map(x -> x.getReason() + ": " + x.getMessage())
                  .collect(Collectors.toList()),
          e);
    }
  }

  static String hashOf(ReplicaSet rs) {
    return rs.getMetadata().getLabels().get(Labels.POD_TEMPLATE_HASH);
  }

  static long revision(ReplicaSet rs) {
    return Long.parseLong(rs.getMetadata().getAnnotations().get(REVISION));
  }

  static int nz(Integer i) {
    return i == null ? 0 : i;
  }

  /** Keeps the namespace of a failed class for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
