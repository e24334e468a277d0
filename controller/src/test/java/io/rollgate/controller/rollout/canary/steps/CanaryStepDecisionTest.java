package io.rollgate.controller.rollout.canary.steps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.controller.rollout.canary.steps.CanarySnapshot.Kind;
import io.rollgate.controller.rollout.canary.steps.CanarySnapshot.Step;
import io.rollgate.controller.rollout.model.RsState;
import io.rollgate.controller.rollout.model.TrafficRoutedInput;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The canary step decision from fixture snapshots (docs/compatibility.md §5.2, §5.5, §5.9): no API
 * server, no Vert.x, no ReplicaSet objects; each case is a snapshot and the plan it must give.
 */
class CanaryStepDecisionTest {

  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

  private static Step setWeight(int w) {
    return new Step(Kind.SET_WEIGHT, w, false, null, false, null, null, false, "setWeight: " + w);
  }

  private static Step pause(Duration d) {
    return new Step(
        Kind.PAUSE,
        null,
        true,
        d,
        false,
        null,
        null,
        false,
        d == null ? "pause" : "pause: " + d.toSeconds() + "s");
  }

  private static Step analysis() {
    return new Step(Kind.ANALYSIS, null, false, null, false, null, null, false, "analysis");
  }

  private static Step canaryScaleReplicas(int replicas) {
    return new Step(
        Kind.SET_CANARY_SCALE,
        null,
        false,
        null,
        true,
        replicas,
        null,
        false,
        "setCanaryScale{replicas: " + replicas + "}");
  }

  /**
   * A Rollout of 10 replicas, stable revision 1 ("old") fully up, new revision 2 ("new") at the
   * given counts.
   */
  private static final class Fixture {
    int replicas = 10;
    List<Step> steps =
        List.of(
            setWeight(20), pause(null), setWeight(50), pause(Duration.ofSeconds(30)), analysis());
    Integer index = 0;
    String stableHash = "old";
    boolean promoteFull;
    boolean aborted;
    boolean controllerPause;
    Instant pauseStart;
    RsState stable = RsState.ready("web-old", 10, 1);
    RsState canary = new RsState("web-new", 0, 0, 0, 2);
    List<RsState> others = new ArrayList<>();
    CanarySnapshot.Traffic traffic;
    boolean succeeded;

    Fixture at(int stepIndex) {
      index = stepIndex;
      return this;
    }

    Fixture split(int canaryReplicas, int stableReplicas) {
      canary = RsState.ready("web-new", canaryReplicas, 2);
      stable = RsState.ready("web-old", stableReplicas, 1);
      return this;
    }

    Fixture routed(Boolean verified) {
      traffic = new CanarySnapshot.Traffic(100, false, null, null, null, verified);
      return this;
    }

    CanarySnapshot snapshot() {
      return new CanarySnapshot(
          replicas,
          steps,
          index,
          "new",
          stableHash,
          promoteFull,
          aborted,
          controllerPause,
          pauseStart,
          NOW,
          null,
          null,
          null,
          canary,
          stable,
          others,
          traffic,
          succeeded);
    }

    CanaryStepPlan plan() {
      return CanaryStepDecision.decide(snapshot());
    }
  }

  @Test
  void setWeightScalesTheCanaryUp_whenNoPodsRunYet() {
    CanaryStepPlan plan = new Fixture().plan();

    assertEquals(0, plan.stepIndex());
    assertEquals(Kind.SET_WEIGHT, plan.step().kind());
    assertEquals(20, plan.desiredWeight());
    assertEquals(2, plan.replicas().canary());
    assertFalse(plan.atDesiredReplicaCounts());
    assertFalse(plan.stepCompleted());
    assertEquals(0, plan.nextStepIndex());
    assertEquals(CanaryStepPlan.Pause.NONE, plan.pause());
    assertTrue(plan.events().isEmpty());
  }

