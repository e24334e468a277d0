package io.rollgate.controller.rollout.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.controller.rollout.model.TrafficRoutedInput.RecordedWeights;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TrafficRoutedReplicaMathTest {

  private static CanarySplit targets(TrafficRoutedInput input) {
    return TrafficRoutedReplicaMath.targets(input);
  }

  @ParameterizedTest(name = "w={0} of R={1} (W={2}) => {3}")
  @CsvSource({
    "10, 10, 100, 1",
    "15, 10, 100, 2",
    "1, 3, 100, 1",
    "0, 10, 100, 0",
    "100, 7, 100, 7",
    "50, 10, 200, 3",
    "33, 3, 100, 1",
    "99, 12, 100, 12",
    "50, 0, 100, 0",
  })
  void convertsWeightToReplicasRoundingUp(int weight, int replicas, int maxWeight, int expected) {
    assertEquals(expected, TrafficRoutedReplicaMath.toReplicas(weight, replicas, maxWeight));
  }

  /** A weight-based input on 10 replicas out of a total weight of 100. */
  private static TrafficRoutedInput weight(int weight) {
    return TrafficRoutedInput.forWeight(10, 100, weight);
  }

  /** A setCanaryScale-replicas input on 10 replicas. */
  private static TrafficRoutedInput scaleReplicas(int replicas) {
    return TrafficRoutedInput.forCanaryScaleReplicas(10, 100, replicas);
  }

  private static TrafficRoutedInput dynamic(TrafficRoutedInput in) {
    return in.withDynamicStableScale(null, false);
  }

  private static TrafficRoutedInput recorded(
      TrafficRoutedInput in, int canaryWeight, int stableWeight) {
    return in.withDynamicStableScale(new RecordedWeights(canaryWeight, stableWeight), false);
  }

  @Test
  void keepsStableFullyScaled_andSizesCanaryFromWeightWithoutSurgeLimit() {
    assertEquals(new CanarySplit(2, 10), targets(weight(20)));
    assertEquals(new CanarySplit(10, 10), targets(weight(100)));
    assertEquals(new CanarySplit(0, 10), targets(weight(0)));
    assertEquals(new CanarySplit(0, 0), targets(TrafficRoutedInput.forWeight(0, 100, 50)));
  }

  @Test
  void raisesNonZeroCanaryToMinPods_cappedAtReplicas() {
    assertEquals(new CanarySplit(3, 10), targets(weight(20).withMinPodsPerReplicaSet(3)));
    assertEquals(new CanarySplit(10, 10), targets(weight(20).withMinPodsPerReplicaSet(20)));
    assertEquals(new CanarySplit(0, 10), targets(weight(0).withMinPodsPerReplicaSet(3)));
    assertEquals(new CanarySplit(5, 10), targets(weight(50).withMinPodsPerReplicaSet(3)));
  }

  @Test
  void usesSetCanaryScaleReplicasAsIs_withoutDynamicStableScale() {
    assertEquals(new CanarySplit(4, 10), targets(scaleReplicas(4)));
    assertEquals(new CanarySplit(0, 10), targets(scaleReplicas(0)));
    assertEquals(new CanarySplit(12, 10), targets(scaleReplicas(12)));
    assertEquals(new CanarySplit(1, 10), targets(scaleReplicas(1).withMinPodsPerReplicaSet(3)));
  }

  @Test
  void scalesStableWithTrafficWeight_whenDynamic() {
    assertEquals(new CanarySplit(3, 7), targets(dynamic(weight(30))));
    // both round up: ceil(2.5) canary and ceil(7.5) stable
    assertEquals(new CanarySplit(3, 8), targets(dynamic(weight(25))));
  }

  @Test
  void keepsStableForRecordedWeight_untilTrafficHasMoved() {
    // The router still sends 100% to stable (recorded by the previous pass): stable stays at 10.
    assertEquals(new CanarySplit(3, 10), targets(recorded(weight(30), 0, 100)));
    // Once 30% is recorded, stable follows.
    assertEquals(new CanarySplit(3, 7), targets(recorded(weight(30), 30, 70)));
  }

  @Test
  void growsStableBeforeWeightReturns_whenCanaryWeightDecreases() {
    assertEquals(new CanarySplit(3, 7), targets(recorded(weight(30), 50, 50)));
  }

  @Test
  void keepsCanaryForRecordedWeight_whenAbortedWithDynamicStableScale() {
    RecordedWeights recorded = new RecordedWeights(40, 60);
    assertEquals(new CanarySplit(4, 10), targets(weight(0).withDynamicStableScale(recorded, true)));
    assertEquals(
        new CanarySplit(0, 10), targets(weight(0).withDynamicStableScale(recorded, false)));
    // Without recorded weights there is nothing to hold on to.
    assertEquals(new CanarySplit(0, 10), targets(weight(0).withDynamicStableScale(null, true)));
  }

  @Test
  void raisesBothToMinPods_whenDynamic() {
    assertEquals(new CanarySplit(2, 10), targets(dynamic(weight(5).withMinPodsPerReplicaSet(2))));
    assertEquals(new CanarySplit(10, 2), targets(dynamic(weight(95).withMinPodsPerReplicaSet(2))));
    assertEquals(
        new CanarySplit(3, 10), targets(dynamic(scaleReplicas(1).withMinPodsPerReplicaSet(3))));
    assertEquals(new CanarySplit(10, 0), targets(dynamic(weight(100).withMinPodsPerReplicaSet(2))));
  }

  @Test
  void keepsStableFullyScaled_whenSetCanaryScaleReplicasWithDynamicStableScale() {
    // Argo Rollouts reports weight 0 alongside setCanaryScale replicas, so stable is sized for 100%
    // traffic.
    assertEquals(new CanarySplit(2, 10), targets(dynamic(scaleReplicas(2))));
  }

  @Test
  void honoursMaxTrafficWeight() {
    // 40 of 200 is 20%: canary ceil(400 / 200) = 2, stable ceil(160 * 10 / 200) = 8.
    assertEquals(
        new CanarySplit(2, 8), targets(dynamic(TrafficRoutedInput.forWeight(10, 200, 40))));
  }

  @Test
  void rejectsWeightTogetherWithCanaryScaleReplicas() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new TrafficRoutedInput(10, 100, 2, 30, null, false, false, null));
    assertThrows(IllegalArgumentException.class, () -> TrafficRoutedInput.forWeight(10, 100, 101));
    assertThrows(IllegalArgumentException.class, () -> TrafficRoutedInput.forWeight(-1, 100, 10));
  }

  @Test
  void isAtDesiredReplicaCounts_whenCanaryIsAvailableAndStableIsFull() {
    TrafficRoutedInput in = weight(20);
    RsState stable = RsState.ready("stable", 10, 1);
    assertTrue(
        TrafficRoutedReplicaMath.atDesiredReplicaCounts(
            in, RsState.ready("new", 2, 2), stable, null));
    assertFalse(
        TrafficRoutedReplicaMath.atDesiredReplicaCounts(
            in, new RsState("new", 2, 1, 2, 2), stable, null));
    assertFalse(
        TrafficRoutedReplicaMath.atDesiredReplicaCounts(
            in, RsState.ready("new", 2, 2), new RsState("stable", 10, 10, 11, 1), null));
    assertFalse(
        TrafficRoutedReplicaMath.atDesiredReplicaCounts(
            in, RsState.ready("new", 2, 2), null, null));
  }

  @Test
  void ignoresStable_whenDynamic() {
    TrafficRoutedInput in = dynamic(weight(20));
    assertTrue(
        TrafficRoutedReplicaMath.atDesiredReplicaCounts(
            in, RsState.ready("new", 2, 2), null, null));
  }

  @Test
  void acceptsPartiallyAvailableCanary_underPercentThreshold() {
    TrafficRoutedInput in = weight(50);
    RsState stable = RsState.ready("stable", 10, 1);
    ReplicaProgressThreshold eighty =
        new ReplicaProgressThreshold(ReplicaProgressThreshold.Type.PERCENT, 80);
    assertTrue(
        TrafficRoutedReplicaMath.atDesiredReplicaCounts(
            in, new RsState("new", 5, 4, 5, 2), stable, eighty));
    assertFalse(
        TrafficRoutedReplicaMath.atDesiredReplicaCounts(
            in, new RsState("new", 5, 3, 5, 2), stable, eighty));
    assertFalse(
        TrafficRoutedReplicaMath.atDesiredReplicaCounts(
            in, new RsState("new", 5, 4, 5, 2), stable, null));
  }
}
