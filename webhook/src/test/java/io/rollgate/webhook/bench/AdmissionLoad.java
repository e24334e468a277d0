package io.rollgate.webhook.bench;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load harness for the admission webhook (a benchmark, not a test): sends realistic {@code
 * /validate} AdmissionReviews for a small and a large Rollout over HTTPS to a running webhook, from
 * this separate process, with and prints reviews per second and the p50/p99/p99.9 latency. Two
 * modes:
 *
 * <ul>
 *   <li>closed loop (default): 1, 16 and 64 concurrent connections, each sending its next review as
 *       soon as the previous answer arrives. Throughput is what the webhook sustains, but a slow
 *       answer delays the next send, so the latency percentiles under-count stalls (coordinated
 *       omission).
 *   <li>fixed rate ({@code rate=<reviews/s>}): reviews are sent on a fixed schedule, the i-th at
 *       {@code start + i / rate}, whatever the answers do, over a pool of {@code conns} connections
 *       (a review waits in the client's queue when every connection is busy). Latency is measured
 *       from the <em>scheduled</em> send time to the answer, so time spent queued behind a stall,
 *       in the client or in the server, is counted (no coordinated omission). This is the mode the
 *       target "p99 below 2 ms at 5,000 reviews/s" is measured with. The {@code send} columns give
 *       the harness's own share: how late its event loop started each request after the scheduled
 *       time.
 * </ul>
 *
 * <p>Run: {@code java -cp webhook/target/test-classes:webhook/target/rollgate-webhook.jar
 * io.rollgate.webhook.bench.AdmissionLoad https://127.0.0.1:9443/validate [seconds per run]
 * [warm-up seconds] [rate=<reviews/s>[,<reviews/s>...]] [conns=<connections, default 64>]
 * [size=small|large|both] [runs=<repeats>] [pid=<webhook process id>]}. With {@code pid}, each
 * fixed-rate run also prints the webhook's CPU time per answered review (from {@code
 * /proc/<pid>/stat}): unlike latency, that figure holds on a machine busy with other work, and it
 * says how many reviews per second the cores can serve at all. {@code bin/webhook-bench} starts a
 * webhook on the local control plane and runs this.
 */
public final class AdmissionLoad {

  private static final int[] CONNECTIONS = {1, 16, 64};

  /** Room for 4 million latency samples (32 MiB), more than any run at the target rate needs. */
  private static final long[] SAMPLES = new long[1 << 22];

  private AdmissionLoad() {}

  /**
   * Runs the benchmark and prints one line per (Rollout size, connection count).
   *
   * @param args the {@code /validate} URL, then optionally seconds per run (default 15) and warm-up
   *     seconds (5)
   * @throws Exception when the webhook cannot be reached
   */
  public static void main(String[] args) throws Exception {
    try {
      benchmark(args);
    } finally {
      System.exit(0);
    }
  }

