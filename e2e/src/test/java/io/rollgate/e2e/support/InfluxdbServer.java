package io.rollgate.e2e.support;

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
import java.util.List;
import java.util.Map;

/**
 * A private, real InfluxDB for tests: {@code influxd} 1.8.3 (built and cached by {@code
 * e2e/cluster/install-influxdb}; {@code bin/test} exports it as {@code ROLLGATE_INFLUXD}) with Flux
 * enabled, so it serves the v2 query API ({@code /api/v2/query}), on free loopback ports, with its
 * data under a temporary directory deleted on {@link #close()}. Authentication is off: the server
 * accepts any {@code Authorization: Token ...}.
 */
public final class InfluxdbServer implements AutoCloseable {

  private final Process process;
  private final Path dir;
  private final int port;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private InfluxdbServer(Process process, Path dir, int port) {
    this.process = process;
    this.dir = dir;
    this.port = port;
  }

  /**
   * Starts the server and waits until it listens (bounded).
   *
   * @param name a name for the log file ({@code target/influxdb-<name>.log})
   * @return the running server
   */
  public static InfluxdbServer start(String name) {
    String binary = LocalServers.installed("ROLLGATE_INFLUXD", "install-influxdb");
    int port = ControllerProcess.freePort();
    int rpcPort = ControllerProcess.freePort();
    Path dir;
    try {
      dir = Files.createTempDirectory("rollgate-influxdb-");
      Files.writeString(
          dir.resolve("influxdb.conf"),
          String.join(
              "\n",
              "reporting-disabled = true",
              "bind-address = \"127.0.0.1:" + rpcPort + "\"",
              "[meta]",
              "  dir = \"" + dir.resolve("meta") + "\"",
              "[data]",
              "  dir = \"" + dir.resolve("data") + "\"",
              "  wal-dir = \"" + dir.resolve("wal") + "\"",
              "  query-log-enabled = false",
              "[http]",
              "  enabled = true",
              "  bind-address = \"127.0.0.1:" + port + "\"",
              "  flux-enabled = true",
              "  log-enabled = false",
              ""));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Process process =
        LocalServers.start(
            List.of(binary, "-config", dir.resolve("influxdb.conf").toString()),
            Map.of(),
            "influxdb-" + name + ".log");
    InfluxdbServer server = new InfluxdbServer(process, dir, port);
    try {
      LocalServers.awaitPort(process, port, "influxd (target/influxdb-" + name + ".log)");
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /**
   * The base URL, e.g. {@code http://127.0.0.1:40123}, as the {@code address} key of the {@code
   * influxdb} Secret.
   */
  public String address() {
    return "http://127.0.0.1:" + port;
  }

  /**
   * Creates a database; its default retention policy is the Flux bucket {@code <db>/autogen}.
   *
   * @param db the name
   */
  public void createDatabase(String db) {
    post(
        "/query",
        "q=" + URLEncoder.encode("CREATE DATABASE \"" + db + "\"", StandardCharsets.UTF_8),
        "application/x-www-form-urlencoded");
  }

  /**
   * Writes points in line protocol with second precision.
   *
   * @param db the database
   * @param lines for example {@code errors,service=web rate=0.5 1767225600}
   */
  public void write(String db, String lines) {
    post(
        "/write?db=" + URLEncoder.encode(db, StandardCharsets.UTF_8) + "&precision=s",
        lines,
        "text/plain");
  }

  private void post(String path, String body, String contentType) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create(address() + path))
                  .timeout(Duration.ofSeconds(30))
                  .header("Content-Type", contentType)
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() / 100 != 2) {
        throw new IllegalStateException(
            "InfluxDB " + path + " answered " + r.statusCode() + ": " + r.body());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Stops the server and deletes its data. */
  @Override
  public void close() {
    Processes.stop(process);
    LocalServers.delete(dir);
  }
}
