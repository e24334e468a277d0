package io.rollgate.e2e.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerFootprint;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Soak benchmark, not a test (its name keeps it out of the e2e suite): N Rollouts on the cluster,
 * each updated once, then steady churn. It prints the initial sync time, the time until every
 * Rollout is Healthy, API requests per Rollout update, and heap (after a full GC) and RSS of the
 * controller over the churn.
 *
 * <p>Run: {@code bin/test -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dit.test=SoakBenchmark -Dsoak.rollouts=1000 -Dsoak.churnMinutes=10}. Other properties: {@code
 * soak.qps} (controller {@code --qps}, default 200), {@code soak.burst} (400), {@code
 * soak.churnPercent} (Rollouts updated per 10 s churn tick, default 2) or {@code soak.churnPerTick}
 * (a number of Rollouts per tick instead), and {@code rollgate.controller.xmx} (the controller's
 * heap limit, default 512m).
 */
class SoakBenchmark {

  static final int N = Integer.getInteger("soak.rollouts", 1000);
  static final int CHURN_MINUTES = Integer.getInteger("soak.churnMinutes", 10);
  static final int CHURN_PERCENT = Integer.getInteger("soak.churnPercent", 2);
  static final int CHURN_PER_TICK = Integer.getInteger("soak.churnPerTick", 0);
  static final String QPS = System.getProperty("soak.qps", "200");
  static final String BURST = System.getProperty("soak.burst", "400");
  static final Duration LONG = Duration.ofMinutes(60);

  @Test
  void soak() throws Exception {
    TestCluster cluster = TestCluster.get();
    String ns = cluster.createNamespace("soak");
    var client = cluster.client();
    requirePodRoom(client);
    ExecutorService pool = Executors.newFixedThreadPool(16);
    long t0 = System.nanoTime();
    List<Future<?>> created = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      String name = "r" + i;
      created.add(
          pool.submit(
              () ->
                  client
                      .resources(Rollout.class)
                      .inNamespace(ns)
                      .resource(
                          client
                              .getKubernetesSerialization()
                              .unmarshal(rollout(name, "v1"), Rollout.class))
                      .create()));
    }
    for (Future<?> f : created) {
      f.get();
    }
    System.out.printf("soak: created %d Rollouts in %.1f s%n", N, secondsSince(t0));

