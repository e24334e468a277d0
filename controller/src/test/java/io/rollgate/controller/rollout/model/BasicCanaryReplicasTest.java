package io.rollgate.controller.rollout.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.controller.rollout.model.ReplicaProgressThreshold.Type;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BasicCanaryReplicasTest {

  private static BasicCanaryInput input(
      int replicas,
      int weight,
      int surge,
      int unavailable,
      RsState newRS,
      RsState stableRS,
      RsState... others) {
    return new BasicCanaryInput(
        replicas,
        weight,
        100,
        new Fenceposts(surge, unavailable),
        newRS,
        stableRS,
        List.of(others));
  }

  private static RsState rs(String name, int spec, int available, long revision) {
    return new RsState(name, spec, available, spec, revision);
  }

  private static ReplicaProgressThreshold threshold(Type type, int value) {
    return new ReplicaProgressThreshold(type, value);
  }

  @Nested
  class WeightedSplit {

    @ParameterizedTest(name = "R={0} w={1} surge={2} => canary {3}, stable {4}")
    @CsvSource({
      // examples of the rules
      "10, 10, 1, 1, 9",
      "10, 30, 3, 3, 7",
      "1, 5, 1, 1, 1",
      // exact splits
      "5, 20, 2, 1, 4",
      "5, 60, 2, 3, 2",
      "4, 25, 1, 1, 3",
      "4, 75, 1, 3, 1",
      "4, 50, 1, 2, 2",
      "2, 50, 1, 1, 1",
      // R*w/W ends in .5: the floor is never a candidate, ties round up; surge may add a pod for a
      // better ratio
      "5, 50, 2, 3, 3",
      "5, 50, 0, 3, 2",
      "3, 50, 1, 2, 2",
      "3, 50, 0, 2, 1",
      "7, 50, 2, 4, 4",
      "10, 5, 3, 1, 10",
      "10, 15, 3, 2, 9",
      "10, 15, 0, 2, 8",
      // closest ratio wins, with or without the extra pod
      "5, 33, 2, 2, 4",
      "5, 33, 0, 2, 3",
      "6, 33, 2, 2, 4",
      "3, 33, 1, 1, 2",
      "3, 80, 1, 3, 1",
      "12, 99, 3, 12, 1",
      "4, 10, 1, 1, 4",
      // 1..99% never yields 0 canary or 0 stable once two pods fit
      "2, 10, 1, 1, 2",
      "2, 10, 0, 1, 1",
      "2, 90, 1, 2, 1",
      "2, 90, 0, 1, 1",
      "1, 50, 1, 1, 1",
      "1, 95, 1, 1, 1",
      // a single replica without surge may round to zero
      "1, 50, 0, 1, 0",
      "1, 5, 0, 0, 1",
      "1, 95, 0, 1, 0",
      // 0% and 100%
      "5, 0, 2, 0, 5",
      "1, 0, 0, 0, 1",
      "5, 100, 2, 5, 0",
      "1, 100, 1, 1, 0",
      "0, 50, 1, 0, 0",
    })
    void approximatesWeightWithClosestReplicaRatio(
        int replicas, int weight, int surge, int canary, int stable) {
      assertEquals(
          new CanarySplit(canary, stable),
          BasicCanaryReplicas.approximateWeightedSplit(replicas, weight, 100, surge));
    }

    @Test
    void scalesWeightByMaxWeight() {
      assertEquals(
          new CanarySplit(1, 3), BasicCanaryReplicas.approximateWeightedSplit(4, 50, 200, 1));
    }

    @Test
    void targetsAllReplicasOnNewReplicaSet_whenThereIsNoDistinctStable() {
      assertEquals(new CanarySplit(5, 0), BasicCanaryReplicas.desiredCounts(5, 20, 100, 2, false));
      assertEquals(new CanarySplit(1, 4), BasicCanaryReplicas.desiredCounts(5, 20, 100, 2, true));
    }
  }

  @Nested
  class FirstPass {

    @ParameterizedTest(
        name = "R={0} w={1} surge={2} unavailable={3} from new {4}/stable {5} => {6}/{7}")
    @CsvSource({
      // R, w, S, U, newSpec(=available), stableSpec(=available), expected new, expected stable
      "10, 10, 1, 1, 0, 10, 1, 9",
      "10, 30, 3, 0, 0, 10, 3, 10",
      "10, 30, 0, 5, 0, 10, 0, 7",
      "1, 5, 1, 0, 0, 1, 1, 1",
      "5, 20, 2, 1, 0, 5, 1, 4",
      "5, 50, 2, 1, 0, 5, 2, 4",
      "5, 50, 0, 1, 0, 5, 0, 4",
      "5, 60, 2, 1, 0, 5, 2, 4",
      "5, 33, 2, 1, 0, 5, 2, 4",
      "3, 50, 1, 0, 0, 3, 1, 3",
      "3, 50, 0, 1, 0, 3, 0, 2",
      "2, 50, 1, 0, 0, 2, 1, 2",
      "2, 50, 0, 1, 0, 2, 0, 1",
      "4, 25, 1, 1, 0, 4, 1, 3",
      "4, 75, 1, 1, 0, 4, 1, 3",
      "1, 50, 1, 0, 0, 1, 1, 1",
      "1, 50, 0, 1, 0, 1, 0, 0",
      "5, 0, 2, 1, 0, 5, 0, 5",
      "5, 100, 2, 1, 0, 5, 2, 4",
      "10, 5, 3, 2, 0, 10, 1, 10",
      "10, 15, 3, 2, 0, 10, 2, 9",
      "2, 10, 1, 0, 0, 2, 1, 2",
      "2, 90, 1, 0, 0, 2, 1, 2",
      "3, 33, 1, 0, 0, 3, 1, 3",
      "7, 50, 2, 1, 0, 7, 2, 6",
      "12, 99, 3, 3, 0, 12, 3, 9",
      "4, 10, 1, 1, 0, 4, 1, 4",
      "6, 33, 2, 1, 0, 6, 2, 5",
      // not starting from scratch
      "5, 0, 2, 1, 2, 3, 1, 5",
      "10, 50, 3, 2, 2, 8, 5, 6",
      "4, 25, 1, 1, 2, 2, 1, 3",
    })
    void movesWithinSurgeAndAvailability_thenConvergesToSplit(
        int replicas,
        int weight,
        int surge,
        int unavailable,
        int newSpec,
        int stableSpec,
        int expectedNew,
        int expectedStable) {
      Fenceposts fenceposts = new Fenceposts(surge, unavailable);
      CanarySimulation.State start =
          new CanarySimulation.State(
              RsState.ready("new", newSpec, 2), RsState.ready("stable", stableSpec, 1), List.of());
      CanarySimulation sim = new CanarySimulation(replicas, fenceposts);

      CanaryReplicaPlan plan = BasicCanaryReplicas.plan(sim.input(start, weight));
      assertEquals(
          new CanarySplit(expectedNew, expectedStable),
          new CanarySplit(plan.newRS(), plan.stableRS()));
      assertEquals(Map.of(), plan.otherRS());

      sim.convergeToDesired(start, weight, 4 * replicas + 8);
    }

    @Test
    void holdsNewBack_whenStableCannotShrinkWithoutUnavailability() {
      // maxUnavailable 0: the canary may only use the surge until the new pods are available.
      BasicCanaryInput in = input(10, 30, 3, 0, rs("new", 3, 0, 2), RsState.ready("stable", 10, 1));
      assertEquals(new CanarySplit(3, 10), BasicCanaryReplicas.newAndStableTargets(in));
      // Once they are, the stable ReplicaSet shrinks by the available surplus.
      in = input(10, 30, 3, 0, RsState.ready("new", 3, 2), RsState.ready("stable", 10, 1));
      assertEquals(new CanarySplit(3, 7), BasicCanaryReplicas.newAndStableTargets(in));
    }

    @Test
    void ignoresStableAvailability_whenCanaryGrows() {
      // Stable pods crash-looping must not block the canary: stable spec counts, not its
      // availability.
      BasicCanaryInput in = input(4, 50, 1, 1, RsState.ready("new", 1, 2), rs("stable", 4, 1, 1));
      // pool = 1 (new available) + 4 (stable spec) = 5 > 3 => stable down by 2 to the split's 2;
      // new grows by room 0.
      assertEquals(new CanarySplit(1, 2), BasicCanaryReplicas.newAndStableTargets(in));
    }

    @Test
    void ignoresNewAvailability_whenCanaryShrinks() {
      // Abort with a canary that never became ready: the new ReplicaSet can drop its unready pods
      // right away.
      BasicCanaryInput in = input(4, 0, 1, 1, rs("new", 2, 0, 2), RsState.ready("stable", 3, 1));
      // room 0; pool = 2 (new spec) + 3 (stable available) = 5 > 3 => new down to max(0, 2 - 2) =
      // 0.
      assertEquals(new CanarySplit(0, 3), BasicCanaryReplicas.newAndStableTargets(in));
    }

    @Test
    void growsStableBeforeNew_whenRoomIsShort() {
      // w 50 -> 25 on R=4: stable takes the single surge slot; the new ReplicaSet cannot grow
      // anyway.
      BasicCanaryInput in =
          input(4, 25, 1, 0, RsState.ready("new", 2, 2), RsState.ready("stable", 2, 1));
      // B: stable 2 -> 3 (room 1). D: decreasing; pool = 2 + 2 = 4 <= 4 => stop.
      assertEquals(new CanarySplit(2, 3), BasicCanaryReplicas.newAndStableTargets(in));
    }

    @Test
    void countsOnlySpecOfReplicaSetWithSurplusAvailablePods() {
      // available > spec (pods terminating): only spec counts toward availability.
      BasicCanaryInput in =
          input(4, 50, 1, 1, RsState.ready("new", 1, 2), new RsState("stable", 3, 4, 4, 1));
      // A (2,2). B: room = 5 - 4 = 1, new -> 2. D: pool = 1 + 3 = 4 > 3 => stable max(2, 3 - 1) =
      // 2.
      // adjust(stable 2, new 2): over 0; avail = min(4, 2) + min(1, 2) = 3 >= 3 => (2, 2).
      assertEquals(new CanarySplit(2, 2), BasicCanaryReplicas.newAndStableTargets(in));
    }

    @Test
    void returnsAfterScaleUp_whileOtherReplicaSetsHavePods() {
      BasicCanaryInput in =
          input(
              5,
              20,
              2,
              1,
              RsState.ready("v3", 0, 3),
              RsState.ready("v1", 4, 1),
              RsState.ready("v2", 2, 2));
      // room = 7 - 6 = 1 goes to the new ReplicaSet; no scale-down of stable while v2 has pods.
      assertEquals(new CanarySplit(1, 4), BasicCanaryReplicas.newAndStableTargets(in));
    }
  }

  @Nested
  class WithoutDistinctStable {

    @Test
    void scalesNewToReplicas_onInitialDeploy() {
      BasicCanaryInput in = input(5, 20, 2, 1, RsState.ready("new", 0, 1), null);
      assertEquals(new CanarySplit(5, 0), BasicCanaryReplicas.newAndStableTargets(in));
      assertEquals(new CanaryReplicaPlan(5, 0, Map.of()), BasicCanaryReplicas.plan(in));
    }

    @Test
    void scalesNewToReplicas_whenStableIsTheNewReplicaSet() {
      RsState same = RsState.ready("web-abc", 3, 2);
      BasicCanaryInput in = input(5, 20, 2, 1, same, same);
      assertEquals(new CanarySplit(5, 5), BasicCanaryReplicas.newAndStableTargets(in));
    }

    @Test
    void treatsReplicaSetsWithSameNameAsIdentical() {
      BasicCanaryInput in =
          input(2, 20, 1, 0, RsState.ready("web-abc", 5, 2), new RsState("web-abc", 5, 5, 5, 2));
      assertFalse(in.hasDistinctStable());
      assertEquals(new CanarySplit(2, 2), BasicCanaryReplicas.newAndStableTargets(in));
    }

    @Test
    void reachesReplicas_whenNewReplicaSetIsAlsoStable() {
      // spec.replicas scaled from 7 to 5 on a fully promoted Rollout.
      RsState same = RsState.ready("web-abc", 7, 2);
      assertEquals(
          new CanarySplit(5, 5),
          BasicCanaryReplicas.newAndStableTargets(input(5, 100, 2, 1, same, same)));
    }
  }

  @Nested
  class OtherReplicaSets {

    @Test
    void drainsOldReplicaSetWithinAvailability() {
      BasicCanaryInput in =
          input(
              5,
              20,
              2,
              1,
              RsState.ready("v3", 1, 3),
              RsState.ready("v1", 4, 1),
              RsState.ready("v2", 2, 2));
      // available 1 + 4 + 2 = 7, minimum 4 => budget 3 >= 2.
      assertEquals(Map.of("v2", 0), BasicCanaryReplicas.otherTargets(in));
    }

    @Test
    void dropsUnhealthyPodsFirst_thenSpendsBudgetNewestRevisionFirst() {
      RsState newRS = RsState.ready("new", 0, 4);
      BasicCanaryInput in =
          input(5, 0, 2, 0, newRS, rs("stable", 5, 3, 3), rs("a", 3, 3, 1), rs("b", 2, 2, 2));
      // no unhealthy pods; available 0 + 3 + 3 + 2 = 8, minimum 5 => budget 3: b (rev 2) -> 0, then
      // a 3 -> 2.
      assertEquals(Map.of("a", 2, "b", 0), BasicCanaryReplicas.otherTargets(in));

      in =
          input(
              5, 0, 2, 1, newRS, RsState.ready("stable", 5, 3), rs("a", 3, 1, 1), rs("b", 2, 2, 2));
      // clean-up a 3 -> 1; available 0 + 5 + 1 + 2 = 8, minimum 4 => budget 4: b -> 0, a -> 0.
      assertEquals(Map.of("a", 0, "b", 0), BasicCanaryReplicas.otherTargets(in));
    }

    @Test
    void onlyCleansUpUnhealthyPods_whenNoBudgetIsLeft() {
      BasicCanaryInput in =
          input(5, 20, 2, 0, RsState.ready("new", 1, 3), rs("stable", 4, 2, 1), rs("v2", 3, 2, 2));
      // clean-up v2 3 -> 2; available 1 + 2 + 2 = 5 = minimum => nothing more.
      assertEquals(Map.of("v2", 2), BasicCanaryReplicas.otherTargets(in));
    }

    @Test
    void stopsCleanup_whenAReplicaSetHasMoreAvailablePodsThanSpec() {
      RsState c = new RsState("c", 1, 2, 2, 2);
      BasicCanaryInput in =
          input(
              5,
              20,
              2,
              1,
              RsState.ready("new", 1, 4),
              RsState.ready("stable", 4, 1),
              rs("a", 3, 1, 1),
              c,
              rs("b", 2, 2, 3));
      // ascending revision: a cleaned up to 1, then c (available 2 > spec 1) interrupts; no budget
      // phase.
      assertEquals(Map.of("a", 1), BasicCanaryReplicas.otherTargets(in));
    }

    @Test
    void doesNothing_whenOtherReplicaSetsAreScaledToZero() {
      BasicCanaryInput in =
          input(
              5,
              20,
              2,
              1,
              RsState.ready("new", 1, 3),
              RsState.ready("stable", 4, 1),
              new RsState("v2", 0, 1, 1, 2));
      assertEquals(Map.of(), BasicCanaryReplicas.otherTargets(in));
    }

    @Test
    void planCombinesNewStableAndOtherTargets() {
      BasicCanaryInput in =
          input(
              5,
              20,
              2,
              1,
              RsState.ready("v3", 1, 3),
              RsState.ready("v1", 4, 1),
              RsState.ready("v2", 2, 2));
      assertEquals(new CanaryReplicaPlan(1, 4, Map.of("v2", 0)), BasicCanaryReplicas.plan(in));
    }

    @Test
    void drainsInterruptedCanary_thenReachesNewSplit() {
      CanarySimulation sim = new CanarySimulation(5, new Fenceposts(2, 1));
      CanarySimulation.State start =
          new CanarySimulation.State(
              RsState.ready("v3", 0, 3),
              RsState.ready("v1", 4, 1),
              List.of(RsState.ready("v2", 2, 2)));
      CanarySimulation.State end = sim.convergeToDesired(start, 20, 10);
      assertEquals(new CanarySplit(1, 4), end.split());
      // pass 1 scales v3 up into the free surge slot, pass 2 drains v2.
      assertEquals(
          List.of("weight 20: new=0 stable=4 v2=2", "new=1 stable=4 v2=2", "new=1 stable=4 v2=0"),
          sim.trace());
    }
  }

  @Nested
  class Abort {

    @Test
    void rollsBackToStable_withinSurgeAndAvailability() {
      CanarySimulation sim = new CanarySimulation(5, Fenceposts.resolve(null, null, 5));
      CanarySimulation.State start =
          new CanarySimulation.State(
              RsState.ready("new", 2, 2), RsState.ready("stable", 3, 1), List.of());
      CanarySimulation.State end = sim.convergeToDesired(start, 0, 10);
      assertEquals(new CanarySplit(0, 5), end.split());
      assertEquals(
          List.of("weight 0: new=2 stable=3", "new=2 stable=5", "new=0 stable=5"), sim.trace());
    }

    @Test
    void rollsBackFromFullCanary() {
      CanarySimulation sim = new CanarySimulation(4, new Fenceposts(1, 0));
      CanarySimulation.State start =
          new CanarySimulation.State(
              RsState.ready("new", 4, 2), RsState.ready("stable", 0, 1), List.of());
      CanarySimulation.State end = sim.convergeToDesired(start, 0, 20);
      assertEquals(new CanarySplit(0, 4), end.split());
    }
  }

  @Nested
  class AtDesiredReplicaCounts {

    private final RsState stable = RsState.ready("stable", 4, 1);

    @Test
    void isReached_whenNewAndStableMatchAndOthersHaveNoAvailablePods() {
      BasicCanaryInput in =
          input(5, 20, 2, 1, RsState.ready("new", 1, 2), stable, new RsState("old", 0, 0, 1, 0));
      assertTrue(BasicCanaryReplicas.atDesiredReplicaCounts(in, null));
    }

    @Test
    void isNotReached_whileCanaryPodsAreUnavailable() {
      BasicCanaryInput in = input(5, 20, 2, 1, rs("new", 1, 0, 2), stable);
      assertFalse(BasicCanaryReplicas.atDesiredReplicaCounts(in, null));
      assertFalse(BasicCanaryReplicas.atDesiredReplicaCounts(in, threshold(Type.PERCENT, 80)));
      assertFalse(BasicCanaryReplicas.atDesiredReplicaCounts(in, threshold(Type.PODS, -1)));
      assertTrue(BasicCanaryReplicas.atDesiredReplicaCounts(in, threshold(Type.PODS, 0)));
    }

    @Test
    void isNotReached_whileStablePodsAreStillTerminating() {
      BasicCanaryInput in =
          input(5, 20, 2, 1, RsState.ready("new", 1, 2), new RsState("stable", 4, 4, 5, 1));
      assertFalse(BasicCanaryReplicas.atDesiredReplicaCounts(in, null));
    }

    @Test
    void isNotReached_whileOtherReplicaSetsHaveAvailablePods() {
      BasicCanaryInput in =
          input(5, 20, 2, 1, RsState.ready("new", 1, 2), stable, RsState.ready("old", 1, 0));
      assertFalse(BasicCanaryReplicas.atDesiredReplicaCounts(in, null));
    }

    @Test
    void ignoresOtherReplicaSetsWithoutAvailablePods() {
      // Mirrors Argo Rollouts: only available pods of other ReplicaSets block the step.
      BasicCanaryInput in =
          input(5, 20, 2, 1, RsState.ready("new", 1, 2), stable, new RsState("old", 1, 0, 1, 0));
      assertTrue(BasicCanaryReplicas.atDesiredReplicaCounts(in, null));
    }

    @Test
    void isNotReached_withoutStableReplicaSet() {
      BasicCanaryInput initial = input(5, 20, 2, 1, RsState.ready("new", 5, 2), null);
      assertFalse(BasicCanaryReplicas.atDesiredReplicaCounts(initial, null));
      assertFalse(
          BasicCanaryReplicas.atDesiredReplicaCounts(input(5, 20, 2, 1, null, stable), null));
    }

    @Test
    void comparesWithThisPassTargets_notTheFinalSplit() {
      // w 50 -> 25 on R=4, stable grown to 3 but only 1 of its pods is available: the new
      // ReplicaSet cannot shrink yet
      // (pool 2 + 1 = 3 is the minimum), so this pass keeps (2, 3) and the step counts as reached
      // although the split
      // (1, 3) is not: Argo Rollouts compares with CalculateReplicaCountsForBasicCanary.
      BasicCanaryInput in =
          input(4, 25, 1, 1, RsState.ready("new", 2, 2), new RsState("stable", 3, 1, 3, 1));
      assertEquals(new CanarySplit(2, 3), BasicCanaryReplicas.newAndStableTargets(in));
      assertEquals(new CanarySplit(1, 3), BasicCanaryReplicas.desiredCounts(4, 25, 100, 1, true));
      assertTrue(BasicCanaryReplicas.atDesiredReplicaCounts(in, null));
    }
  }

  @Nested
  class InputValidation {

    @Test
    void rejectsWeightOutsideRange() {
      assertThrows(IllegalArgumentException.class, () -> input(5, 101, 1, 1, null, null));
      assertThrows(IllegalArgumentException.class, () -> input(5, -1, 1, 1, null, null));
    }

    @Test
    void rejectsDuplicateReplicaSetNames() {
      RsState a = RsState.ready("a", 1, 1);
      assertThrows(
          IllegalArgumentException.class,
          () -> input(5, 10, 1, 1, RsState.ready("b", 1, 2), null, a, a));
      assertThrows(
          IllegalArgumentException.class,
          () ->
              input(
                  5,
                  10,
                  1,
                  1,
                  RsState.ready("b", 1, 2),
                  RsState.ready("s", 1, 1),
                  RsState.ready("b", 0, 0)));
    }

    @Test
    void rejectsNegativeCounts() {
      assertThrows(IllegalArgumentException.class, () -> new RsState("a", -1, 0, 0, 1));
      assertThrows(IllegalArgumentException.class, () -> input(-1, 10, 1, 1, null, null));
    }
  }
}
