package io.rollgate.e2e.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.Awaitility;

/**
 * A private, real Prometheus server for tests: the {@code prometheus} binary (Debian package {@code
 * prometheus}, or the path in {@code ROLLGATE_PROMETHEUS_BIN}) started on a free loopback port with
 * a generated configuration that scrapes the given targets every second, and a temporary TSDB
 * directory deleted again on {@link #close()}.
 */
public final class PrometheusServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final Path dir;
  private final int port;
  private final Thread shutdownHook;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private PrometheusServer(Process process, Path dir, int port) {
    this.process = process;
    this.dir = dir;
    this.port = port;
    this.shutdownHook = new Thread(process::destroyForcibly, "prometheus-stop");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts Prometheus scraping the targets every second, and waits until it is ready (bounded, 60
   * s).
   *
   * @param name a name for the log file ({@code target/prometheus-<name>.log})
   * @param targets scrape targets {@code host:port} (their {@code /metrics})
   * @return the running server
   */
  public static PrometheusServer start(String name, List<String> targets) {
    String binary = binary();
    int port = ControllerProcess.freePort();
    try {
      Path dir = Files.createTempDirectory("rollgate-prometheus-");
      Path config = dir.resolve("prometheus.yml");
      String targetList =
          targets.stream().map(t -> "'" + t + "'").collect(Collectors.joining(", "));
      Files.writeString(
          config,
          String.join(
              "\n",
              "global:",
              "  scrape_interval: 1s",
              "  scrape_timeout: 1s",
              "  evaluation_interval: 1s",
              "scrape_configs:",
              "  - job_name: rollgate-e2e",
              "    static_configs:",
              "      - targets: [" + targetList + "]",
              ""));
      Path log = Path.of("target", "prometheus-" + name + ".log");
      Files.createDirectories(log.getParent());
      Process process =
          new ProcessBuilder(
                  binary,
                  "--config.file=" + config,
                  "--storage.tsdb.path=" + dir.resolve("data"),
                  "--storage.tsdb.retention.time=1h",
                  "--web.listen-address=127.0.0.1:" + port,
                  "--log.level=warn")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      PrometheusServer server = new PrometheusServer(process, dir, port);
      try {
        Awaitility.await("Prometheus ready on port " + port + " (log: " + log + ")")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(200))
            .until(
                () -> {
                  if (!process.isAlive()) {
                    throw new IllegalStateException(
                        "Prometheus exited with " + process.exitValue() + ", see " + log);
                  }
                  return server.ready();
                });
      } catch (RuntimeException e) {
        server.close();
        throw e;
      }
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start Prometheus (" + binary + ")", e);
    }
  }

  private static String binary() {
    String env = System.getenv("ROLLGATE_PROMETHEUS_BIN");
    if (env != null && !env.isBlank()) {
      return env;
    }
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, "prometheus");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new IllegalStateException(
        "the prometheus binary is needed by the analysis e2e tests: apt-get install prometheus (.ci/run does), "
            + "or set ROLLGATE_PROMETHEUS_BIN");
  }

  private boolean ready() {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create(address() + "/-/ready"))
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * The base URL, e.g. {@code http://127.0.0.1:40123}, as a user writes it in {@code
   * provider.prometheus.address}.
   */
  public String address() {
    return "http://127.0.0.1:" + port;
  }

  /**
   * Runs an instant query the way a user would check Prometheus by hand.
   *
   * @param promql the PromQL expression
   * @return the {@code data.result} node of the answer
   */
  public JsonNode query(String promql) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(
                          address()
                              + "/api/v1/query?query="
                              + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      JsonNode body = JSON.readTree(r.body());
      if (r.statusCode() != 200) {
        throw new IllegalStateException(
            "query " + promql + " answered " + r.statusCode() + ": " + r.body());
      }
      return body.path("data").path("result");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Waits (bounded) until an instant query's result satisfies a condition, e.g. until a rate has
   * data.
   *
   * @param promql the PromQL expression
   * @param timeout the bound
   * @param condition the condition on {@code data.result}
   * @return the result that satisfied it
   */
  public JsonNode awaitQuery(String promql, Duration timeout, Predicate<JsonNode> condition) {
    JsonNode[] last = new JsonNode[1];
    Awaitility.await("Prometheus query " + promql)
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> {
              last[0] = query(promql);
              return condition.test(last[0]);
            });
    return last[0];
  }

  /** Stops Prometheus and deletes its configuration and storage. */
  @Override
  public void close() {
    Processes.stop(process);
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // already shutting down
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a temp dir
    }
  }
}