  private static void benchmark(String[] args) throws Exception {
    String url = args.length > 0 ? args[0] : "https://127.0.0.1:9443/validate";
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    java.util.Map<String, String> opts = new java.util.HashMap<>();
    for (int i = 3; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("expected key=value, got " + args[i]);
      }
      opts.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    if (opts.containsKey("rate")) {
      fixedRate(url, seconds, warmUp, opts);
      return;
    }
    java.net.URI uri = java.net.URI.create(url);
    Vertx vertx = harnessVertx();
    HttpClient client =
        vertx.createHttpClient(clientOptions(uri), new PoolOptions().setHttp1MaxSize(64));
    byte[] small = reviewFor(smallRollout()).getBytes(StandardCharsets.UTF_8);
    byte[] large = reviewFor(largeRollout()).getBytes(StandardCharsets.UTF_8);
    System.out.printf(
        "webhook %s; small review %d bytes, large review %d bytes; %ds per run after %ds warm-up%n",
        url, small.length, large.length, seconds, warmUp);
    System.out.printf(
        "%-6s %5s %10s %9s %9s %9s %9s%n",
        "size", "conns", "reviews/s", "p50 ms", "p99 ms", "p99.9 ms", "errors");
    run(client, uri.getPath(), large, 16, warmUp, false, "warm");
    for (String size : new String[] {"small", "large"}) {
      byte[] body = size.equals("small") ? small : large;
      for (int c : CONNECTIONS) {
        run(client, uri.getPath(), body, c, 2, false, size);
        run(client, uri.getPath(), body, c, seconds, true, size);
      }
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** The harness's Vert.x: one event loop, on the epoll transport where it loads. */
  private static Vertx harnessVertx() {
    return Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setPreferNativeTransport(true));
  }

  /**
   * HTTPS keep-alive client options for the webhook at {@code uri}, trusting its self-signed
   * certificate; TLS through BoringSSL where it loads, as the webhook does, so the harness's own
   * CPU time and garbage stay small.
   */
  private static HttpClientOptions clientOptions(java.net.URI uri) {
    return new HttpClientOptions()
        .setSsl(true)
        .setSslEngineOptions(
            io.vertx.core.net.OpenSSLEngineOptions.isAvailable()
                ? new io.vertx.core.net.OpenSSLEngineOptions()
                : new io.vertx.core.net.JdkSSLEngineOptions())
        .setTrustAll(true)
        .setVerifyHost(false)
        .setKeepAlive(true)
        .setDefaultHost(uri.getHost())
        .setDefaultPort(uri.getPort());
  }

  private static void run(
      HttpClient client,
      String path,
      byte[] body,
      int connections,
      int seconds,
      boolean print,
      String label)
      throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    AtomicLong errors = new AtomicLong();
    // Every callback runs on the harness's single event loop: one shared sample array needs no
    // locking.
    long[] lat = SAMPLES;
    int[] counts = new int[1];
    CountDownLatch done = new CountDownLatch(connections);
    Buffer payload = Buffer.buffer(body);
    long start = System.nanoTime();
    for (int i = 0; i < connections; i++) {
      loop(client, path, payload, end, lat, counts, 0, errors, done);
    }
    if (!done.await(seconds + 60L, TimeUnit.SECONDS)) {
      System.out.println("run did not finish in time");
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    if (!print) {
      return;
    }
    int total = Math.min(counts[0], lat.length);
    long[] all = Arrays.copyOf(lat, total);
    Arrays.sort(all);
    System.out.printf(
        "%-6s %5d %10.0f %9.3f %9.3f %9.3f %9d%n",
        label,
        connections,
        total / elapsed,
        pct(all, 0.50),
        pct(all, 0.99),
        pct(all, 0.999),
        errors.get());
  }

  private static void loop(
      HttpClient client,
      String path,
      Buffer payload,
      long end,
      long[] lat,
      int[] counts,
      int slot,
      AtomicLong errors,
      CountDownLatch done) {
    if (System.nanoTime() >= end) {
      done.countDown();
      return;
    }
    long t0 = System.nanoTime();
    Future<Buffer> f =
        client
            .request(
                new RequestOptions()
                    .setMethod(HttpMethod.POST)
                    .setURI(path)
                    .putHeader("Content-Type", "application/json"))
            .compose(req -> req.send(payload))
            .compose(
                resp ->
                    resp.statusCode() == 200
                        ? resp.body()
                        : Future.failedFuture("HTTP " + resp.statusCode()));
    f.onComplete(
        ar -> {
          long t = System.nanoTime() - t0;
          if (ar.succeeded() && counts[slot] < lat.length) {
            lat[counts[slot]++] = t;
          } else if (ar.failed()) {
            errors.incrementAndGet();
          }
          loop(client, path, payload, end, lat, counts, slot, errors, done);
        });
  }

  private static void fixedRate(
      String url, int seconds, int warmUp, java.util.Map<String, String> opts) throws Exception {
    java.net.URI uri = java.net.URI.create(url);
    int conns = Integer.parseInt(opts.getOrDefault("conns", "64"));
    int runs = Integer.parseInt(opts.getOrDefault("runs", "1"));
    String sizes = opts.getOrDefault("size", "small");
    Vertx vertx = harnessVertx();
    HttpClient client =
        vertx.createHttpClient(
            clientOptions(uri), new PoolOptions().setHttp1MaxSize(conns).setMaxWaitQueueSize(-1));
    byte[] small = reviewFor(smallRollout()).getBytes(StandardCharsets.UTF_8);
    byte[] large = reviewFor(largeRollout()).getBytes(StandardCharsets.UTF_8);
    System.out.printf(
        "webhook %s; fixed rate (latency from the scheduled send time), %d connections; small review %d bytes,"
            + " large review %d bytes; %ds per run after %ds warm-up; harness transport %s, harness TLS %s%n",
        url,
        conns,
        small.length,
        large.length,
        seconds,
        warmUp,
        vertx.isNativeTransportEnabled() ? "epoll" : "NIO",
        io.vertx.core.net.OpenSSLEngineOptions.isAvailable() ? "OpenSSL" : "JDK");
    long pid = Long.parseLong(opts.getOrDefault("pid", "0"));
    System.out.printf(
        "%-6s %8s %10s %9s %9s %9s %9s %7s %12s %9s %9s  %s%n",
        "size",
        "offered",
        "answered/s",
        "p50 ms",
        "p99 ms",
        "p99.9 ms",
        "max ms",
        "errors",
        "CPU us/review",
        "send p50",
        "send p99",
        "load average (1/5/15 min) at the end");
    for (String rate : opts.get("rate").split(",")) {
      int r = Integer.parseInt(rate.trim());
      for (String size :
          sizes.equals("both") ? new String[] {"small", "large"} : new String[] {sizes}) {
        byte[] body = size.equals("small") ? small : large;
        schedule(vertx, client, uri.getPath(), body, r, warmUp, false, size, pid);
        for (int i = 0; i < runs; i++) {
          schedule(vertx, client, uri.getPath(), body, r, seconds, true, size, pid);
        }
      }
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /**
   * Sends {@code rate} reviews per second for {@code seconds}: a timer on the harness's event loop
   * fires at each review's scheduled time and sends it; a late timer or a busy event loop sends the
   * backlog at once, and that lateness counts in the latency, which runs from the scheduled time to
   * the answer. The line also gives the send lateness alone (from the scheduled time to the moment
   * the event loop starts the request), so the harness's own share of the latency is visible.
   */
  private static void schedule(
      Vertx vertx,
      HttpClient client,
      String path,
      byte[] body,
      int rate,
      int seconds,
      boolean print,
      String label,
      long pid)
      throws InterruptedException {
    long cpuBefore = cpuTicks(pid);
    // Arrays sized for this run: a few MiB at most, so the harness's own heap stays small and its
    // collections short.
    int total = (int) Math.min((long) rate * seconds, 1 << 24);
    long interval = 1_000_000_000L / rate;
    long[] lat = new long[total];
    long[] late = new long[total];
    String[] firstError = new String[1];
    int[] done = new int[1];
    AtomicLong errors = new AtomicLong();
    CountDownLatch finished = new CountDownLatch(1);
    Buffer payload = Buffer.buffer(body);
    long start = System.nanoTime() + 5_000_000L;
    long[] lastAnswer = new long[1];
    io.vertx.core.internal.ContextInternal context =
        (io.vertx.core.internal.ContextInternal) vertx.getOrCreateContext();
    io.netty.channel.EventLoop loop = context.nettyEventLoop();
    int[] sent = new int[1];
    // Runs on the harness's event loop: sends every review whose time has come, then sets a timer
    // for the next one. Netty's timers have microsecond resolution on the epoll transport, and
    // sending from the loop's own thread needs no hand-off between threads.
    Runnable tick =
        new Runnable() {
          @Override
          public void run() {
            long now = System.nanoTime();
            while (sent[0] < total && start + sent[0] * interval <= now) {
              int index = sent[0]++;
              long scheduled = start + index * interval;
              context.runOnContext(
                  v -> {
                    // Every callback runs on the harness's single event loop: the sample arrays
                    // need no locking.
                    late[index] = System.nanoTime() - scheduled;
                    client
                        .request(
                            new RequestOptions()
                                .setMethod(HttpMethod.POST)
                                .setURI(path)
                                .putHeader("Content-Type", "application/json"))
                        .compose(req -> req.send(payload))
                        .compose(
                            resp ->
                                resp.statusCode() == 200
                                    ? resp.body()
                                    : Future.failedFuture("HTTP " + resp.statusCode()))
                        .onComplete(
                            ar -> {
                              long t = System.nanoTime();
                              if (ar.succeeded()) {
                                lat[done[0]++] = t - scheduled;
                              } else {
                                if (errors.incrementAndGet() == 1) {
                                  firstError[0] = String.valueOf(ar.cause());
                                }
                              }
                              lastAnswer[0] = t;
                              if (done[0] + errors.get() == total) {
                                finished.countDown();
                              }
                            });
                  });
            }
            if (sent[0] < total) {
              loop.schedule(
                  this, start + sent[0] * interval - System.nanoTime(), TimeUnit.NANOSECONDS);
            }
          }
        };
    loop.execute(tick);
    if (!finished.await(seconds + 60L, TimeUnit.SECONDS)) {
      System.out.println("run did not finish in time: answers still missing");
    }
    long cpuAfter = cpuTicks(pid);
    if (!print) {
      return;
    }
    int n = done[0];
    // /proc/<pid>/stat counts clock ticks of 10 ms (USER_HZ 100 on Linux).
    double cpuMicros = pid <= 0 || n == 0 ? Double.NaN : (cpuAfter - cpuBefore) * 10_000.0 / n;
    long[] all = Arrays.copyOf(lat, n);
    Arrays.sort(all);
    long[] sendLate = Arrays.copyOf(late, total);
    Arrays.sort(sendLate);
    double elapsed = (lastAnswer[0] - start) / 1e9;
    System.out.printf(
        "%-6s %8d %10.0f %9.3f %9.3f %9.3f %9.3f %7d %12.0f %9.3f %9.3f  %s%n",
        label,
        rate,
        n / elapsed,
        pct(all, 0.50),
        pct(all, 0.99),
        pct(all, 0.999),
        n == 0 ? Double.NaN : all[n - 1] / 1e6,
        errors.get(),
        cpuMicros,
        pct(sendLate, 0.50),
        pct(sendLate, 0.99),
        loadAverage());
    if (firstError[0] != null) {
      System.out.println("       first error: " + firstError[0]);
    }
  }

  /** User plus system CPU of a process, in clock ticks; 0 when unknown. */
  private static long cpuTicks(long pid) {
    if (pid <= 0) {
      return 0;
    }
    try {
      String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (java.io.IOException | RuntimeException e) {
      return 0;
    }
  }

  private static String loadAverage() {
    try {
      String[] f =
          java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (java.io.IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static double pct(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int i = (int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1);
    return sorted[Math.max(0, i)] / 1e6;
  }

  static String reviewFor(String rollout) {
    return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
        + "\"uid\":\"5f1c7f5e-4a8a-4e0f-9b7c-1d2e3f4a5b6c\","
        + "\"kind\":{\"group\":\"argoproj.io\",\"version\":\"v1alpha1\",\"kind\":\"Rollout\"},"
        + "\"resource\":{\"group\":\"argoproj.io\",\"version\":\"v1alpha1\",\"resource\":\"rollouts\"},"
        + "\"requestKind\":{\"group\":\"argoproj.io\",\"version\":\"v1alpha1\",\"kind\":\"Rollout\"},"
        + "\"name\":\"web\",\"namespace\":\"shop\",\"operation\":\"CREATE\","
        + "\"userInfo\":{\"username\":\"kubernetes-admin\",\"groups\":[\"system:masters\",\"system:authenticated\"]},"
        + "\"object\":"
        + rollout
        + ",\"oldObject\":null,\"dryRun\":false,"
        + "\"options\":{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"CreateOptions\"}}}";
  }

  /** A typical small canary Rollout (about 1 KB). */
  static String smallRollout() {
    return "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"Rollout\",\"metadata\":{\"name\":\"web\","
        + "\"namespace\":\"shop\",\"labels\":{\"app\":\"web\"}},\"spec\":{\"replicas\":5,\"revisionHistoryLimit\":3,"
        + "\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
        + "\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\"nginx:1.27\",\"ports\":[{\"name\":\"http\","
        + "\"containerPort\":8080}],\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"128Mi\"},"
        + "\"limits\":{\"cpu\":\"500m\",\"memory\":\"256Mi\"}}}]}},\"strategy\":{\"canary\":{\"maxSurge\":\"25%\","
        + "\"maxUnavailable\":0,\"steps\":[{\"setWeight\":20},{\"pause\":{\"duration\":\"1m\"}},{\"setWeight\":50},"
        + "{\"pause\":{\"duration\":\"1m\"}},{\"setWeight\":80},{\"pause\":{}}]}}}}";
  }

  /**
   * A large Rollout (about 60 KB): 8 containers with env, ports, probes and resources, 40 steps,
   * many labels and annotations, as generated by Helm charts with sidecars.
   */
  static String largeRollout() {
    StringBuilder containers = new StringBuilder();
    for (int c = 0; c < 8; c++) {
      if (c > 0) {
        containers.append(',');
      }
      StringBuilder env = new StringBuilder();
      for (int e = 0; e < 40; e++) {
        env.append(e == 0 ? "" : ",")
            .append("{\"name\":\"VAR_")
            .append(e)
            .append("\",\"value\":\"value-")
            .append(e)
            .append("-")
            .append("x".repeat(40))
            .append("\"}");
      }
      containers
          .append("{\"name\":\"c")
          .append(c)
          .append("\",\"image\":\"registry.example.com/team/app-")
          .append(c)
          .append(":1.2.3\",\"env\":[")
          .append(env)
          .append("],\"ports\":[{\"name\":\"http-")
          .append(c)
          .append("\",\"containerPort\":")
          .append(8080 + c)
          .append("},{\"name\":\"metrics-")
          .append(c)
          .append("\",\"containerPort\":")
          .append(9090 + c)
          .append(
              "}],\"resources\":{\"requests\":{\"cpu\":\"250m\","
                  + "\"memory\":\"256Mi\",\"ephemeral-storage\":\"1Gi\"},\"limits\":{\"cpu\":\"2\",\"memory\":\"1Gi\"}},"
                  + "\"readinessProbe\":{\"httpGet\":{\"path\":\"/ready\",\"port\":")
          .append(8080 + c)
          .append("},\"periodSeconds\":5},\"livenessProbe\":{\"tcpSocket\":{\"port\":")
          .append(8080 + c)
          .append("}}}");
    }
    StringBuilder steps = new StringBuilder();
    for (int s = 0; s < 40; s++) {
      steps
          .append(s == 0 ? "" : ",")
          .append(
              s % 2 == 0
                  ? "{\"setWeight\":" + (1 + s * 2) + "}"
                  : "{\"pause\":{\"duration\":\"30s\"}}");
    }
    StringBuilder labels = new StringBuilder("\"app\":\"web\"");
    StringBuilder annotations = new StringBuilder();
    for (int i = 0; i < 60; i++) {
      labels.append(",\"example.com/label-").append(i).append("\":\"v").append(i).append("\"");
      annotations
          .append(i == 0 ? "" : ",")
          .append("\"example.com/annotation-")
          .append(i)
          .append("\":\"")
          .append("a".repeat(100))
          .append("\"");
    }
    return "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"Rollout\",\"metadata\":{\"name\":\"web\","
        + "\"namespace\":\"shop\",\"labels\":{"
        + labels
        + "},\"annotations\":{"
        + annotations
        + "}},"
        + "\"spec\":{\"replicas\":20,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":"
        + "{\"labels\":{"
        + labels
        + "},\"annotations\":{"
        + annotations
        + "}},\"spec\":{\"containers\":["
        + containers
        + "]}},\"strategy\":{\"canary\":{\"canaryService\":\"web-canary\",\"stableService\":\"web-stable\","
        + "\"trafficRouting\":{\"nginx\":{\"stableIngress\":\"web\"}},\"steps\":["
        + steps
        + "]}}}}";
  }
}