    try (ControllerProcess controller =
        ControllerProcess.start(
            cluster, "soak", "--namespace", ns, "--qps", QPS, "--burst", BURST)) {
      long start = System.nanoTime();
      ControllerLog.of(controller).awaitLine(0, ControllerLog.SYNCED, LONG);
      double synced = secondsSince(start);
      awaitAll(client, ns, "all Healthy on v1", r -> healthyOn(r, "v1"));
      double healthy = secondsSince(start);
      ControllerFootprint base = ControllerFootprint.sample(controller);
      System.out.printf(
          "soak: N=%d informers synced %.1f s, all Healthy %.1f s after start; heap %.1f MiB, RSS %.1f MiB%n",
          N, synced, healthy, base.heapMib(), base.rssMib());

      Map<String, Double> before = requests(controller);
      long u0 = System.nanoTime();
      List<Future<?>> updates = new ArrayList<>();
      for (int i = 0; i < N; i++) {
        String name = "r" + i;
        updates.add(pool.submit(() -> setImage(client, ns, name, "v2")));
      }
      for (Future<?> f : updates) {
        f.get();
      }
      awaitAll(client, ns, "all Healthy on v2", r -> healthyOn(r, "v2"));
      double updated = secondsSince(u0);
      Map<String, Double> spent = delta(before, requests(controller));
      double perUpdate = spent.get("total") / N;
      spent.forEach(
          (labels, count) -> System.out.printf("soak:   requests %s: %.0f%n", labels, count));
      ControllerFootprint afterUpdate = ControllerFootprint.sample(controller);
      System.out.printf(
          "soak: N=%d updated once: all Healthy on v2 after %.1f s, %.1f API requests per Rollout update; heap %.1f"
              + " MiB, RSS %.1f MiB%n",
          N, updated, perUpdate, afterUpdate.heapMib(), afterUpdate.rssMib());

      Random random = new Random(42);
      int perTick = CHURN_PER_TICK > 0 ? CHURN_PER_TICK : Math.max(1, N * CHURN_PERCENT / 100);
      long churnEnd = System.nanoTime() + Duration.ofMinutes(CHURN_MINUTES).toNanos();
      int tick = 0;
      long lastPrint = System.nanoTime();
      while (System.nanoTime() < churnEnd) {
        tick++;
        for (int k = 0; k < perTick; k++) {
          String name = "r" + random.nextInt(N);
          setImage(client, ns, name, "c" + tick);
        }
        Thread.sleep(10_000);
        if (System.nanoTime() - lastPrint >= Duration.ofMinutes(1).toNanos()) {
          ControllerFootprint s = ControllerFootprint.sample(controller);
          System.out.printf(
              "soak: churn t=%.0f s: heap after GC %.1f MiB, RSS %.1f MiB%n",
              secondsSince(u0) - updated, s.heapMib(), s.rssMib());
          lastPrint = System.nanoTime();
        }
      }
      ControllerFootprint end = ControllerFootprint.sample(controller);
      System.out.printf(
          "soak: after %d min of churn (%d updates per 10 s): heap after GC %.1f MiB (start %.1f), RSS %.1f MiB"
              + " (start %.1f)%n",
          CHURN_MINUTES, perTick, end.heapMib(), base.heapMib(), end.rssMib(), base.rssMib());
    } finally {
      pool.shutdownNow();
      cluster.deleteNamespace(ns);
    }
  }

  /**
   * Fails at once, with the figures, when the cluster's schedulable nodes cannot take every
   * Rollout's pod and a surge pod each (otherwise Rollouts wait for a node until their progress
   * deadline and the benchmark measures the scheduler).
   */
  static void requirePodRoom(io.fabric8.kubernetes.client.KubernetesClient client) {
    long room = 0;
    for (var node : client.nodes().list().getItems()) {
      if (Boolean.TRUE.equals(node.getSpec().getUnschedulable())
          || node.getStatus().getAllocatable() == null) {
        continue;
      }
      var pods = node.getStatus().getAllocatable().get("pods");
      room += pods == null ? 0 : pods.getNumericalAmount().longValue();
    }
    long used = client.pods().inAnyNamespace().list().getItems().size();
    if (room - used < 2L * N) {
      throw new IllegalStateException(
          "soak: the nodes take "
              + room
              + " pods, "
              + used
              + " exist; "
              + N
              + " Rollouts need room for "
              + 2 * N
              + " (one pod and one surge pod each): add nodes or raise their pods capacity");
    }
  }

  /** controller_clientset_k8s_request_total by label set ({kind, verb, status_code}). */
  static Map<String, Double> requests(ControllerProcess controller) {
    Map<String, Double> byLabels = new TreeMap<>();
    for (String line : OpsHttp.get(controller.metricsPort(), "/metrics").body().split("\n")) {
      if (line.startsWith("controller_clientset_k8s_request_total{")) {
        int space = line.lastIndexOf(' ');
        byLabels.put(
            line.substring(line.indexOf('{'), space),
            Double.parseDouble(line.substring(space + 1)));
      }
    }
    return byLabels;
  }

  /** Requests between two readings, per label set and in total ("total"). */
  static Map<String, Double> delta(Map<String, Double> before, Map<String, Double> after) {
    Map<String, Double> d = new TreeMap<>();
    double total = 0;
    for (Map.Entry<String, Double> e : after.entrySet()) {
      double v = e.getValue() - before.getOrDefault(e.getKey(), 0.0);
      if (v > 0) {
        d.put(e.getKey(), v);
        total += v;
      }
    }
    d.put("total", total);
    return d;
  }

  static void awaitAll(
      io.fabric8.kubernetes.client.KubernetesClient client,
      String ns,
      String what,
      Predicate<Rollout> p) {
    long started = System.nanoTime();
    long[] lastProgress = {started};
    Awaitility.await(what)
        .atMost(LONG)
        .pollInterval(Duration.ofSeconds(Math.max(2, N / 1000)))
        .until(
            () -> {
              List<Rollout> all = client.resources(Rollout.class).inNamespace(ns).list().getItems();
              long done = all.stream().filter(p).count();
              long now = System.nanoTime();
              if (now - lastProgress[0] >= Duration.ofMinutes(1).toNanos()) {
                System.out.printf(
                    "soak:   %s: %d of %d after %.0f s%n", what, done, N, secondsSince(started));
                lastProgress[0] = now;
              }
              return done == N;
            });
    assertEquals(
        N,
        client.resources(Rollout.class).inNamespace(ns).list().getItems().stream()
            .filter(p)
            .count());
  }

  static boolean healthyOn(Rollout r, String tag) {
    return r.getStatus() != null
        && String.valueOf(r.getMetadata().getGeneration())
            .equals(r.getStatus().getObservedGeneration())
        && "Healthy".equals(r.getStatus().getPhase())
        && r.getStatus().getCurrentPodHash() != null
        && r.getStatus().getCurrentPodHash().equals(r.getStatus().getStableRS())
        && r.getSpec()
            .getTemplate()
            .getSpec()
            .getContainers()
            .get(0)
            .getImage()
            .endsWith(":" + tag);
  }

  static void setImage(
      io.fabric8.kubernetes.client.KubernetesClient client, String ns, String name, String tag) {
    client
        .resources(Rollout.class)
        .inNamespace(ns)
        .withName(name)
        .patch(
            io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON),
            "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/image\",\"value\":\"registry.example/app:"
                + tag
                + "\"}]");
  }

  static String rollout(String name, String tag) {
    return "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata:\n  name: "
        + name
        + "\nspec:\n  replicas: 1\n"
        + "  revisionHistoryLimit: 2\n  selector:\n    matchLabels:\n      app: "
        + name
        + "\n  template:\n"
        + "    metadata:\n      labels:\n        app: "
        + name
        + "\n    spec:\n      containers:\n      - name: app\n"
        + "        image: registry.example/app:"
        + tag
        + "\n  strategy:\n    canary:\n      maxSurge: 1\n"
        + "      maxUnavailable: 0\n";
  }

  static double secondsSince(long nanos) {
    return (System.nanoTime() - nanos) / 1e9;
  }
}
