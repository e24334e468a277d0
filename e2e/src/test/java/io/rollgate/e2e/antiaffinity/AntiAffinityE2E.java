package io.rollgate.e2e.antiaffinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * {@code spec.strategy.canary.antiAffinity}: the new ReplicaSet of an update avoids the nodes of
 * the stable pods.
 */
@ExtendWith(AntiAffinityE2E.FailureTracker.class)
class AntiAffinityE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("antiaffinity");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "antiaffinity", "--namespace", ns);
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

  @Test
  void newReplicaSetGetsPreferredAntiAffinityAgainstStable_butFirstReplicaSetDoesNot() {
    String name = "aa";
    rollouts.create("antiaffinity/rollout.yaml", Map.of("NAME", name));
    Rollout first = awaitHealthy(name);
    String stableHash = first.getStatus().getStableRS();
    ReplicaSet firstRs = rollouts.replicaSet(name, stableHash);
    List<WeightedPodAffinityTerm> userOnly =
        firstRs
            .getSpec()
            .getTemplate()
            .getSpec()
            .getAffinity()
            .getPodAntiAffinity()
            .getPreferredDuringSchedulingIgnoredDuringExecution();
    assertEquals(1, userOnly.size(), "first revision keeps only the user's term");
    assertEquals(10, userOnly.get(0).getWeight());

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
    String canaryHash = paused.getStatus().getCurrentPodHash();
    assertNotEquals(stableHash, canaryHash);
    assertEquals(stableHash, paused.getStatus().getStableRS());
    ReplicaSet canaryRs = rollouts.replicaSet(name, canaryHash);
    assertNotNull(canaryRs, "canary ReplicaSet");
    var anti = canaryRs.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity();
    var required = anti.getRequiredDuringSchedulingIgnoredDuringExecution();
    assertTrue(required == null || required.isEmpty(), "no required term: " + required);
    List<WeightedPodAffinityTerm> terms = anti.getPreferredDuringSchedulingIgnoredDuringExecution();
    assertEquals(2, terms.size(), "user term plus the injected term: " + terms);
    assertEquals(10, terms.get(0).getWeight(), "user term first, untouched");
    assertEquals("topology.kubernetes.io/zone", terms.get(0).getPodAffinityTerm().getTopologyKey());
    WeightedPodAffinityTerm injected = terms.get(1);
    assertEquals(50, injected.getWeight());
    PodAffinityTerm term = injected.getPodAffinityTerm();
    assertEquals("kubernetes.io/hostname", term.getTopologyKey());
    var expr = term.getLabelSelector().getMatchExpressions();
    assertEquals(1, expr.size());
    assertEquals("rollouts-pod-template-hash", expr.get(0).getKey());
    assertEquals("In", expr.get(0).getOperator());
    assertEquals(List.of(stableHash), expr.get(0).getValues());
    // The pods of the canary carry the term too (the ReplicaSet controller copies the template).
    assertEquals(1, rollouts.specReplicas(name, canaryHash));

    // The injected term does not make the template look different: promotion completes on the same
    // ReplicaSet.
    rollouts.promote(name);
    Rollout done = awaitHealthy(name);
    assertEquals(canaryHash, done.getStatus().getStableRS());
    assertEquals(canaryHash, done.getStatus().getCurrentPodHash());
    assertEquals(2, rollouts.replicaSets(name).size(), "no further ReplicaSet was created");
  }

  /** Keeps the namespace of a failed test for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
