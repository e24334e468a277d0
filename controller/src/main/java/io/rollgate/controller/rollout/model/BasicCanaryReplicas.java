package io.rollgate.controller.rollout.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replica maths of the Argo Rollouts basic canary (no {@code spec.strategy.canary.trafficRouting}):
 * the weight is approximated by the ratio of canary to stable pods, moved within {@code maxSurge}
 * and {@code maxUnavailable}.
 *
 * <p>One reconcile pass is modelled in two parts, as Argo Rollouts does: {@link
 * #newAndStableTargets} (its {@code CalculateReplicaCountsForBasicCanary}: target split, scale up
 * within surge, wait for other ReplicaSets, scale down within availability) and {@link
 * #otherTargets} (its {@code scaleDownOldReplicaSetsForCanary}). All functions are pure.
 */
public final class BasicCanaryReplicas {

  private BasicCanaryReplicas() {}

  /**
   * Finds the canary/stable replica counts that best approximate a weight (Argo Rollouts basic
   * canary {@code approximateWeightedCanaryStableReplicaCounts}).
   *
   * <p>Candidates, in order: {@code (ceil, R)} if {@code ceil < R} or zero is allowed; {@code
   * (floor, R)} unless {@code R * w / W} ends in exactly .5, and if the floor is non-zero or zero
   * is allowed; with surge, {@code (ceil, R+1)} and, unless {@code (R+1) * w / W} ends in .5,
   * {@code (floor, R+1)} under the same floor rule. The candidate whose weight {@code canary * W /
   * total} is closest to {@code w} wins, the earliest on ties. Zero is allowed when {@code w} is 0
   * or {@code W}, or when {@code R == 1} without surge. So a weight strictly between 0 and W never
   * gives 0 canary or 0 stable pods when two pods fit, halves round up, and the split may use
   * {@code R + 1} pods.
   *
   * @param replicas {@code spec.replicas}, R (replicas, not negative)
   * @param weight the desired canary weight, w (0 to {@code maxWeight})
   * @param maxWeight the total weight, W (100 for a basic canary; greater than 0)
   * @param maxSurge the resolved {@code maxSurge} (replicas); only whether it is positive matters
   * @return the split; (0, 0) when {@code replicas} is 0
   */
  public static CanarySplit approximateWeightedSplit(
      int replicas, int weight, int maxWeight, int maxSurge) {
    if (replicas == 0) {
      return new CanarySplit(0, 0);
    }
    int ceil = (int) Math.ceil((double) (replicas * weight) / maxWeight);
    int floor = (int) Math.floor((double) (replicas * weight) / maxWeight);
    boolean zeroAllowed = weight == maxWeight || weight == 0 || (replicas == 1 && maxSurge == 0);
    boolean floorUsable = floor != 0 || zeroAllowed;

    List<int[]> candidates = new ArrayList<>(4);
    if (ceil < replicas || zeroAllowed) {
      candidates.add(new int[] {ceil, replicas});
    }
    if (!halfTied(replicas, weight, maxWeight) && floorUsable) {
      candidates.add(new int[] {floor, replicas});
    }
    if (maxSurge > 0) {
      candidates.add(new int[] {ceil, replicas + 1});
      if (!halfTied(replicas + 1, weight, maxWeight) && floorUsable) {
        candidates.add(new int[] {floor, replicas + 1});
      }
    }
    if (candidates.isEmpty()) {
      return new CanarySplit(0, replicas);
    }
    int[] best = candidates.get(0);
    double bestDelta = weightDelta(weight, maxWeight, best);
    for (int i = 1; i < candidates.size(); i++) {
      double delta = weightDelta(weight, maxWeight, candidates.get(i));
      if (delta < bestDelta) {
        best = candidates.get(i);
        bestDelta = delta;
      }
    }
    return new CanarySplit(best[0], best[1] - best[0]);
  }

  /**
   * Returns the split a basic canary converges to: {@link #approximateWeightedSplit} while a
   * distinct stable ReplicaSet exists, otherwise {@code (R, 0)} (initial deploy, or the new
   * ReplicaSet is the stable one).
   *
   * <p>Note that Argo Rollouts' "at desired replica counts" check compares with the constrained
   * per-pass result ({@link #newAndStableTargets}), not with this split; see {@link
   * #atDesiredReplicaCounts}.
   *
   * @param replicas {@code spec.replicas}, R (replicas, not negative)
   * @param weight the desired canary weight, w (0 to {@code maxWeight})
   * @param maxWeight the total weight, W (100 for a basic canary)
   * @param maxSurge the resolved {@code maxSurge} (replicas)
   * @param hasDistinctStable whether a stable ReplicaSet exists and is not the new one
   * @return the target split
   */
  public static CanarySplit desiredCounts(
      int replicas, int weight, int maxWeight, int maxSurge, boolean hasDistinctStable) {
    if (!hasDistinctStable) {
      return new CanarySplit(replicas, 0);
    }
    return approximateWeightedSplit(replicas, weight, maxWeight, maxSurge);
  }

  /**
   * Computes the new and stable ReplicaSets' {@code spec.replicas} for this pass (Argo Rollouts
   * basic canary {@code CalculateReplicaCountsForBasicCanary}).
   *
   * <ol>
   *   <li>Target split from {@link #desiredCounts}.
   *   <li>Scale up within surge: room = {@code R + maxSurge - Σ spec.replicas} of all ReplicaSets;
   *       the stable ReplicaSet grows toward its target first, the new one gets what is left.
   *   <li>While any other ReplicaSet still has {@code spec.replicas > 0}, stop: those are drained
   *       first.
   *   <li>Scale down within availability: only as far as {@code R - maxUnavailable} pods stay
   *       available. When the canary grows, the stable ReplicaSet's availability is ignored (its
   *       spec counts) and it shrinks; when the canary shrinks (for example on abort), the new
   *       ReplicaSet's availability is ignored and it shrinks. The other ReplicaSet is then
   *       adjusted so the pair stays within surge without dropping below the minimum.
   * </ol>
   *
   * @param input the Rollout and ReplicaSet state
   * @return the targets; {@code newRS} is 0 when there is no new ReplicaSet, {@code stableRS} is 0
   *     when there is no stable ReplicaSet and equals {@code newRS} when the stable ReplicaSet is
   *     the new one
   */
  public static CanarySplit newAndStableTargets(BasicCanaryInput input) {
    CanarySplit raw = rawTargets(input);
    if (input.stableRS() == null) {
      return new CanarySplit(raw.newRS(), 0);
    }
    if (!input.hasDistinctStable()) {
      return new CanarySplit(raw.newRS(), raw.newRS());
    }
    return raw;
  }

  /**
   * Computes the other ReplicaSets' {@code spec.replicas} for this pass (Argo Rollouts canary
   * {@code scaleDownOldReplicaSetsForCanary}, basic canary branch).
   *
   * <p>Nothing happens while their {@code spec.replicas} sum to 0. First every other ReplicaSet is
   * scaled down to its available count (dropping unhealthy pods), in ascending revision; if one has
   * more available pods than its spec (pods still terminating), that clean-up stops there and
   * nothing else is scaled down this pass. Then a budget of {@code Σ available(all ReplicaSets) -
   * (R - maxUnavailable)} is spent on the others by descending revision, each reduced by as much of
   * the remaining budget as it can take.
   *
   * @param input the Rollout and ReplicaSet state
   * @return the new {@code spec.replicas} of each other ReplicaSet that changes, by name (empty
   *     when none changes)
   */
  public static Map<String, Integer> otherTargets(BasicCanaryInput input) {
    List<RsState> others = input.otherRSs();
    if (sumSpec(others) == 0) {
      return Map.of();
    }
    Map<String, Integer> targets = new HashMap<>();
    for (RsState rs : others) {
      targets.put(rs.name(), rs.specReplicas());
    }

    List<RsState> byRevisionAscending = new ArrayList<>(others);
    byRevisionAscending.sort(Comparator.comparingLong(RsState::revision));
    boolean cleanupInterrupted = false;
    for (RsState rs : byRevisionAscending) {
      if (rs.specReplicas() == 0 || rs.specReplicas() == rs.availableReplicas()) {
        continue;
      }
      if (rs.availableReplicas() > rs.specReplicas()) {
        cleanupInterrupted = true;
        break;
      }
      targets.put(rs.name(), rs.availableReplicas());
    }

    if (!cleanupInterrupted) {
      int minAvailable = input.replicas() - input.fenceposts().maxUnavailable();
      int maxScaleDown = availableOfAll(input) - minAvailable;
      List<RsState> byRevisionDescending = new ArrayList<>(byRevisionAscending);
      byRevisionDescending.sort(Comparator.comparingLong(RsState::revision).reversed());
      for (RsState rs : byRevisionDescending) {
        if (maxScaleDown <= 0) {
          break;
        }
        int current = targets.get(rs.name());
        if (current == 0) {
          continue;
        }
        int target = current > maxScaleDown ? current - maxScaleDown : 0;
        targets.put(rs.name(), target);
        maxScaleDown -= current - target;
      }
    }

    Map<String, Integer> changed = new LinkedHashMap<>();
    for (RsState rs : others) {
      int target = targets.get(rs.name());
      if (target != rs.specReplicas()) {
        changed.put(rs.name(), target);
      }
    }
    return changed;
  }

  /**
   * Computes the whole pass: {@link #newAndStableTargets} and {@link #otherTargets} from the same
   * state.
   *
   * @param input the Rollout and ReplicaSet state
   * @return the plan; apply at most one category per pass (stable, then new, then others), see
   *     {@link CanaryReplicaPlan}
   */
  public static CanaryReplicaPlan plan(BasicCanaryInput input) {
    CanarySplit split = newAndStableTargets(input);
    return new CanaryReplicaPlan(split.newRS(), split.stableRS(), otherTargets(input));
  }

  /**
   * Tells whether a basic canary is "at desired replica counts" for its current step (Argo Rollouts
   * {@code AtDesiredReplicaCountsForCanary}, basic branch), the completion rule of {@code
   * setWeight} and {@code setCanaryScale} steps.
   *
   * <p>The desired counts are this pass's {@link #newAndStableTargets} (not the final split): the
   * new ReplicaSet must meet {@code threshold} for its desired count (see {@link
   * ReplicaProgressThreshold#isMet}); the stable ReplicaSet must exist with {@code spec.replicas}
   * and {@code status.replicas} equal to its desired count; the other ReplicaSets must have no
   * available pods.
   *
   * @param input the Rollout and ReplicaSet state
   * @param threshold {@code spec.strategy.canary.replicaProgressThreshold}, or null for the default
   *     rule
   * @return true when the step's replica counts are reached
   */
  public static boolean atDesiredReplicaCounts(
      BasicCanaryInput input, ReplicaProgressThreshold threshold) {
    CanarySplit desired = rawTargets(input);
    if (!ReplicaProgressThreshold.isMet(threshold, input.newRS(), desired.newRS())) {
      return false;
    }
    RsState stable = input.stableRS();
    if (stable == null
        || stable.specReplicas() != desired.stableRS()
        || stable.statusReplicas() != desired.stableRS()) {
      return false;
    }
    return input.otherRSs().stream().mapToInt(RsState::availableReplicas).sum() == 0;
  }

  /**
   * Steps A to D exactly as Argo Rollouts computes them; when the stable ReplicaSet is absent or is
   * the new one the stable count is meaningless (Argo Rollouts then never scales it) but still
   * feeds the "at desired" check.
   */
  private static CanarySplit rawTargets(BasicCanaryInput in) {
    int replicas = in.replicas();
    RsState newRS = in.newRS();
    RsState stableRS = in.stableRS();
    boolean scaleStable = in.hasDistinctStable();
    CanarySplit desired =
        desiredCounts(
            replicas, in.weight(), in.maxWeight(), in.fenceposts().maxSurge(), scaleStable);
    int desiredNew = desired.newRS();
    int desiredStable = desired.stableRS();

    int newCount = newRS == null ? 0 : newRS.specReplicas();
    int stableCount = scaleStable ? stableRS.specReplicas() : 0;

    // Step B: scale up within surge, stable first.
    int maxTotal = replicas + in.fenceposts().maxSurge();
    int othersSpec = sumSpec(in.otherRSs());
    int room = maxTotal - othersSpec - newCount - stableCount;
    if (scaleStable && stableRS.specReplicas() < desiredStable && room > 0) {
      int grow = Math.min(desiredStable - stableRS.specReplicas(), room);
      stableCount = stableRS.specReplicas() + grow;
      room -= grow;
    }
    if (newRS != null && newRS.specReplicas() < desiredNew && room > 0) {
      newCount = newRS.specReplicas() + Math.min(desiredNew - newRS.specReplicas(), room);
    }

    // Step C: other ReplicaSets are drained before new or stable shrink.
    if (othersSpec > 0) {
      return new CanarySplit(newCount, stableCount);
    }

    // Step D: scale down within availability.
    int minAvailable = replicas - in.fenceposts().maxUnavailable();
    boolean increasing = newRS == null || desiredNew >= newRS.specReplicas();
    int pool = countable(newRS, !increasing) + countable(stableRS, increasing);
    if (pool <= minAvailable) {
      return new CanarySplit(newCount, stableCount);
    }
    int budget = pool - minAvailable;
    if (!increasing) {
      if (newRS.specReplicas() > desiredNew) {
        newCount = Math.max(desiredNew, newRS.specReplicas() - budget);
      }
      int[] adjusted = adjust(newRS, stableRS, newCount, stableCount, maxTotal, minAvailable);
      newCount = adjusted[0];
      stableCount = adjusted[1];
    } else if (scaleStable) {
      if (stableRS.specReplicas() > desiredStable) {
        stableCount = Math.max(desiredStable, stableRS.specReplicas() - budget);
      }
      int[] adjusted = adjust(stableRS, newRS, stableCount, newCount, maxTotal, minAvailable);
      stableCount = adjusted[0];
      newCount = adjusted[1];
    }
    return new CanarySplit(newCount, stableCount);
  }

  /**
   * Keeps the pair within surge after the drained ReplicaSet shrank: first trims the adjusted one
   * to fit under {@code maxTotal}, gives back as many of its available pods as needed to stay at
   * {@code minAvailable}, then trims the drained one for whatever is still over {@code maxTotal}.
   *
   * @return {drainCount, adjustCount}
   */
  private static int[] adjust(
      RsState drainRS,
      RsState adjustRS,
      int drainCount,
      int adjustCount,
      int maxTotal,
      int minAvailable) {
    if (adjustRS == null) {
      return new int[] {drainCount, adjustCount};
    }
    int over = Math.max(0, adjustCount + drainCount - maxTotal);
    int available = drainRS == null ? 0 : Math.min(drainRS.availableReplicas(), drainCount);
    adjustCount -= over;
    available += Math.min(adjustRS.availableReplicas(), adjustCount);
    int extraAvailable = Math.max(0, adjustRS.availableReplicas() - adjustCount);
    int missing = Math.max(0, minAvailable - available);
    adjustCount += Math.min(extraAvailable, missing);
    over = Math.max(0, adjustCount + drainCount - maxTotal);
    drainCount -= over;
    return new int[] {drainCount, adjustCount};
  }

  /**
   * Pods of a ReplicaSet that count toward availability when deciding how far to scale down: its
   * spec when that is below its available count (the surplus is going away) or when availability is
   * ignored, otherwise its available count (Argo Rollouts {@code GetReplicasForScaleDown}).
   */
  private static int countable(RsState rs, boolean ignoreAvailability) {
    if (rs == null) {
      return 0;
    }
    if (rs.specReplicas() < rs.availableReplicas() || ignoreAvailability) {
      return rs.specReplicas();
    }
    return rs.availableReplicas();
  }

  private static int availableOfAll(BasicCanaryInput in) {
    int sum = in.otherRSs().stream().mapToInt(RsState::availableReplicas).sum();
    if (in.newRS() != null) {
      sum += in.newRS().availableReplicas();
    }
    if (in.hasDistinctStable()) {
      sum += in.stableRS().availableReplicas();
    }
    return sum;
  }

  private static int sumSpec(List<RsState> replicaSets) {
    return replicaSets.stream().mapToInt(RsState::specReplicas).sum();
  }

  /**
   * Whether {@code total * (weight / maxWeight)} has a fractional part of exactly 0.5 (Go float64
   * semantics).
   */
  private static boolean halfTied(int total, int weight, int maxWeight) {
    double value = (double) total * ((double) weight / maxWeight);
    return value - Math.floor(value) == 0.5;
  }

  private static double weightDelta(int weight, int maxWeight, int[] candidate) {
    double actual = (double) (candidate[0] * maxWeight) / candidate[1];
    return Math.abs(actual - weight);
  }
}
