package io.rollgate.e2e.progressdeadline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutCondition;
import io.rollgate.api.RolloutStatus;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
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
 * {@code progressDeadlineSeconds} and {@code progressDeadlineAbort}: an update whose canary pods
 * can never be scheduled (a nodeSelector no node matches) times out, is reported as Degraded, and
 * with progressDeadlineAbort is rolled back; fixing the template lets the Rollout progress again.
 */
@ExtendWith(ProgressDeadlineE2E.FailureTracker.class)
class ProgressDeadlineE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(60);
  static final String UNSCHEDULABLE_V2 =
      "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/image\",\"value\":\"registry.example/app:v2\"},"
          + "{\"op\":\"add\",\"path\":\"/spec/template/spec/nodeSelector\",\"value\":{\"rollgate.example/pool\":\"nowhere\"}}]";
  static final String REMOVE_NODE_SELECTOR =
      "[{\"op\":\"remove\",\"path\":\"/spec/template/spec/nodeSelector\"}]";

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("deadline");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "progressdeadline", "--namespace", ns);
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
  void stuckCanaryIsDegradedAfterTheDeadlineAndProgressesOnceTheTemplateIsFixed() {
    String v1 = createHealthy("stuck", false);
    rollouts.jsonPatch("stuck", UNSCHEDULABLE_V2);

    Rollout timedOut =
        rollouts.await(
            "stuck",
            "Progressing=False/ProgressDeadlineExceeded",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && condition(r.getStatus(), "Progressing") != null
                    && "ProgressDeadlineExceeded"
                        .equals(condition(r.getStatus(), "Progressing").getReason()));
    RolloutStatus s = timedOut.getStatus();
    String stuckHash = s.getCurrentPodHash();
    assertNotEquals(v1, stuckHash);
    String expected = "ReplicaSet \"stuck-" + stuckHash + "\" has timed out progressing.";
    RolloutCondition progressing = condition(s, "Progressing");
    assertEquals("False", progressing.getStatus());
    assertEquals(expected, progressing.getMessage());
    assertEquals("Degraded", s.getPhase());
    assertEquals("ProgressDeadlineExceeded: " + expected, s.getMessage());
    assertEquals(v1, s.getStableRS());
    assertEquals(0, s.getCurrentStepIndex(), "still at setWeight 50");
    assertEquals("True", condition(s, "Available").getStatus(), "the stable pods keep serving");

    // Without progressDeadlineAbort nothing is rolled back: the canary keeps waiting for its pods.
    rollouts.holdsFor(
        "stuck",
        "not aborted and canary kept",
        Duration.ofSeconds(3),
        r ->
            !Boolean.TRUE.equals(r.getStatus().getAbort())
                && "Degraded".equals(r.getStatus().getPhase())
                && rollouts.specReplicas("stuck", stuckHash) == 1
                && rollouts.specReplicas("stuck", v1) == 2);
    assertEquals(
        0, rollouts.availableReplicas("stuck", stuckHash), "canary pods cannot be scheduled");

    rollouts.jsonPatch("stuck", REMOVE_NODE_SELECTOR);
    Rollout progressing2 = awaitPausedWithCanary("stuck", stuckHash, 1);
    String fixed = progressing2.getStatus().getCurrentPodHash();
    assertEquals("Unknown", condition(progressing2.getStatus(), "Progressing").getStatus());
    assertEquals("RolloutPaused", condition(progressing2.getStatus(), "Progressing").getReason());
    rollouts.await(
        "stuck",
        "stuck canary scaled to 0",
        TIMEOUT,
        r -> rollouts.specReplicas("stuck", stuckHash) == 0);

    rollouts.promote("stuck");
    Rollout done = awaitHealthy("stuck");
    assertEquals(fixed, done.getStatus().getStableRS());
    assertEquals("NewReplicaSetAvailable", condition(done.getStatus(), "Progressing").getReason());
  }

  @Test
  void rollsTheStuckCanaryBackAndProgressesOnceTheTemplateIsFixed_whenProgressDeadlineAbort() {
    String v1 = createHealthy("autoabort", true);
    rollouts.jsonPatch("autoabort", UNSCHEDULABLE_V2);

    Rollout aborted =
        rollouts.await(
            "autoabort",
            "aborted by the progress deadline and rolled back",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && Boolean.TRUE.equals(r.getStatus().getAbort())
                    && !v1.equals(r.getStatus().getCurrentPodHash())
                    && rollouts.specReplicas("autoabort", r.getStatus().getCurrentPodHash()) == 0
                    && rollouts.specReplicas("autoabort", v1) == 2
                    && rollouts.availableReplicas("autoabort", v1) == 2);
    RolloutStatus s = aborted.getStatus();
    String stuckHash = s.getCurrentPodHash();
    String timedOut = "ReplicaSet \"autoabort-" + stuckHash + "\" has timed out progressing.";
    assertNotNull(s.getAbortedAt());
    assertEquals("Degraded", s.getPhase());
    assertEquals(v1, s.getStableRS());
    assertEquals(0, s.getCurrentStepIndex());
    assertNull(s.getPauseConditions());
    RolloutCondition progressing = condition(s, "Progressing");
    assertEquals("False", progressing.getStatus());
    assertEquals("RolloutAborted", progressing.getReason());
    assertEquals("Rollout aborted update to revision 2: " + timedOut, progressing.getMessage());
    assertEquals(
        "RolloutAborted: Rollout aborted update to revision 2: " + timedOut, s.getMessage());

    Event warning = awaitWarning("autoabort", "RolloutAborted");
    assertTrue(
        warning.getMessage().startsWith("Rollout aborted update to revision 2"),
        warning.getMessage());
    assertTrue(warning.getMessage().contains(timedOut), warning.getMessage());

    rollouts.jsonPatch("autoabort", REMOVE_NODE_SELECTOR);
    Rollout again = awaitPausedWithCanary("autoabort", stuckHash, 1);
    assertFalse(
        Boolean.TRUE.equals(again.getStatus().getAbort()), "a new template clears the abort");
    assertNull(again.getStatus().getAbortedAt());
    rollouts.promote("autoabort");
    Rollout done = awaitHealthy("autoabort");
    assertEquals(again.getStatus().getCurrentPodHash(), done.getStatus().getStableRS());
  }

  @Test
  void pauseLongerThanTheDeadlineIsNotATimeout() {
    String v1 = createHealthy("patient", true);
    rollouts.setImage("patient", "registry.example/app:v2");
    Rollout paused = awaitPausedWithCanary("patient", v1, 1);
    String v2 = paused.getStatus().getCurrentPodHash();

    // An indefinite pause step is not evaluated against progressDeadlineSeconds (5 s), even with
    // progressDeadlineAbort.
    rollouts.holdsFor(
        "patient",
        "still paused, neither timed out nor aborted",
        Duration.ofSeconds(8),
        r ->
            "Paused".equals(r.getStatus().getPhase())
                && !Boolean.TRUE.equals(r.getStatus().getAbort())
                && "RolloutPaused".equals(condition(r.getStatus(), "Progressing").getReason())
                && rollouts.specReplicas("patient", v2) == 1);

    rollouts.promote("patient");
    Rollout done = awaitHealthy("patient");
    assertEquals(v2, done.getStatus().getStableRS());
    assertTrue(
        rollouts.events("patient").stream().noneMatch(e -> "Warning".equals(e.getType())),
        "no warning");
  }

  // -----------------------------------------------------------------------------------------------------------------

  /** Creates the Rollout and returns its stable hash once Healthy. */
  static String createHealthy(String name, boolean abort) {
    rollouts.create(
        "progressdeadline/rollout.yaml", Map.of("NAME", name, "ABORT", String.valueOf(abort)));
    return awaitHealthy(name).getStatus().getStableRS();
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
   * Waits for the fixed template (a new hash, neither stable nor the stuck one) to pause at step 1
   * with its canary.
   */
  static Rollout awaitPausedWithCanary(String name, String stuckHash, int canary) {
    return rollouts.await(
        name,
        name + " progressing again: paused at step 1",
        TIMEOUT,
        r -> {
          RolloutStatus s = r.getStatus();
          return s != null
              && "Paused".equals(s.getPhase())
              && Integer.valueOf(1).equals(s.getCurrentStepIndex())
              && !stuckHash.equals(s.getCurrentPodHash())
              && !s.getCurrentPodHash().equals(s.getStableRS())
              && rollouts.availableReplicas(name, s.getCurrentPodHash()) == canary;
        });
  }

  static Event awaitWarning(String name, String reason) {
    Event[] found = new Event[1];
    try {
      Awaitility.await(reason + " warning")
          .atMost(Duration.ofSeconds(15))
          .pollInterval(Duration.ofMillis(250))
          .until(
              () -> {
                found[0] =
                    rollouts.events(name).stream()
                        .filter(e -> reason.equals(e.getReason()) && "Warning".equals(e.getType()))
                        .findFirst()
                        .orElse(null);
                return found[0] != null;
              });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      List<String> seen =
          rollouts.events(name).stream()
              .map(x -> x.getType() + " " + x.getReason() + ": " + x.getMessage())
              .collect(Collectors.toList());
      throw new AssertionError("no Warning " + reason + " event; events: " + seen, e);
    }
    return found[0];
  }

  static RolloutCondition condition(RolloutStatus s, String type) {
    return s.getConditions() == null
        ? null
        : s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
  }

  /** Keeps the namespace of a failed class for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
