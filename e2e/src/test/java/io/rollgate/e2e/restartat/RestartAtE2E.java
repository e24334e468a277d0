package io.rollgate.e2e.restartat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * {@code kubectl argo rollouts restart}: every pod is replaced, one at a time, without losing
 * availability.
 */
@ExtendWith(RestartAtE2E.FailureTracker.class)
class RestartAtE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(120);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("restartat");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "restartat", "--namespace", ns);
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

  static boolean healthy(Rollout r) {
    return r.getStatus() != null
        && "Healthy".equals(r.getStatus().getPhase())
        && String.valueOf(r.getMetadata().getGeneration())
            .equals(r.getStatus().getObservedGeneration());
  }

  static List<Pod> pods(String name) {
    return cluster.client().pods().inNamespace(ns).withLabel("app", name).list().getItems();
  }

  static boolean ready(Pod p) {
    return p.getMetadata().getDeletionTimestamp() == null
        && p.getStatus() != null
        && p.getStatus().getConditions() != null
        && p.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  @Test
  void restartReplacesEveryPodKeepingAvailability() {
    String name = "rs3";
    rollouts.create("restartat/rollout.yaml", Map.of("NAME", name));
    rollouts.await(name, name + " Healthy", TIMEOUT, RestartAtE2E::healthy);
    Awaitility.await("3 ready pods")
        .atMost(TIMEOUT)
        .until(() -> pods(name).stream().filter(RestartAtE2E::ready).count() == 3);
    Set<String> before =
        pods(name).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
    assertEquals(3, before.size());

    // Every status version is seen through a watch: the restart can finish between two polls.
    AtomicBoolean sawRestarting = new AtomicBoolean();
    Watch watch =
        cluster
            .client()
            .resources(Rollout.class)
            .inNamespace(ns)
            .withName(name)
            .watch(
                new Watcher<Rollout>() {
                  @Override
                  public void eventReceived(Action action, Rollout r) {
                    if (r.getStatus() != null
                        && "rollout is restarting".equals(r.getStatus().getMessage())) {
                      sawRestarting.set(true);
                    }
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                });
    String restartAt =
        DateTimeFormatter.ISO_INSTANT.format(
            Instant.now().plusSeconds(1).truncatedTo(ChronoUnit.SECONDS));
    rollouts.mergePatch(name, "{\"spec\":{\"restartAt\":\"" + restartAt + "\"}}");

    List<String> violations = new ArrayList<>();
    Awaitility.await("all pods replaced, restartedAt set, Healthy")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(
            () -> {
              List<Pod> pods = pods(name);
              long ready = pods.stream().filter(RestartAtE2E::ready).count();
              if (ready < 2) {
                violations.add(ready + " ready pods at " + Instant.now());
              }
              Rollout r = rollouts.get(name);
              Set<String> live =
                  pods.stream()
                      .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                      .map(p -> p.getMetadata().getUid())
                      .collect(Collectors.toSet());
              return live.size() == 3
                  && live.stream().noneMatch(before::contains)
                  && ready == 3
                  && restartAt.equals(r.getStatus().getRestartedAt())
                  && healthy(r);
            });
    assertTrue(violations.isEmpty(), "availability dropped below R-1: " + violations);
    watch.close();
    assertTrue(
        sawRestarting.get(), "phase message 'rollout is restarting' observed while restarting");
    assertEquals(1, rollouts.replicaSets(name).size(), "restart creates no ReplicaSet");
  }

  /** Keeps the namespace of a failed test for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