  @Test
  void setWeightCompletesAndMovesToTheNextStep_whenTheSplitIsReached() {
    CanaryStepPlan plan = new Fixture().split(2, 8).plan();

    assertEquals(new CanaryStepPlan.Replicas(2, 8, Map.of()), plan.replicas());
    assertTrue(plan.atDesiredReplicaCounts());
    assertTrue(plan.stepCompleted());
    assertEquals(1, plan.nextStepIndex());
    assertEquals(
        List.of(
            new CanaryStepPlan.Event(
                "RolloutStepCompleted", "Rollout step 1/5 completed (setWeight: 20)")),
        plan.events());
  }

  @Test
  void setWeightWithTrafficRoutingKeepsStableAtFullScale() {
    CanaryStepPlan plan = new Fixture().routed(null).plan();

    assertEquals(20, plan.desiredWeight());
    assertEquals(new CanaryStepPlan.Replicas(2, 10, Map.of()), plan.replicas());
    assertFalse(plan.stepCompleted());
  }

  @Test
  void setWeightWithTrafficRoutingWaitsForTheRouterToVerifyTheWeight() {
    Fixture f = new Fixture().split(2, 10);

    assertFalse(f.routed(false).plan().stepCompleted(), "the router has not confirmed the weight");
    assertTrue(f.routed(null).plan().stepCompleted());
    assertTrue(f.routed(true).plan().stepCompleted());
    assertEquals(1, f.routed(true).plan().nextStepIndex());
  }

  @Test
  void setCanaryScaleWithTrafficRoutingSetsTheCanaryReplicasAndKeepsTheWeight() {
    Fixture f = new Fixture().routed(null).at(1);
    f.steps = List.of(setWeight(10), canaryScaleReplicas(3));

    CanaryStepPlan plan = f.plan();

    assertEquals(
        0, plan.desiredWeight(), "the replica maths reads setCanaryScale.replicas, not a weight");
    assertEquals(new CanaryStepPlan.Replicas(3, 10, Map.of()), plan.replicas());
    assertEquals(10, CanaryStepDecision.currentSetWeight(f.snapshot(), 100));
  }

  @Test
  void indefinitePauseAddsThePauseConditionAndNoRequeue() {
    CanaryStepPlan plan = new Fixture().split(2, 8).at(1).plan();

    assertEquals(new CanaryStepPlan.Pause(true, true, null), plan.pause());
    assertEquals(20, plan.desiredWeight(), "the weight of the last setWeight before the pause");
    assertFalse(plan.stepCompleted());
    assertEquals(1, plan.nextStepIndex());
  }

  @Test
  void indefinitePauseCompletes_whenTheUserPromotes() {
    Fixture f = new Fixture().split(2, 8).at(1);
    f.controllerPause = true; // promote removed the CanaryPauseStep condition

    CanaryStepPlan plan = f.plan();

    assertEquals(new CanaryStepPlan.Pause(true, false, null), plan.pause());
    assertTrue(plan.stepCompleted());
    assertEquals(2, plan.nextStepIndex());
    assertEquals("Rollout step 2/5 completed (pause)", plan.events().get(0).message());
  }

  @Test
  void timedPauseRequeuesHalfASecondAfterItEnds_whenEntered() {
    Fixture f = new Fixture().split(5, 5).at(3);

    CanaryStepPlan plan = f.plan();

    assertEquals(50, plan.desiredWeight());
    assertEquals(new CanaryStepPlan.Pause(true, true, Duration.ofMillis(30_500)), plan.pause());
    assertFalse(plan.stepCompleted());
  }

  @Test
  void timedPauseRequeuesForTheTimeLeft_whileItRuns() {
    Fixture f = new Fixture().split(5, 5).at(3);
    f.controllerPause = true;
    f.pauseStart = NOW.minusSeconds(10);

    CanaryStepPlan plan = f.plan();

    assertEquals(new CanaryStepPlan.Pause(true, false, Duration.ofMillis(20_500)), plan.pause());
    assertFalse(plan.stepCompleted());
  }

