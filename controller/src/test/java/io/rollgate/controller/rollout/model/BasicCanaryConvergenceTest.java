package io.rollgate.controller.rollout.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property checks of the basic-canary maths over a grid of replica counts, weights and fenceposts:
 * from any state the controller itself produces, repeated passes reach the weighted split without
 * ever exceeding {@code R + maxSurge} pods or dropping below {@code R - maxUnavailable} available
 * pods.
 */
class BasicCanaryConvergenceTest {

  private static final int[] WEIGHTS = {0, 5, 10, 20, 25, 33, 50, 60, 75, 80, 99, 100};
  private static final Object[] FENCEPOSTS = {0, 1, "25%", "50%"};

  static Stream<Arguments> grid() {
    List<Arguments> cases = new ArrayList<>();
    for (int replicas = 1; replicas <= 12; replicas++) {
      for (Object surge : FENCEPOSTS) {
        for (Object unavailable : FENCEPOSTS) {
          if (Integer.valueOf(0).equals(surge) && Integer.valueOf(0).equals(unavailable)) {
            continue; // rejected by validation
          }
          for (int weight : WEIGHTS) {
            cases.add(Arguments.of(replicas, weight, surge, unavailable));
          }
        }
      }
    }
    return cases.stream();
  }

  private static int maxPasses(int replicas) {
    return 4 * replicas + 8;
  }

  @ParameterizedTest(name = "R={0} w={1} maxSurge={2} maxUnavailable={3}")
  @MethodSource("grid")
  void convergesWithinLimits_throughStepAbortRetryAndPromotion(
      int replicas, int weight, Object surge, Object unavailable) {
    Fenceposts fenceposts = Fenceposts.resolve(surge, unavailable, replicas);
    CanarySimulation sim = new CanarySimulation(replicas, fenceposts);
    int passes = maxPasses(replicas);

    CanarySimulation.State s = CanarySimulation.State.initial(replicas);
    s = sim.convergeToDesired(s, weight, passes); // setWeight step
    s = sim.convergeToDesired(s, 0, passes); // abort
    assertEquals(new CanarySplit(0, replicas), s.split());
    s = sim.convergeToDesired(s, weight, passes); // retry
    s = sim.convergeToDesired(s, 100, passes); // past the last step, before promotion
    assertEquals(new CanarySplit(replicas, 0), s.split());
    s = sim.convergeToDesired(s, 0, passes); // abort from a full canary
    assertEquals(new CanarySplit(0, replicas), s.split());
  }

  static Stream<Arguments> interruptedGrid() {
    List<Arguments> cases = new ArrayList<>();
    for (int replicas = 1; replicas <= 12; replicas++) {
      for (Object surge : FENCEPOSTS) {
        for (Object unavailable : FENCEPOSTS) {
          if (Integer.valueOf(0).equals(surge) && Integer.valueOf(0).equals(unavailable)) {
            continue;
          }
          for (int previousWeight : new int[] {10, 50, 80}) {
            for (int weight : new int[] {0, 20, 50, 100}) {
              cases.add(Arguments.of(replicas, previousWeight, weight, surge, unavailable));
            }
          }
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "R={0} previous w={1} new w={2} maxSurge={3} maxUnavailable={4}")
  @MethodSource("interruptedGrid")
  void drainsInterruptedCanaryWithinLimits_whenTemplateChangesMidRollout(
      int replicas, int previousWeight, int weight, Object surge, Object unavailable) {
    Fenceposts fenceposts = Fenceposts.resolve(surge, unavailable, replicas);
    CanarySimulation sim = new CanarySimulation(replicas, fenceposts);
    int passes = maxPasses(replicas);

    CanarySimulation.State v2 =
        sim.convergeToDesired(CanarySimulation.State.initial(replicas), previousWeight, passes);
    // A third template arrives: the v2 canary becomes an "other" ReplicaSet and a fresh v3 starts
    // at 0.
    CanarySimulation.State v3 =
        new CanarySimulation.State(RsState.ready("v3", 0, 3), v2.stableRS(), List.of(v2.newRS()));
    sim.convergeToDesired(v3, weight, 2 * passes);
  }
}
