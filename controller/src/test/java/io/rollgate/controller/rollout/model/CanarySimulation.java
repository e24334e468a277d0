package io.rollgate.controller.rollout.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;

/**
 * Drives the basic-canary maths pass by pass against an in-memory cluster in which pods become
 * available as soon as they are asked for, applying at most one category per pass (stable, then
 * new, then others) as the controller does.
 */
final class CanarySimulation {

  /** The ReplicaSets of one Rollout; {@code others} never contains the new or stable ReplicaSet. */
  record State(RsState newRS, RsState stableRS, List<RsState> others) {
    State {
      others = List.copyOf(others);
    }

    static State initial(int replicas) {
      return new State(RsState.ready("new", 0, 2), RsState.ready("stable", replicas, 1), List.of());
    }

    int totalSpec() {
      return newRS.specReplicas()
          + stableRS.specReplicas()
          + others.stream().mapToInt(RsState::specReplicas).sum();
    }

    int totalAvailable() {
      return newRS.availableReplicas()
          + stableRS.availableReplicas()
          + others.stream().mapToInt(RsState::availableReplicas).sum();
    }

    CanarySplit split() {
      return new CanarySplit(newRS.specReplicas(), stableRS.specReplicas());
    }

    int othersSpec() {
      return others.stream().mapToInt(RsState::specReplicas).sum();
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder();
      s.append("new=")
          .append(newRS.specReplicas())
          .append(" stable=")
          .append(stableRS.specReplicas());
      for (RsState o : others) {
        s.append(' ').append(o.name()).append('=').append(o.specReplicas());
      }
      return s.toString();
    }
  }

  private final int replicas;
  private final Fenceposts fenceposts;
  private final List<String> trace = new ArrayList<>();

  CanarySimulation(int replicas, Fenceposts fenceposts) {
    this.replicas = replicas;
    this.fenceposts = fenceposts;
  }

  BasicCanaryInput input(State s, int weight) {
    return new BasicCanaryInput(
        replicas, weight, 100, fenceposts, s.newRS(), s.stableRS(), s.others());
  }

  /** One reconcile pass; returns the same instance when nothing scaled. */
  State pass(State s, int weight) {
    CanaryReplicaPlan plan = BasicCanaryReplicas.plan(input(s, weight));
    if (plan.stableRS() != s.stableRS().specReplicas()) {
      return new State(s.newRS(), scaled(s.stableRS(), plan.stableRS()), s.others());
    }
    if (plan.newRS() != s.newRS().specReplicas()) {
      return new State(scaled(s.newRS(), plan.newRS()), s.stableRS(), s.others());
    }
    if (!plan.otherRS().isEmpty()) {
      List<RsState> others = new ArrayList<>();
      for (RsState o : s.others()) {
        Integer target = plan.otherRS().get(o.name());
        others.add(target == null ? o : scaled(o, target));
      }
      return new State(s.newRS(), s.stableRS(), others);
    }
    return s;
  }

  /**
   * Runs passes until nothing scales, checking after every pass that the surge and availability
   * limits hold and that "at desired replica counts" is only reported at the fixed point.
   */
  State converge(State start, int weight, int maxPasses) {
    State s = start;
    trace.add("weight " + weight + ": " + s);
    for (int i = 0; i < maxPasses; i++) {
      boolean atDesired = BasicCanaryReplicas.atDesiredReplicaCounts(input(s, weight), null);
      State next = pass(s, weight);
      if (next == s) {
        assertTrue(atDesired, () -> "fixed point not at desired replica counts; " + trace);
        return s;
      }
      assertFalse(atDesired, () -> "at desired replica counts before the fixed point; " + trace);
      s = next;
      trace.add(s.toString());
      State current = s;
      assertTrue(
          s.totalSpec() <= replicas + fenceposts.maxSurge(),
          () ->
              "surge exceeded: "
                  + current.totalSpec()
                  + " > "
                  + (replicas + fenceposts.maxSurge())
                  + "; "
                  + trace);
      assertTrue(
          s.totalAvailable() >= replicas - fenceposts.maxUnavailable(),
          () ->
              "availability violated: "
                  + current.totalAvailable()
                  + " < "
                  + (replicas - fenceposts.maxUnavailable())
                  + "; "
                  + trace);
    }
    return fail("no fixed point within " + maxPasses + " passes; " + trace);
  }

  /** Converges and checks the result is the target split with all other ReplicaSets drained. */
  State convergeToDesired(State start, int weight, int maxPasses) {
    State end = converge(start, weight, maxPasses);
    CanarySplit desired =
        BasicCanaryReplicas.desiredCounts(replicas, weight, 100, fenceposts.maxSurge(), true);
    assertEquals(desired, end.split(), () -> "converged elsewhere; " + trace);
    assertEquals(0, end.othersSpec(), () -> "other ReplicaSets not drained; " + trace);
    return end;
  }

  List<String> trace() {
    return trace;
  }

  private static RsState scaled(RsState rs, int replicas) {
    return new RsState(rs.name(), replicas, replicas, replicas, rs.revision());
  }
}
