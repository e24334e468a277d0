package io.rollgate.e2e.analysis;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Measurement;
import io.rollgate.api.MetricResult;
import io.rollgate.e2e.support.ControllerFootprint;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.TestCluster;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Analysis throughput benchmark, not a test (its name keeps it out of the e2e suite): N
 * AnalysisRuns, each with 3 web metrics measured every 10 s without a count, against a local HTTP
 * endpoint answering {@code {"ok":true}}. After {@code bench.minutes} of steady measuring it prints
 * the measurement-schedule jitter (lateness of each measurement's {@code startedAt} relative to
 * when it was due: the previous measurement's {@code finishedAt} + interval, or the run's {@code
 * startedAt} + initialDelay for the first), the measurements per second achieved against the
 * expected {@code N * 3 / 10}, and the controller's CPU seconds (from {@code /proc/<pid>/stat}),
 * heap after a full GC and RSS.
 *
 * <p>Timestamps in the status have whole-second precision (as in Argo Rollouts), so lateness is
 * resolved to 1 s. Only the last 10 measurements of a metric are kept ({@code measurementRetention}
 * default), which covers a few minutes at a 10 s interval; a first measurement is only judged when
 * it is still retained.
 *
 * <p>Run: {@code bin/test -o -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dit.test=AnalysisThroughputBenchmark -Dbench.runs=1000 -Dbench.minutes=3}. The controller runs
 * with {@code --qps 500 --burst 1000 --analysis-threads 30} and the e2e default heap limit ({@code
 * -Xmx512m}).
 */
class AnalysisThroughputBenchmark {

  static final int N = Integer.getInteger("bench.runs", 1000);
  static final int MINUTES = Integer.getInteger("bench.minutes", 3);
  static final int METRICS = 3;
  static final int INTERVAL_SECONDS = 10;
  static final Duration LONG = Duration.ofMinutes(30);

