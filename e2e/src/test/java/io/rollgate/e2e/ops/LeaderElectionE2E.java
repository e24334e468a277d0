package io.rollgate.e2e.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.FaultReport;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two controllers with leader election (Argo's defaults: lease 15 s, renew deadline 10 s, retry 2
 * s): only the leader reconciles; when it is SIGKILLed mid-rollout, the standby takes the Lease and
 * finishes the rollout.
 */
class LeaderElectionE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final String LOCK = "argo-rollouts-controller-lock";
  static final String BECAME_LEADER = "leader election: became leader";

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess first;
  static ControllerProcess second;

  @BeforeAll
  static void setUp() throws Exception {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("ops-leader");
    rollouts = new Rollouts(cluster.client(), ns);
    String[] flags = {"--namespace", ns, "--leader-elect", "--leader-election-namespace", ns};
    first = ControllerProcess.start(cluster, "ops-leader-1", flags);
    second = ControllerProcess.start(cluster, "ops-leader-2", flags);
  }

  @AfterAll
  static void tearDown() {
    if (first != null) {
      first.close();
    }
    if (second != null) {
      second.close();
    }
    if (ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  static boolean leads(ControllerProcess p) {
    return !ControllerLog.of(p).linesContaining(0, BECAME_LEADER).isEmpty();
  }

  @Test
  void onlyTheLeaderReconciles_andTheStandbyFinishesTheRolloutAfterTheLeaderIsKilled() {
    ControllerLog.of(first).awaitLine(0, ControllerLog.SYNCED, TIMEOUT);
    ControllerLog.of(second).awaitLine(0, ControllerLog.SYNCED, TIMEOUT);
    Awaitility.await("one controller leads")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> leads(first) || leads(second));
    ControllerProcess leader = leads(first) ? first : second;
    ControllerProcess standby = leader == first ? second : first;
    assertFalse(leads(standby), "exactly one leader");
    Lease lease = cluster.client().leases().inNamespace(ns).withName(LOCK).get();
    assertNotNull(lease, "Lease " + ns + "/" + LOCK);
    assertTrue(OpsHttp.get(leader.healthzPort(), "/readyz").body().contains("role=leader"));
    OpsHttp.Response standbyReady = OpsHttp.get(standby.healthzPort(), "/readyz");
    assertEquals(200, standbyReady.status(), "a synced standby is ready");
    assertTrue(standbyReady.body().contains("role=standby"), standbyReady.body());

    rollouts.create(
        "canary/rollout.yaml",
        Map.of(
            "NAME",
            "web",
            "REPLICAS",
            "3",
            "WEIGHT",
            "34",
            "SURGE",
            "1",
            "UNAVAILABLE",
            "0",
            "PAUSE",
            "5s"));
    rollouts.await(
        "web",
        "web Healthy",
        TIMEOUT,
        r -> r.getStatus() != null && "Healthy".equals(r.getStatus().getPhase()));
    rollouts.setImage("web", "registry.example/app:v2");
    rollouts.await(
        "web",
        "web paused at step 1",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Paused".equals(r.getStatus().getPhase())
                && Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex()));
    assertFalse(
        ControllerLog.of(leader).reconcileLines(0, ns, "web").isEmpty(),
        "the leader reconciled web");
    assertTrue(
        ControllerLog.of(standby).reconcileLines(0, ns, "web").isEmpty(),
        "the standby never reconciled web");

    int standbyFrom = ControllerLog.of(standby).size();
    long killedAt = System.nanoTime();
    leader.kill();
    ControllerLog.of(standby).awaitLine(standbyFrom, BECAME_LEADER, Duration.ofSeconds(60));
    double failoverSeconds = (System.nanoTime() - killedAt) / 1e9;
    System.out.printf(
        "leader failover after SIGKILL: %.1f s (lease 15 s, retry 2 s)%n", failoverSeconds);

    rollouts.promote("web");
    Rollout done =
        rollouts.await(
            "web",
            "web Healthy on v2 under the new leader",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && "Healthy".equals(r.getStatus().getPhase())
                    && r.getStatus().getCurrentPodHash() != null
                    && r.getStatus().getCurrentPodHash().equals(r.getStatus().getStableRS())
                    && r.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getImage()
                        .endsWith(":v2"));
    assertNotNull(done);
    assertFalse(
        ControllerLog.of(standby).reconcileLines(standbyFrom, ns, "web").isEmpty(),
        "the new leader reconciled");
    assertTrue(standby.isAlive());
    FaultReport.record(
        "controller leader killed",
        "SIGKILL of the leader of two replicas",
        "the standby takes the Lease and finishes the paused Rollout after a promote",
        String.format("passed; failover %.1f s (lease 15 s, retry 2 s)", failoverSeconds));

    // SIGTERM: the new leader drains, then releases the Lease (releaseOnCancel) instead of letting
    // it expire.
    standby.close();
    assertFalse(standby.isAlive());
    Lease released = cluster.client().leases().inNamespace(ns).withName(LOCK).get();
    String holder = released.getSpec().getHolderIdentity();
    assertTrue(
        holder == null
            || holder.isEmpty()
            || Integer.valueOf(1).equals(released.getSpec().getLeaseDurationSeconds()),
        "Lease released on graceful stop: " + released.getSpec());
    assertFalse(
        ControllerLog.of(standby)
            .linesContaining(standbyFrom, "leader election: released")
            .isEmpty());
  }
}
