package io.rollgate.e2e.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The controller as users run it: {@code java -jar rollgate-controller.jar}, in its own process, so a test can kill it
 * (SIGKILL, no graceful stop) and start it again.
 */
public final class ControllerProcess implements AutoCloseable {

  private final List<String> command;
  private final Path log;
  private Process process;

  private ControllerProcess(List<String> command, Path log) {
    this.command = command;
    this.log = log;
  }

  /**
   * Starts a controller.
   *
   * @param cluster the cluster
   * @param name a name for the log file ({@code target/controller-<name>.log})
   * @param extraArgs additional flags
   * @return the running process
   */
  public static ControllerProcess start(TestCluster cluster, String name, String... extraArgs) {
    String jar = System.getProperty("rollgate.controller.jar", "../controller/target/rollgate-controller.jar");
    if (!Files.exists(Path.of(jar))) {
      throw new IllegalStateException("controller jar not found at " + jar + " (run mvn package first)");
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    cmd.add("-jar");
    cmd.add(jar);
    cmd.add("--kubeconfig");
    cmd.add(cluster.kubeconfig().toString());
    cmd.addAll(List.of(extraArgs));
    ControllerProcess p = new ControllerProcess(cmd, Path.of("target", "controller-" + name + ".log"));
    p.startProcess();
    return p;
  }

  private void startProcess() {
    try {
      Files.createDirectories(log.getParent());
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start controller", e);
    }
  }

  /** Kills the process with SIGKILL, as a node failure or OOM kill would, and waits for it to be gone. */
  public void kill() {
    if (process != null && process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Starts the process again with the same flags (after {@link #kill()}). */
  public void restart() {
    kill();
    startProcess();
  }

  /** Whether the process is running. */
  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** The log file. */
  public Path log() {
    return log;
  }

  /** Stops the process gracefully (SIGTERM), then forcibly after 20 s. */
  @Override
  public void close() {
    if (process != null && process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
