package io.rollgate.e2e.support;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;

/**
 * A private, real Graphite for tests: Debian's carbon-cache (fed with the plaintext protocol) and
 * graphite-web (the render API, run by Django's server), both from the system python that {@code
 * e2e/cluster/install-graphite} prints ({@code bin/test} exports it as {@code
 * ROLLGATE_GRAPHITE_PYTHON}), on free loopback ports, with the whisper files, the web app's
 * database and every log under a temporary directory deleted on {@link #close()}. Series keep one
 * point per second for an hour.
 */
public final class GraphiteServer implements AutoCloseable {

  private final Path dir;
  private final int linePort;
  private final int webPort;
  private final List<Process> processes;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private GraphiteServer(Path dir, int linePort, int webPort, List<Process> processes) {
    this.dir = dir;
    this.linePort = linePort;
    this.webPort = webPort;
    this.processes = processes;
  }

  /**
   * Starts carbon-cache and graphite-web and waits until both listen (bounded).
   *
   * @param name a name for the log files ({@code target/graphite-<name>-carbon.log}, {@code
   *     -web.log})
   * @return the running server
   */
  public static GraphiteServer start(String name) {
    String python = LocalServers.installed("ROLLGATE_GRAPHITE_PYTHON", "install-graphite");
    int linePort = ControllerProcess.freePort();
    int picklePort = ControllerProcess.freePort();
    int queryPort = ControllerProcess.freePort();
    int webPort = ControllerProcess.freePort();
    Path dir;
    try {
      dir = Files.createTempDirectory("rollgate-graphite-");
      Files.createDirectories(dir.resolve("whisper"));
      Files.createDirectories(dir.resolve("log"));
      Files.createDirectories(dir.resolve("conf"));
      Files.writeString(
          dir.resolve("conf/carbon.conf"),
          String.join(
              "\n",
              "[cache]",
              "STORAGE_DIR = " + dir,
              "LOCAL_DATA_DIR = " + dir.resolve("whisper"),
              "WHITELISTS_DIR = " + dir.resolve("lists"),
              "LOG_DIR = " + dir.resolve("log"),
              "PID_DIR = " + dir,
              "ENABLE_LOGROTATION = False",
              "LINE_RECEIVER_INTERFACE = 127.0.0.1",
              "LINE_RECEIVER_PORT = " + linePort,
              "ENABLE_UDP_LISTENER = False",
              "PICKLE_RECEIVER_INTERFACE = 127.0.0.1",
              "PICKLE_RECEIVER_PORT = " + picklePort,
              "CACHE_QUERY_INTERFACE = 127.0.0.1",
              "CACHE_QUERY_PORT = " + queryPort,
              "MAX_CACHE_SIZE = inf",
              "MAX_UPDATES_PER_SECOND = 1000",
              "MAX_CREATES_PER_MINUTE = inf",
              ""));
      Files.writeString(
          dir.resolve("conf/storage-schemas.conf"),
          "[default]\npattern = .*\nretentions = 1s:1h\n");
      Files.writeString(
          dir.resolve("rollgate_graphite_settings.py"),
          String.join(
              "\n",
              "STORAGE_DIR = '" + dir + "'",
              "WHISPER_DIR = '" + dir.resolve("whisper") + "/'",
              "LOG_DIR = '" + dir.resolve("log") + "'",
              "INDEX_FILE = '" + dir.resolve("index") + "'",
              "CARBONLINK_HOSTS = ['127.0.0.1:" + queryPort + "']",
              "SECRET_KEY = 'rollgate-e2e'",
              ""));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> web =
        Map.of(
            "PYTHONPATH", dir.toString(),
            "GRAPHITE_SETTINGS_MODULE", "rollgate_graphite_settings",
            "DJANGO_SETTINGS_MODULE", "graphite.settings");
    Process carbon =
        LocalServers.start(
            List.of(
                python,
                "/usr/bin/carbon-cache",
                "--config=" + dir.resolve("conf/carbon.conf"),
                "--nodaemon",
                "start"),
            Map.of(),
            "graphite-" + name + "-carbon.log");
    Process migrate =
        LocalServers.start(
            List.of(python, "-m", "django", "migrate", "--run-syncdb", "-v0"),
            web,
            "graphite-" + name + "-web.log");
    GraphiteServer server;
    try {
      if (migrate.waitFor() != 0) {
        carbon.destroyForcibly();
        throw new IllegalStateException(
            "graphite-web's database setup failed, see target/graphite-" + name + "-web.log");
      }
      Process webapp =
          LocalServers.start(
              List.of(python, "-m", "django", "runserver", "--noreload", "127.0.0.1:" + webPort),
              web,
              "graphite-" + name + "-web.log");
      server = new GraphiteServer(dir, linePort, webPort, List.of(carbon, webapp));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      carbon.destroyForcibly();
      throw new IllegalStateException(e);
    }
    try {
      LocalServers.awaitPort(
          server.processes.get(0),
          linePort,
          "carbon-cache (target/graphite-" + name + "-carbon.log)");
      LocalServers.awaitPort(
          server.processes.get(1), webPort, "graphite-web (target/graphite-" + name + "-web.log)");
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /**
   * The base URL, e.g. {@code http://127.0.0.1:40123}, as a user writes it in {@code
   * provider.graphite.address}.
   */
  public String address() {
    return "http://127.0.0.1:" + webPort;
  }

  /**
   * Sends points with carbon's plaintext protocol ({@code <path> <value> <epoch seconds>}).
   *
   * @param path the metric path, e.g. {@code app.web.errors}
   * @param points epoch second to value
   */
  public void feed(String path, Map<Instant, Double> points) {
    StringBuilder lines = new StringBuilder();
    points.forEach(
        (t, v) ->
            lines
                .append(path)
                .append(' ')
                .append(v)
                .append(' ')
                .append(t.getEpochSecond())
                .append('\n'));
    try (Socket s = new Socket("127.0.0.1", linePort);
        OutputStream out = s.getOutputStream()) {
      out.write(lines.toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Waits (bounded, 60 s) until the render API answers a target's JSON that satisfies a check, for
   * example until fed points are visible.
   *
   * @param query render parameters, e.g. {@code target=app.web.errors&from=-5min}
   * @param check a check on the JSON text
   */
  public void awaitRender(String query, Predicate<String> check) {
    Awaitility.await("Graphite render " + query)
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> check.test(render(query)));
  }

  private String render(String query) throws IOException, InterruptedException {
    StringBuilder q = new StringBuilder();
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      q.append(q.length() == 0 ? "" : "&")
          .append(pair, 0, eq + 1)
          .append(URLEncoder.encode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(address() + "/render?" + q + "&format=json"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return r.statusCode() == 200 ? r.body() : "";
  }

  /** Stops both processes and deletes the data. */
  @Override
  public void close() {
    processes.forEach(Processes::stop);
    LocalServers.delete(dir);
  }
}
