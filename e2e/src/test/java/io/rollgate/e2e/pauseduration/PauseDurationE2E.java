package io.rollgate.e2e.pauseduration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.rollgate.api.PauseCondition;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.time.Instant;
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
 * A timed pause step ({@code pause: {duration: ...}}) holds the canary for its duration and then
 * lets the Rollout finish on its own, with no promote; the Events a user (and the notification
 * triggers) see along the way.
 */
@ExtendWith(PauseDurationE2E.FailureTracker.class)
class PauseDurationE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(60);
  static final Duration PAUSE = Duration.ofSeconds(2);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("pause");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "pauseduration", "--namespace", ns);
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
  void goDurationPauseEndsOnItsOwnAndRecordsTheStepEvents() {
    pausesThenCompletesWithoutPromote("pause-go", "2s", "pause: 2s");
  }

  @Test
  void integerSecondsPauseEndsOnItsOwn() {
    pausesThenCompletesWithoutPromote("pause-int", "2", "pause: 2");
  }

  @Test
  void digitStringSecondsPauseEndsOnItsOwn() {
    pausesThenCompletesWithoutPromote("pause-str", "\"2\"", "pause: 2");
  }

  void pausesThenCompletesWithoutPromote(String name, String durationYaml, String pauseStepText) {
    rollouts.create("pauseduration/rollout.yaml", Map.of("NAME", name, "DURATION", durationYaml));
    Rollout first = awaitHealthy(name);
    String v1 = first.getStatus().getStableRS();

    rollouts.setImage(name, "registry.example/app:v2");
    Rollout paused =
        rollouts.await(
            name,
            name + " paused at step 1",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && "Paused".equals(r.getStatus().getPhase())
                    && Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex()));
    RolloutStatus ps = paused.getStatus();
    String v2 = ps.getCurrentPodHash();
    assertEquals("CanaryPauseStep", ps.getMessage());
    assertNotNull(ps.getPauseConditions(), "pause condition while paused");
    PauseCondition pause = ps.getPauseConditions().get(0);
    assertEquals("CanaryPauseStep", pause.getReason());
    assertEquals(1, rollouts.specReplicas(name, v2), "50% of 2 replicas");

    // No promote: the timed pause ends by itself.
    Rollout done = awaitHealthy(name);
    RolloutStatus s = done.getStatus();
    assertEquals(v2, s.getStableRS());
    assertEquals(2, s.getCurrentStepIndex());
    assertTrue(
        s.getPauseConditions() == null || s.getPauseConditions().isEmpty(),
        "pause condition removed");
    assertFalse(Boolean.TRUE.equals(s.getControllerPause()), "controllerPause cleared");
    assertEquals(2, rollouts.specReplicas(name, v2));
    assertEquals(0, rollouts.specReplicas(name, v1));

    String rs1 = name + "-" + v1;
    String rs2 = name + "-" + v2;
    awaitEvent(name, "RolloutStepCompleted", "Rollout step 1/2 completed (setWeight: 50)");
    Event pauseDone =
        awaitEvent(
            name, "RolloutStepCompleted", "Rollout step 2/2 completed (" + pauseStepText + ")");
    awaitEvent(name, "RolloutPaused", "Rollout is paused (CanaryPauseStep)");
    awaitEvent(name, "RolloutResumed", "Rollout is resumed");
    awaitEvent(
        name,
        "RolloutCompleted",
        "Rollout completed update to revision 1 (" + v1 + "): Initial deploy");
    awaitEvent(
        name,
        "RolloutCompleted",
        "Rollout completed update to revision 2 (" + v2 + "): Completed all 2 canary steps");
    awaitEvent(name, "NewReplicaSetCreated", "Created ReplicaSet " + rs1 + " (revision 1)");
    awaitEvent(name, "NewReplicaSetCreated", "Created ReplicaSet " + rs2 + " (revision 2)");
    awaitEvent(
        name, "ScalingReplicaSet", "Scaled up ReplicaSet " + rs1 + " (revision 1) from 0 to 2");
    awaitEvent(
        name, "ScalingReplicaSet", "Scaled up ReplicaSet " + rs2 + " (revision 2) from 0 to 1");
    awaitEvent(
        name, "ScalingReplicaSet", "Scaled up ReplicaSet " + rs2 + " (revision 2) from 1 to 2");
    awaitEvent(
        name, "ScalingReplicaSet", "Scaled down ReplicaSet " + rs1 + " (revision 1) from 1 to 0");

    List<String> steps =
        rollouts.eventMessages(name, "RolloutStepCompleted").stream()
            .sorted()
            .collect(Collectors.toList());
    assertEquals(
        List.of(
            "Rollout step 1/2 completed (setWeight: 50)",
            "Rollout step 2/2 completed (" + pauseStepText + ")"),
        steps,
        "each step completed exactly once");
    for (Event e : rollouts.events(name)) {
      assertEquals("Normal", e.getType(), e.getReason() + ": " + e.getMessage());
      assertEquals("argoproj.io/v1alpha1", e.getInvolvedObject().getApiVersion());
      assertEquals(done.getMetadata().getUid(), e.getInvolvedObject().getUid());
    }
    // The pause held for at least its duration (Event and pause times both have second precision).
    Instant pausedAt = Instant.parse(pause.getStartTime());
    Instant resumedAt = Instant.parse(pauseDone.getFirstTimestamp());
    assertFalse(
        resumedAt.isBefore(pausedAt.plus(PAUSE)),
        "pause step completed at "
            + resumedAt
            + ", paused at "
            + pausedAt
            + " for "
            + durationYaml);
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
   * Waits (events are written after the status) for an Event on the Rollout with this reason and
   * message.
   */
  static Event awaitEvent(String name, String reason, String message) {
    Event[] found = new Event[1];
    try {
      Awaitility.await(reason + " event")
          .atMost(Duration.ofSeconds(15))
          .pollInterval(Duration.ofMillis(250))
          .until(
              () -> {
                found[0] =
                    rollouts.events(name).stream()
                        .filter(e -> reason.equals(e.getReason()) && message.equals(e.getMessage()))
                        .findFirst()
                        .orElse(null);
                return found[0] != null;
              });
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
    return found[0];
  }

  /** Keeps the namespace of a failed class for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
