package io.rollgate.e2e.ops;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A leader whose Lease is taken over by another holder (as a second controller with a clock skew,
 * or an operator editing the Lease, would) stops writing and exits; nobody reconciles while the
 * other holder's Lease is valid; once it expires, the standby takes over and carries on with the
 * rollout.
 */
class LeaseTakenAwayE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final String LOCK = "argo-rollouts-controller-lock";
  static final String BECAME_LEADER = "leader election: became leader";
  static final String LOST = "lost leadership";

  /** Lease duration the foreign holder writes, in seconds. */
  static final int FOREIGN_LEASE_SECONDS = 20;

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess first;
  static ControllerProcess second;

  @BeforeAll
  static void setUp() throws Exception {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("ops-lease");
    rollouts = new Rollouts(cluster.client(), ns);
    String[] flags = {"--namespace", ns, "--leader-elect", "--leader-election-namespace", ns};
    first = ControllerProcess.start(cluster, "ops-lease-1", flags);
    second = ControllerProcess.start(cluster, "ops-lease-2", flags);
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
  void aLeaderWhoseLeaseIsTakenStopsWritingAndExits_andTheStandbyWaitsForTheForeignLeaseToExpire() {
    Awaitility.await("one controller leads")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> leads(first) || leads(second));
    ControllerProcess leader = leads(first) ? first : second;
    ControllerProcess standby = leader == first ? second : first;
    ControllerLog.of(standby).awaitLine(0, ControllerLog.SYNCED, TIMEOUT);

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
    Rollout healthy =
        rollouts.await(
            "web",
            "web Healthy",
            TIMEOUT,
            r -> r.getStatus() != null && "Healthy".equals(r.getStatus().getPhase()));
    String stableHash = healthy.getStatus().getStableRS();

    // Another holder writes itself into the Lease with a fresh renewTime, as a competing elector
    // would.
    int leaderFrom = ControllerLog.of(leader).size();
    int standbyFrom = ControllerLog.of(standby).size();
    Instant takenAt = Instant.now();
    // The leader renews every 2 s, so the edit can meet a newer resourceVersion (409): retry as a
    // competing elector would.
    Awaitility.await("another holder written into the Lease")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(50))
        .ignoreExceptionsMatching(
            e ->
                e instanceof io.fabric8.kubernetes.client.KubernetesClientException k
                    && k.getCode() == 409)
        .until(
            () -> {
              cluster
                  .client()
                  .leases()
                  .inNamespace(ns)
                  .withName(LOCK)
                  .edit(lease -> takeOver(lease, takenAt));
              return true;
            });

    // The renew loop sees the foreign holder within a retry period (2 s); the renew deadline (10 s)
    // bounds it.
    ControllerLog.of(leader).awaitLine(leaderFrom, LOST, Duration.ofSeconds(12));
    Awaitility.await("the leader that lost its Lease exits")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> !leader.isAlive());
    assertTrue(
        Duration.between(takenAt, Instant.now()).toSeconds() < FOREIGN_LEASE_SECONDS,
        "the old leader stopped before the foreign Lease expired");

    // While the foreign Lease is valid nobody may act on a new revision: no ReplicaSet, no status
    // change.
    rollouts.setImage("web", "registry.example/app:v2");
    Duration left =
        Duration.between(Instant.now(), takenAt.plusSeconds(FOREIGN_LEASE_SECONDS)).minusSeconds(2);
    if (!left.isNegative() && !left.isZero()) {
      int rsBefore = rollouts.replicaSets("web").size();
      rollouts.holdsFor(
          "web",
          "no controller reconciles while another holder has the Lease",
          left,
          r ->
              r != null
                  && Objects.equals(stableHash, r.getStatus().getCurrentPodHash())
                  && rollouts.replicaSets("web").size() == rsBefore);
      assertTrue(
          ControllerLog.of(standby).linesContaining(standbyFrom, BECAME_LEADER).isEmpty(),
          "the standby respects the other holder's unexpired Lease");
    }

    // The other holder never renews: after its lease duration the standby takes over and the
    // rollout goes on.
    ControllerLog.of(standby).awaitLine(standbyFrom, BECAME_LEADER, Duration.ofSeconds(60));
    Rollout paused =
        rollouts.await(
            "web",
            "web paused at step 1 under the new leader",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && "Paused".equals(r.getStatus().getPhase())
                    && Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex()));
    assertNotEquals(stableHash, paused.getStatus().getCurrentPodHash());
    Lease lease = cluster.client().leases().inNamespace(ns).withName(LOCK).get();
    List<String> standbyLeads =
        ControllerLog.of(standby).linesContaining(standbyFrom, BECAME_LEADER);
    assertTrue(
        standbyLeads.get(0).contains(lease.getSpec().getHolderIdentity()),
        standbyLeads + " vs " + lease.getSpec());
    assertTrue(standby.isAlive(), "the new leader keeps running");
  }

  private static Lease takeOver(Lease lease, Instant now) {
    ZonedDateTime time = now.atZone(ZoneOffset.UTC);
    lease.getSpec().setHolderIdentity("operator-intervention");
    lease.getSpec().setAcquireTime(time);
    lease.getSpec().setRenewTime(time);
    lease.getSpec().setLeaseDurationSeconds(FOREIGN_LEASE_SECONDS);
    Integer transitions = lease.getSpec().getLeaseTransitions();
    lease.getSpec().setLeaseTransitions(transitions == null ? 1 : transitions + 1);
    return lease;
  }
}
