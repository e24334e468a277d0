package io.rollgate.e2e.idempotence;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * A Rollout that is Healthy and untouched is only read: informer resyncs, leftover timers and a
 * controller restart write nothing to the Rollout, its ReplicaSets or its Events.
 */
@ExtendWith(IdempotenceE2E.FailureTracker.class)
class IdempotenceE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(60);

  /**
   * Informer resync period given to the controller, so that the quiet windows below span several
   * resyncs.
   */
  static final int RESYNC_SECONDS = 2;

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static ControllerLog log;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("idem");
    rollouts = new Rollouts(cluster.client(), ns);
    controller =
        ControllerProcess.start(
            cluster,
            "idempotence",
            "--namespace",
            ns,
            "--rollout-resync",
            String.valueOf(RESYNC_SECONDS),
            "--loglevel",
            "debug");
    log = ControllerLog.of(controller);
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

  @BeforeEach
  void controllerRunning() {
    if (!controller.isAlive()) {
      int mark = log.size();
      controller.restart();
      log.awaitLine(mark, ControllerLog.SYNCED, TIMEOUT);
    }
  }

  /** What a write to the Rollout, its ReplicaSets or its Events would change. */
  record Snapshot(String rollout, Map<String, String> replicaSets, Map<String, Integer> events) {}

  @Test
  void healthyAndPausedRolloutsAreNotRewrittenByResyncsOrTimers() {
    healthyAfterAnUpdate("idle");
    pausedInAnUpdate("idle-paused");
    Map<String, Snapshot> before = settled("idle", "idle-paused");
    int mark = log.size();

    assertUnchangedFor(before, Duration.ofSeconds(15));
    for (String name : before.keySet()) {
      List<String> resyncs =
          log.reconcileLines(mark, ns, name).stream()
              .filter(l -> l.contains("trigger=resync"))
              .toList();
      assertTrue(
          resyncs.size() >= 2,
          "the controller looked at "
              + name
              + " on its resyncs ("
              + log.file()
              + "), lines: "
              + resyncs.size());
    }
  }

  @Test
  void controllerRestartAloneWritesNothing() {
    healthyAfterAnUpdate("restarted");
    pausedInAnUpdate("restarted-paused");
    Map<String, Snapshot> before = settled("restarted", "restarted-paused");
    int mark = log.size();
    controller.restart();
    log.awaitLine(mark, ControllerLog.SYNCED, TIMEOUT);

    assertUnchangedFor(before, Duration.ofSeconds(10));
    for (String name : before.keySet()) {
      assertFalse(
          log.reconcileLines(mark, ns, name).isEmpty(),
          "the restarted controller reconciled " + name + " (" + log.file() + ")");
    }
  }

  // -----------------------------------------------------------------------------------------------------------------

  /** Creates the Rollout and walks one update to Healthy (a manual pause and a timed one). */
  static void healthyAfterAnUpdate(String name) {
    rollouts.create("idempotence/rollout.yaml", Map.of("NAME", name));
    String v1 = awaitHealthy(name).getStatus().getStableRS();
    rollouts.setImage(name, "registry.example/app:v2");
    awaitPausedAtStep1(name);
    rollouts.promote(name);
    Rollout done = awaitHealthy(name);
    String v2 = done.getStatus().getStableRS();
    rollouts.await(
        name,
        "v1 drained",
        TIMEOUT,
        r ->
            !v1.equals(v2)
                && rollouts.specReplicas(name, v1) == 0
                && rollouts.replicaSet(name, v1).getStatus() != null
                && nz(rollouts.replicaSet(name, v1).getStatus().getReplicas()) == 0);
  }

  /**
   * Creates the Rollout and starts an update that stops at the first (indefinite) pause with its
   * canary running.
   */
  static void pausedInAnUpdate(String name) {
    rollouts.create("idempotence/rollout.yaml", Map.of("NAME", name));
    awaitHealthy(name);
    rollouts.setImage(name, "registry.example/app:v2");
    Rollout paused = awaitPausedAtStep1(name);
    String canary = paused.getStatus().getCurrentPodHash();
    rollouts.await(
        name,
        "canary available",
        TIMEOUT,
        r -> rollouts.availableReplicas(name, canary) == rollouts.specReplicas(name, canary));
  }

  static Rollout awaitPausedAtStep1(String name) {
    return rollouts.await(
        name,
        name + " paused at step 1",
        TIMEOUT,
        r ->
            "Paused".equals(r.getStatus().getPhase())
                && Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex()));
  }

  /**
   * Waits until nothing has changed for 2 s (the API server and the ReplicaSet controller finish
   * their own writes).
   */
  static Map<String, Snapshot> settled(String... names) {
    AtomicReference<Map<String, Snapshot>> last = new AtomicReference<>(snapshots(names));
    long[] since = {System.nanoTime()};
    Awaitility.await("settled")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> {
              Map<String, Snapshot> now = snapshots(names);
              if (!now.equals(last.get())) {
                last.set(now);
                since[0] = System.nanoTime();
              }
              return System.nanoTime() - since[0] >= Duration.ofSeconds(2).toNanos();
            });
    return last.get();
  }

  static void assertUnchangedFor(Map<String, Snapshot> before, Duration period) {
    String[] names = before.keySet().toArray(new String[0]);
    AtomicReference<Map<String, Snapshot>> changed = new AtomicReference<>();
    try {
      Awaitility.await("unchanged")
          .during(period)
          .atMost(period.plusSeconds(5))
          .pollInterval(Duration.ofMillis(250))
          .until(
              () -> {
                Map<String, Snapshot> now = snapshots(names);
                if (!now.equals(before)) {
                  changed.compareAndSet(null, now);
                  return false;
                }
                return true;
              });
    } catch (ConditionTimeoutException e) {
      // reported below with the first snapshots that differed
    }
    if (changed.get() != null) {
      StringBuilder msg = new StringBuilder("something was written although nothing changed:");
      for (String name : names) {
        if (!before.get(name).equals(changed.get().get(name))) {
          msg.append("\n ").append(name).append(" before ").append(before.get(name));
          msg.append("\n ").append(name).append(" after  ").append(changed.get().get(name));
          msg.append("\n ")
              .append(name)
              .append(" status ")
              .append(
                  cluster
                      .client()
                      .getKubernetesSerialization()
                      .asJson(rollouts.get(name).getStatus()));
        }
      }
      throw new AssertionError(msg.toString());
    }
  }

  static Map<String, Snapshot> snapshots(String... names) {
    Map<String, Snapshot> out = new TreeMap<>();
    for (String name : names) {
      out.put(name, snapshot(name));
    }
    return out;
  }

  static Snapshot snapshot(String name) {
    Rollout r = rollouts.get(name);
    Map<String, String> rss = new TreeMap<>();
    for (ReplicaSet rs : rollouts.replicaSets(name)) {
      rss.put(rs.getMetadata().getName(), rs.getMetadata().getResourceVersion());
    }
    Map<String, Integer> events = new TreeMap<>();
    for (Event e : rollouts.events(name)) {
      if ("RolloutAddedToInformer".equals(e.getReason())) {
        // Recorded by every controller that starts, for every Rollout, as Argo Rollouts does: not a
        // write of state.
        continue;
      }
      events.put(
          e.getMetadata().getName() + " " + e.getReason(), e.getCount() == null ? 1 : e.getCount());
    }
    return new Snapshot(r.getMetadata().getResourceVersion(), rss, events);
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