  @Test
  void throughput() throws Exception {
    TestCluster cluster = TestCluster.get();
    KubernetesClient client = cluster.client();
    String ns = cluster.createNamespace("anbench");
    ExecutorService pool = Executors.newFixedThreadPool(16);
    AtomicLong answered = new AtomicLong();
    HttpServer server = okServer(answered);
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/ok";
    // a log file of its own (named after the fresh namespace): the log is appended to, and a synced
    // line left by an earlier run must not count
    try (ControllerProcess controller =
        ControllerProcess.start(
            cluster,
            ns,
            "--namespace",
            ns,
            "--qps",
            "500",
            "--burst",
            "1000",
            "--analysis-threads",
            "30")) {
      ControllerLog.of(controller).awaitLine(0, ControllerLog.SYNCED, LONG);
      ControllerFootprint idle = ControllerFootprint.sample(controller);
      System.out.printf(
          "anbench: controller synced; cpu %.1f s, heap after GC %.1f MiB, RSS %.1f MiB%n",
          idle.cpuSeconds(), idle.heapMib(), idle.rssMib());

      long t0 = System.nanoTime();
      List<Future<?>> created = new ArrayList<>();
      for (int i = 0; i < N; i++) {
        String name = "ar" + i;
        created.add(
            pool.submit(
                () ->
                    client
                        .resources(AnalysisRun.class)
                        .inNamespace(ns)
                        .resource(
                            client
                                .getKubernetesSerialization()
                                .unmarshal(run(name, url), AnalysisRun.class))
                        .create()));
      }
      for (Future<?> f : created) {
        f.get();
      }
      double createSeconds = secondsSince(t0);
      Awaitility.await("all runs Running")
          .atMost(LONG)
          .pollInterval(Duration.ofSeconds(2))
          .until(
              () ->
                  client.resources(AnalysisRun.class).inNamespace(ns).list().getItems().stream()
                          .filter(
                              r ->
                                  r.getStatus() != null
                                      && "Running".equals(r.getStatus().getPhase()))
                          .count()
                      == N);
      System.out.printf(
          "anbench: created %d AnalysisRuns in %.1f s, all Running %.1f s after the first create%n",
          N, createSeconds, secondsSince(t0));

      ControllerFootprint start = ControllerFootprint.sample(controller);
      long count0 = totalMeasurements(client, ns);
      long answered0 = answered.get();
      long w0 = System.nanoTime();
      long windowEnd = w0 + Duration.ofMinutes(MINUTES).toNanos();
      while (System.nanoTime() < windowEnd) {
        Thread.sleep(Math.min(60_000, Math.max(1, (windowEnd - System.nanoTime()) / 1_000_000)));
        if (System.nanoTime() < windowEnd - 1_000_000_000L) {
          ControllerFootprint s = ControllerFootprint.sample(controller);
          System.out.printf(
              "anbench: t=%.0f s: cpu %.1f s, heap after GC %.1f MiB, RSS %.1f MiB%n",
              secondsSince(w0), s.cpuSeconds() - start.cpuSeconds(), s.heapMib(), s.rssMib());
        }
      }
      double window = secondsSince(w0);
      long requests = answered.get() - answered0;
      ControllerFootprint end = ControllerFootprint.sample(controller);
      List<AnalysisRun> runs =
          client.resources(AnalysisRun.class).inNamespace(ns).list().getItems();
      long count1 = runs.stream().mapToLong(AnalysisThroughputBenchmark::measurementCount).sum();
      Lateness lateness = lateness(runs);
      long notRunning =
          runs.stream()
              .filter(r -> r.getStatus() == null || !"Running".equals(r.getStatus().getPhase()))
              .count();

      double expected = N * (double) METRICS / INTERVAL_SECONDS;
      System.out.printf(
          "anbench: N=%d runs x %d web metrics every %d s, %.0f s window%n",
          N, METRICS, INTERVAL_SECONDS, window);
      System.out.printf(
          "anbench: measurements/s achieved %.1f (status counts), %.1f (HTTP requests answered);"
              + " expected %.1f%n",
          (count1 - count0) / window, requests / window, expected);
      System.out.printf(
          "anbench: schedule lateness over %d measurements (1 s resolution): p50 %.0f s, p99 %.0f s,"
              + " max %.0f s; %d runs not Running%n",
          lateness.samples, lateness.p50, lateness.p99, lateness.max, notRunning);
      System.out.printf(
          "anbench: controller cpu %.1f s over the window (%.2f cores), %.1f s in total; heap after GC"
              + " %.1f MiB (idle %.1f), RSS %.1f MiB (idle %.1f)%n",
          end.cpuSeconds() - start.cpuSeconds(),
          (end.cpuSeconds() - start.cpuSeconds()) / window,
          end.cpuSeconds(),
          end.heapMib(),
          idle.heapMib(),
          end.rssMib(),
          idle.rssMib());

      List<Future<?>> terminated = new ArrayList<>();
      for (int i = 0; i < N; i++) {
        String name = "ar" + i;
        terminated.add(
            pool.submit(
                () ->
                    client
                        .resources(AnalysisRun.class)
                        .inNamespace(ns)
                        .withName(name)
                        .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            "{\"spec\":{\"terminate\":true}}")));
      }
      for (Future<?> f : terminated) {
        f.get();
      }
      long t1 = System.nanoTime();
      Awaitility.await("all runs terminated")
          .atMost(LONG)
          .pollInterval(Duration.ofSeconds(2))
          .until(
              () ->
                  client.resources(AnalysisRun.class).inNamespace(ns).list().getItems().stream()
                      .noneMatch(
                          r ->
                              r.getStatus() == null || "Running".equals(r.getStatus().getPhase())));
      System.out.printf(
          "anbench: all %d runs terminated %.1f s after the last terminate patch%n",
          N, secondsSince(t1));
    } finally {
      pool.shutdownNow();
      server.stop(0);
      cluster.deleteNamespace(ns);
    }
  }

  /** A plain HTTP endpoint answering {@code {"ok":true}} on /ok and counting the answers. */
  static HttpServer okServer(AtomicLong answered) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    ExecutorService executor =
        Executors.newFixedThreadPool(
            4,
            r -> {
              Thread t = new Thread(r, "anbench-http");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
    server.createContext(
        "/ok",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
          answered.incrementAndGet();
        });
    server.start();
    return server;
  }

  static String run(String name, String url) {
    StringBuilder yaml =
        new StringBuilder(
            "apiVersion: argoproj.io/v1alpha1\nkind: AnalysisRun\nmetadata:\n  name: "
                + name
                + "\nspec:\n  metrics:\n");
    for (int m = 0; m < METRICS; m++) {
      yaml.append("  - name: m")
          .append(m)
          .append("\n    interval: ")
          .append(INTERVAL_SECONDS)
          .append("s\n")
          .append(
              "    successCondition: result.ok == true\n    provider:\n      web:\n        url: ")
          .append(url)
          .append("\n        jsonPath: \"{$}\"\n");
    }
    return yaml.toString();
  }

  /** Measurements taken so far by a run, over all metrics (status.metricResults[].count). */
  static long measurementCount(AnalysisRun run) {
    if (run.getStatus() == null || run.getStatus().getMetricResults() == null) {
      return 0;
    }
    return run.getStatus().getMetricResults().stream()
        .mapToLong(r -> r.getCount() == null ? 0 : r.getCount())
        .sum();
  }

  static long totalMeasurements(KubernetesClient client, String ns) {
    return client.resources(AnalysisRun.class).inNamespace(ns).list().getItems().stream()
        .mapToLong(AnalysisThroughputBenchmark::measurementCount)
        .sum();
  }

  record Lateness(int samples, double p50, double p99, double max) {}

  /**
   * Lateness in seconds of every retained measurement: startedAt minus its due time, the previous
   * measurement's finishedAt + interval, or for the first measurement of a metric (when still
   * retained) the run's startedAt (no initialDelay is set).
   */
  static Lateness lateness(List<AnalysisRun> runs) {
    List<Long> late = new ArrayList<>();
    for (AnalysisRun run : runs) {
      if (run.getStatus() == null || run.getStatus().getMetricResults() == null) {
        continue;
      }
      Instant runStarted = parse(run.getStatus().getStartedAt());
      for (MetricResult result : run.getStatus().getMetricResults()) {
        List<Measurement> ms =
            result.getMeasurements() == null ? List.of() : result.getMeasurements();
        int count = result.getCount() == null ? 0 : result.getCount();
        for (int i = 0; i < ms.size(); i++) {
          Instant started = parse(ms.get(i).getStartedAt());
          Instant due;
          if (i == 0) {
            due = count == ms.size() ? runStarted : null;
          } else {
            Instant prevFinished = parse(ms.get(i - 1).getFinishedAt());
            due = prevFinished == null ? null : prevFinished.plusSeconds(INTERVAL_SECONDS);
          }
          if (started != null && due != null) {
            late.add(Duration.between(due, started).toSeconds());
          }
        }
      }
    }
    if (late.isEmpty()) {
      return new Lateness(0, Double.NaN, Double.NaN, Double.NaN);
    }
    long[] sorted = late.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(sorted);
    return new Lateness(
        sorted.length, percentile(sorted, 50), percentile(sorted, 99), sorted[sorted.length - 1]);
  }

  /** Nearest-rank percentile of sorted values. */
  static double percentile(long[] sorted, double p) {
    int rank = (int) Math.ceil(p / 100 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  static Instant parse(String text) {
    return text == null || text.isEmpty()
        ? null
        : DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(text, Instant::from);
  }

  static double secondsSince(long nanos) {
    return (System.nanoTime() - nanos) / 1e9;
  }
}