  @Test
  void timedPauseCompletes_whenItsDurationIsOver() {
    Fixture f = new Fixture().split(5, 5).at(3);
    f.controllerPause = true;
    f.pauseStart = NOW.minusSeconds(40);

    CanaryStepPlan plan = f.plan();

    assertEquals(Duration.ZERO, plan.pause().requeueAfter());
    assertTrue(plan.stepCompleted());
    assertEquals(4, plan.nextStepIndex());
  }

  @Test
  void analysisStepCompletes_whenItsRunSucceeded() {
    Fixture f = new Fixture().split(5, 5).at(4);

    assertFalse(f.plan().stepCompleted());
    f.succeeded = true;
    assertTrue(f.plan().stepCompleted());
    assertEquals(5, f.plan().nextStepIndex());
  }

  @Test
  void pastTheLastStepAimsAtFullWeight() {
    CanaryStepPlan plan = new Fixture().split(5, 5).at(5).plan();

    assertNull(plan.step());
    assertEquals(100, plan.desiredWeight());
    assertEquals(8, plan.replicas().canary(), "towards 10 within maxSurge (25%: 3 pods over 10)");
    assertFalse(plan.stepCompleted());
    assertEquals(5, plan.nextStepIndex());
    assertEquals(CanaryStepPlan.Pause.NONE, plan.pause());
  }

  @Test
  void firstDeployAimsAtFullWeightWithoutSteps() {
    Fixture f = new Fixture();
    f.stableHash = null;
    f.stable = null;
    f.steps = List.of();
    f.index = null;

    CanaryStepPlan plan = f.plan();

    assertEquals(100, plan.desiredWeight());
    assertEquals(10, plan.replicas().canary());
    assertNull(plan.nextStepIndex());
  }

  @Test
  void abortScalesTheCanaryDownAndGoesBackToTheFirstStep() {
    Fixture f = new Fixture().split(5, 5).at(3);
    f.aborted = true;

    CanaryStepPlan plan = f.plan();

    assertEquals(0, plan.desiredWeight());
    assertEquals(
        8,
        plan.replicas().stable(),
        "stable grows back first, within maxSurge (25%: 3 pods over 10)");
    assertEquals(
        3,
        plan.replicas().canary(),
        "down to what maxUnavailable (25%: 2 pods) allows: 5 + 3 available");
    assertEquals(0, plan.nextStepIndex());
    assertEquals(CanaryStepPlan.Pause.NONE, plan.pause(), "no pause step holds an aborted rollout");
    assertTrue(plan.events().isEmpty());
  }

  @Test
  void abortWithDynamicStableScaleKeepsTheHighestWeightTheCanaryStillServes() {
    Fixture f = new Fixture().at(3);
    f.canary = RsState.ready("web-new", 5, 2);
    f.stable = new RsState("web-old", 7, 7, 7, 1);
    f.aborted = true;
    f.traffic =
        new CanarySnapshot.Traffic(
            100, true, null, null, new TrafficRoutedInput.RecordedWeights(50, 50), null);

    CanaryStepPlan plan = f.plan();

    assertEquals(
        20,
        plan.desiredWeight(),
        "3 pods still to serve: setWeight 20 (2 pods) is the highest below");
    assertEquals(0, plan.nextStepIndex());
  }

  @Test
  void stepDescriptionsFollowArgosWording() {
    var step = new io.rollgate.api.CanaryStep();
    var p = new io.rollgate.api.RolloutPause();
    p.setDuration(new io.fabric8.kubernetes.api.model.IntOrString("30s"));
    step.setPause(p);

    Step reduced = Step.of(step);

    assertEquals(Kind.PAUSE, reduced.kind());
    assertEquals(Duration.ofSeconds(30), reduced.pauseDuration());
    assertEquals("pause: 30s", reduced.description());
  }
}
