package io.rollgate.plugins.haproxy;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.Awaitility;

/**
 * A private, real HAProxy for tests: the {@code haproxy} binary (Debian package {@code haproxy}, or
 * the path in {@code ROLLGATE_HAPROXY_BIN}) run in the foreground with a generated configuration:
 * one HTTP frontend on a free loopback port, one round-robin backend {@code web} with the given
 * servers, and the runtime API on a unix socket and on a loopback TCP port, both at {@code level
 * admin}.
 */
public final class HaproxyProcess implements AutoCloseable {

  public static final String BACKEND = "web";

  private final Process process;
  private final Path dir;
  private final int frontendPort;
  private final int apiPort;
  private final Path log;
  private final Thread shutdownHook;

  private HaproxyProcess(Process process, Path dir, int frontendPort, int apiPort, Path log) {
    this.process = process;
    this.dir = dir;
    this.frontendPort = frontendPort;
    this.apiPort = apiPort;
    this.log = log;
    this.shutdownHook = new Thread(process::destroyForcibly, "haproxy-stop");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts HAProxy and waits (bounded) until its runtime API answers.
   *
   * @param name a name for the log file ({@code target/haproxy-<name>.log})
   * @param servers server name to its loopback port and initial weight, e.g. {@code stable ->
   *     [port, 100]}
   */
  public static HaproxyProcess start(String name, Map<String, int[]> servers) {
    String binary = binary();
    int frontend = freePort();
    int api = freePort();
    try {
      Path dir = Files.createTempDirectory("rollgate-haproxy-");
      Path config = dir.resolve("haproxy.cfg");
      String serverLines =
          servers.entrySet().stream()
              .map(
                  e ->
                      "  server "
                          + e.getKey()
                          + " 127.0.0.1:"
                          + e.getValue()[0]
                          + " weight "
                          + e.getValue()[1])
              .collect(Collectors.joining("\n"));
      Files.writeString(
          config,
          String.join(
              "\n",
              "global",
              "  maxconn 256",
              "  stats socket " + dir.resolve("admin.sock") + " mode 600 level admin",
              "  stats socket ipv4@127.0.0.1:" + api + " level admin",
              "defaults",
              "  mode http",
              "  timeout connect 2s",
              "  timeout client 10s",
              "  timeout server 10s",
              "frontend fe",
              "  bind 127.0.0.1:" + frontend,
              "  default_backend " + BACKEND,
              "backend " + BACKEND,
              "  balance roundrobin",
              serverLines,
              ""));
      Path log = Path.of("target", "haproxy-" + name + ".log").toAbsolutePath();
      Files.createDirectories(log.getParent());
      Process process =
          new ProcessBuilder(binary, "-db", "-f", config.toString())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      HaproxyProcess haproxy = new HaproxyProcess(process, dir, frontend, api, log);
      try {
        Awaitility.await("HAProxy runtime API ready (log: " + log + ")")
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(100))
            .until(
                () -> {
                  if (!process.isAlive()) {
                    throw new IllegalStateException(
                        "HAProxy exited with " + process.exitValue() + ", see " + log);
                  }
                  return haproxy.tryCommand("show info") != null;
                });
      } catch (RuntimeException e) {
        haproxy.close();
        throw e;
      }
      return haproxy;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start HAProxy (" + binary + ")", e);
    }
  }

  static String binary() {
    String env = System.getenv("ROLLGATE_HAPROXY_BIN");
    if (env != null && !env.isBlank()) {
      return env;
    }
    String path =
        System.getenv().getOrDefault("PATH", "/usr/bin") + File.pathSeparator + "/usr/sbin";
    for (String d : path.split(File.pathSeparator)) {
      Path candidate = Path.of(d, "haproxy");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new IllegalStateException(
        "the haproxy binary is needed by the HAProxy router tests: apt-get install haproxy (e2e/cluster/install-haproxy "
            + "does), or set ROLLGATE_HAPROXY_BIN");
  }

  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The runtime API's unix socket path. */
  public String socketPath() {
    return dir.resolve("admin.sock").toString();
  }

  /** The runtime API's TCP address, {@code 127.0.0.1:<port>}. */
  public String tcpAddress() {
    return "127.0.0.1:" + apiPort;
  }

  /** The frontend's base URL. */
  public String frontendUrl() {
    return "http://127.0.0.1:" + frontendPort + "/";
  }

  /**
   * Runs a runtime API command over the unix socket, as an operator would with socat.
   *
   * @return the answer
   */
  public String command(String command) {
    String answer = tryCommand(command);
    if (answer == null) {
      throw new IllegalStateException(
          "HAProxy runtime API did not answer " + command + ", see " + log);
    }
    return answer;
  }

  private String tryCommand(String command) {
    Path socket = dir.resolve("admin.sock");
    if (!Files.exists(socket)) {
      return null;
    }
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(socket));
      channel.write(ByteBuffer.wrap((command + "\n").getBytes(StandardCharsets.UTF_8)));
      try (InputStream in = Channels.newInputStream(channel)) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      return null;
    }
  }

  /** Stops HAProxy and deletes its configuration and socket. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
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
