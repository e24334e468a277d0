package io.rollgate.e2e.minreadyseconds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * {@code spec.minReadySeconds} is copied to the Rollout's ReplicaSets, so a pod counts as available
 * only after being ready that long, and the Rollout's steps and health wait for availability, not
 * readiness.
 */
@ExtendWith(MinReadySecondsE2E.FailureTracker.class)
class MinReadySecondsE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(60);
  static final int MIN_READY = 3;

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("minready");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "minreadyseconds", "--namespace", ns);
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
  void isCopiedToTheReplicaSetsAndAvailabilityLagsReadiness() {
    rollouts.create("minreadyseconds/rollout.yaml", Map.of("NAME", "lag"));
    AtomicBoolean rsLag = new AtomicBoolean();
    AtomicBoolean statusLag = new AtomicBoolean();
    Set<String> messages = new LinkedHashSet<>();
    Rollout healthy =
        watch(
            "lag",
            "lag Healthy",
            r -> {
              RolloutStatus s = r.getStatus();
              if (s == null) {
                return false;
              }
              messages.add(s.getPhase() + ": " + s.getMessage());
              if (nz(s.getReadyReplicas()) > nz(s.getAvailableReplicas())) {
                statusLag.set(true);
              }
              for (ReplicaSet rs : rollouts.replicaSets("lag")) {
                if (rs.getStatus() != null
                    && nz(rs.getStatus().getReadyReplicas())
                        > nz(rs.getStatus().getAvailableReplicas())) {
                  rsLag.set(true);
                }
              }
              return "Healthy".equals(s.getPhase())
                  && String.valueOf(r.getMetadata().getGeneration())
                      .equals(s.getObservedGeneration());
            });
    ReplicaSet v1 = rollouts.replicaSet("lag", healthy.getStatus().getStableRS());
    assertEquals(MIN_READY, v1.getSpec().getMinReadySeconds(), "copied to the ReplicaSet");
    assertTrue(rsLag.get(), "the ReplicaSet had ready pods that were not yet available");
    assertTrue(
        statusLag.get(),
        "status.readyReplicas ran ahead of status.availableReplicas; seen: " + messages);
    assertTrue(
        messages.contains("Progressing: updated replicas are still becoming available"),
        "phase while the pods are ready but not yet available; seen: " + messages);
    assertEquals(2, healthy.getStatus().getAvailableReplicas());

    // The setWeight step completes only once the canary pod is available, not merely ready.
    String stable = healthy.getStatus().getStableRS();
    rollouts.setImage("lag", "registry.example/app:v2");
    AtomicBoolean canaryLagAtStep0 = new AtomicBoolean();
    List<String> violations = new ArrayList<>();
    Rollout paused =
        watch(
            "lag",
            "lag paused at step 1",
            r -> {
              RolloutStatus s = r.getStatus();
              if (s == null
                  || s.getCurrentPodHash() == null
                  || s.getCurrentPodHash().equals(stable)) {
                return false;
              }
              // Read the ReplicaSet after the Rollout: its availability only grows, so a lower
              // count here was lower when the Rollout was read too.
              ReplicaSet canary = rollouts.replicaSet("lag", s.getCurrentPodHash());
              int index = s.getCurrentStepIndex() == null ? 0 : s.getCurrentStepIndex();
              int ready =
                  canary == null || canary.getStatus() == null
                      ? 0
                      : nz(canary.getStatus().getReadyReplicas());
              int available =
                  canary == null || canary.getStatus() == null
                      ? 0
                      : nz(canary.getStatus().getAvailableReplicas());
              if (index == 0 && ready >= 1 && available == 0) {
                canaryLagAtStep0.set(true);
              }
              if (index >= 1 && available < 1) {
                violations.add(
                    "step index "
                        + index
                        + " with canary ready="
                        + ready
                        + " available="
                        + available);
              }
              return "Paused".equals(s.getPhase()) && index == 1;
            });
    ReplicaSet canary = rollouts.replicaSet("lag", paused.getStatus().getCurrentPodHash());
    assertEquals(MIN_READY, canary.getSpec().getMinReadySeconds(), "copied to the new ReplicaSet");
    assertEquals(List.of(), violations, "setWeight completed before the canary pod was available");
    assertTrue(
        canaryLagAtStep0.get(),
        "the canary pod was ready but not available while the Rollout stayed at step 0");
    assertEquals(1, nz(canary.getStatus().getAvailableReplicas()));

    rollouts.promoteFull("lag");
    rollouts.await(
        "lag",
        "lag Healthy on v2",
        TIMEOUT,
        r ->
            "Healthy".equals(r.getStatus().getPhase())
                && canary
                    .getMetadata()
                    .getLabels()
                    .get("rollouts-pod-template-hash")
                    .equals(r.getStatus().getStableRS()));
  }

  @Test
  void changingMinReadySecondsUpdatesTheExistingReplicaSet() {
    rollouts.create("minreadyseconds/rollout.yaml", Map.of("NAME", "retune"));
    Rollout healthy = awaitHealthy("retune");
    ReplicaSet before = rollouts.replicaSet("retune", healthy.getStatus().getStableRS());
    assertEquals(MIN_READY, before.getSpec().getMinReadySeconds());

    rollouts.mergePatch("retune", "{\"spec\":{\"minReadySeconds\":1}}");
    rollouts.await(
        "retune",
        "ReplicaSet minReadySeconds 1",
        TIMEOUT,
        r ->
            Integer.valueOf(1)
                .equals(
                    rollouts
                        .replicaSet("retune", healthy.getStatus().getStableRS())
                        .getSpec()
                        .getMinReadySeconds()));
    Rollout after = awaitHealthy("retune");
    assertEquals(
        healthy.getStatus().getStableRS(),
        after.getStatus().getStableRS(),
        "same template, same ReplicaSet");
    List<ReplicaSet> rss = rollouts.replicaSets("retune");
    assertEquals(1, rss.size(), rollouts.describeReplicaSets("retune"));
    assertEquals(before.getMetadata().getUid(), rss.get(0).getMetadata().getUid());
  }

  /**
   * Polls fast (availability lags readiness by only {@value #MIN_READY} s), until the predicate
   * holds.
   */
  static Rollout watch(String name, String what, Predicate<Rollout> until) {
    Rollout[] last = new Rollout[1];
    try {
      Awaitility.await(what)
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(100))
          .until(
              () -> {
                last[0] = rollouts.get(name);
                return last[0] != null && until.test(last[0]);
              });
    } catch (ConditionTimeoutException e) {
      throw new AssertionError(
          "timed out waiting for " + what + "; replicaSets: " + rollouts.describeReplicaSets(name),
          e);
    }
    return last[0];
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

  static int nz(Integer i) {
    return i == null ? 0 : i;
  }

  /** Keeps the namespace of a failed class for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
