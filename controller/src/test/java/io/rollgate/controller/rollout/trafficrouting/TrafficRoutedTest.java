package io.rollgate.controller.rollout.trafficrouting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.rollgate.api.CanaryStatus;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import io.rollgate.api.TrafficWeights;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.rollout.model.CanarySplit;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.controller.runtime.ReconcileContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The traffic-routed weight and replica decisions (docs/compatibility.md §5.2, §5.5, §5.9) on a
 * simulated cluster.
 */
class TrafficRoutedTest {

  private static final String ROLLOUT =
      """
      metadata: {name: web, namespace: shop}
      spec:
        replicas: 4
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: web, image: "nginx:1.25"}]}
        strategy:
          canary:
            canaryService: web-canary
            stableService: web-stable
            dynamicStableScale: DYNAMIC
            trafficRouting: {nginx: {stableIngress: web}}
            steps: STEPS
      """;

  private static Rollout rollout(boolean dynamic, String steps) {
    try {
      String yaml = ROLLOUT.replace("DYNAMIC", String.valueOf(dynamic)).replace("STEPS", steps);
      return new YAMLMapper().readValue(yaml, Rollout.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ReplicaSet rs(String hash, int spec, int available) {
    return new ReplicaSetBuilder()
        .withNewMetadata()
        .withName("web-" + hash)
        .addToLabels("rollouts-pod-template-hash", hash)
        .endMetadata()
        .withNewSpec()
        .withReplicas(spec)
        .endSpec()
        .withNewStatus()
        .withReplicas(spec)
        .withAvailableReplicas(available)
        .withReadyReplicas(available)
        .endStatus()
        .build();
  }

  private static RolloutPass pass(
      Rollout r, RolloutStatus status, ReplicaSet stable, ReplicaSet canary) {
    Rollout copy = ModelJson.deepCopy(r);
    copy.setStatus(ModelJson.deepCopy(status));
    RolloutPass p =
        new RolloutPass(
            new ReconcileContext("Rollout", "shop", "web", 1, "test", Instant.EPOCH),
            copy,
            Instant.EPOCH);
    p.stableRS = stable;
    p.newRS = canary;
    p.podHash = "new";
    p.allRSs.add(stable);
    p.allRSs.add(canary);
    return p;
  }

  private static TrafficWeights weights(int canary, int w) {
    TrafficWeights t = new TrafficWeights();
    WeightDestination c = new WeightDestination();
    c.setWeight(canary);
    c.setPodTemplateHash("new");
    WeightDestination s = new WeightDestination();
    s.setWeight(w - canary);
    s.setPodTemplateHash("old");
    t.setCanary(c);
    t.setStable(s);
    return t;
  }

  @Test
  void dynamicAbortDrainsThroughTheSetWeightLadderToZeroAndNeverMovesUp() {
    Rollout r = rollout(true, "[{setWeight: 25}, {setWeight: 50}, {setWeight: 75}, {pause: {}}]");
    RolloutStatus status = new RolloutStatus();
    status.setStableRS("old");
    status.setCurrentStepIndex(0);
    status.setAbort(true);
    status.setCanary(new CanaryStatus());
    status.getCanary().setWeights(weights(75, 100));
    int stable = 1;
    int canary = 3;
    List<Integer> routerWeights = new ArrayList<>();
    routerWeights.add(75);
    for (int pass = 0;
        pass < 50 && (canary > 0 || routerWeights.get(routerWeights.size() - 1) > 0);
        pass++) {
      RolloutPass p = pass(r, status, rs("old", stable, stable), rs("new", canary, canary));
      int weight = TrafficRouted.dynamicAbortRouterWeight(p);
      assertTrue(
          weight >= 100 - 100 * stable / 4,
          "stable overloaded: " + stable + " pods for " + (100 - weight) + "%");
      assertTrue(
          canary * 100 / 4 >= weight, "canary overloaded: " + canary + " pods for " + weight + "%");
      // The router gets the weight first, then one ReplicaSet is scaled (pods become available at
      // once).
      status.getCanary().setWeights(weights(weight, 100));
      RolloutPass after = pass(r, status, rs("old", stable, stable), rs("new", canary, canary));
      CanarySplit split = TrafficRouted.targets(after);
      if (split.stableRS() != stable) {
        stable = split.stableRS();
      } else {
        canary = split.newRS();
      }
      assertTrue(
          weight <= routerWeights.get(routerWeights.size() - 1),
          "weight went up: " + routerWeights + " then " + weight);
      routerWeights.add(weight);
    }
    assertEquals(0, routerWeights.get(routerWeights.size() - 1), "drained to 0: " + routerWeights);
    assertEquals(0, canary);
    assertEquals(4, stable);
    assertTrue(
        routerWeights.contains(50) || routerWeights.contains(25),
        "drained step by step: " + routerWeights);
  }

  @Test
  void weightOnlyAdvancesOnceTheCanaryPodsAreReady() {
    Rollout r = rollout(false, "[{setWeight: 25}, {pause: {}}, {setWeight: 50}, {pause: {}}]");
    RolloutStatus status = new RolloutStatus();
    status.setStableRS("old");
    status.setCurrentStepIndex(2);
    // Step 2 asks for 50% = 2 pods; only 1 is there: the previous setWeight (25) is used.
    RolloutPass notReady = pass(r, status, rs("old", 4, 4), rs("new", 1, 1));
    assertTrue(!TrafficRouted.atDesiredReplicaCounts(notReady));
    assertEquals(25, TrafficRouted.weightBefore(notReady.steps(), 2));
    RolloutPass ready = pass(r, status, rs("old", 4, 4), rs("new", 2, 2));
    assertTrue(TrafficRouted.atDesiredReplicaCounts(ready));
    assertEquals(50, TrafficRouted.currentSetWeight(ready));
    assertEquals(
        new CanarySplit(2, 4),
        TrafficRouted.targets(ready),
        "stable stays at R without dynamicStableScale");
  }

  @Test
  void setCanaryScaleAppliesUntilMatchTrafficWeightAndIsIgnoredOnAbortUnlessTheAbortDelayIsZero() {
    Rollout r =
        rollout(
            false,
            "[{setCanaryScale: {replicas: 3}}, {setWeight: 25}, {setCanaryScale: {matchTrafficWeight: true}}, {pause: {}}]");
    RolloutStatus status = new RolloutStatus();
    status.setStableRS("old");
    status.setCurrentStepIndex(1);
    assertEquals(
        new CanarySplit(3, 4),
        TrafficRouted.targets(pass(r, status, rs("old", 4, 4), rs("new", 0, 0))));
    status.setCurrentStepIndex(3);
    assertNull(TrafficRouted.setCanaryScale(pass(r, status, rs("old", 4, 4), rs("new", 3, 3))));
    assertEquals(
        new CanarySplit(1, 4),
        TrafficRouted.targets(pass(r, status, rs("old", 4, 4), rs("new", 3, 3))));

    status.setCurrentStepIndex(0);
    status.setAbort(true);
    assertEquals(
        new CanarySplit(0, 4),
        TrafficRouted.targets(pass(r, status, rs("old", 4, 4), rs("new", 3, 3))));
    r.getSpec().getStrategy().getCanary().setAbortScaleDownDelaySeconds(0);
    assertEquals(
        new CanarySplit(3, 4),
        TrafficRouted.targets(pass(r, status, rs("old", 4, 4), rs("new", 3, 3))),
        "abortScaleDownDelaySeconds 0: the setCanaryScale of the reset step index applies");
  }

  @Test
  void minPodsPerReplicaSetRaisesTheCanary() {
    Rollout r = rollout(false, "[{setWeight: 10}, {pause: {}}]");
    r.getSpec().getStrategy().getCanary().setMinPodsPerReplicaSet(2);
    RolloutStatus status = new RolloutStatus();
    status.setStableRS("old");
    status.setCurrentStepIndex(0);
    assertEquals(
        new CanarySplit(2, 4),
        TrafficRouted.targets(pass(r, status, rs("old", 4, 4), rs("new", 0, 0))));
  }
}
