package io.rollgate.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.awaitility.Awaitility;

/**
 * What the tests' real servers (Graphite, InfluxDB, moto) share: finding the installed program (an
 * environment variable that {@code bin/test} exports, else the install script's last output line),
 * starting a process with its output in {@code target/}, waiting for its port, and removing its
 * temporary directory.
 */
final class LocalServers {

  private LocalServers() {}

  /**
   * The path an install script prints as its last line.
   *
   * @param env the variable {@code bin/test} exports it as, read first
   * @param script the script under {@code e2e/cluster/}, run when the variable is unset (it may
   *     install, as root)
   * @return the path
   */
  static String installed(String env, String script) {
    String value = System.getenv(env);
    if (value != null && !value.isBlank()) {
      return value;
    }
    String path = Path.of("..", "e2e", "cluster", script).toAbsolutePath().normalize().toString();
    try {
      Process p = new ProcessBuilder(path).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (p.waitFor() != 0) {
        throw new IllegalStateException(path + " failed (set " + env + " to skip it)");
      }
      return out.substring(out.lastIndexOf('\n') + 1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Starts a process with its output appended to {@code target/<log>}.
   *
   * @param command the command
   * @param environment variables added to the test's environment
   * @param log the log file name under {@code target/}
   * @return the process
   */
  static Process start(List<String> command, Map<String, String> environment, String log) {
    try {
      Path file = Path.of("target", log);
      Files.createDirectories(file.getParent());
      ProcessBuilder builder = new ProcessBuilder(command);
      builder.environment().putAll(environment);
      return builder
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(file.toFile()))
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command.get(0), e);
    }
  }

  /**
   * Waits (bounded, 90 s) until a loopback port accepts connections.
   *
   * @param process the process that should listen; its exit fails the wait at once
   * @param port the port
   * @param what a name for messages, with the log to read
   */
  static void awaitPort(Process process, int port, String what) {
    Awaitility.await(what + " listening on port " + port)
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              if (!process.isAlive()) {
                throw new IllegalStateException(what + " exited with " + process.exitValue());
              }
              try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return true;
              } catch (IOException e) {
                return false;
              }
            });
  }

  /**
   * Deletes a directory tree, ignoring what cannot be deleted.
   *
   * @param dir the directory, or null
   */
  static void delete(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind is harmless
    }
  }
}
