package io.rollgate.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The controller as users run it: {@code java -jar rollgate-controller.jar}, in its own process, so
 * a test can kill it (SIGKILL, no graceful stop) and start it again.
 *
 * <p>Unless the flags say otherwise, each process gets free {@code --metricsport} and {@code
 * --healthzPort} ports (so several controllers never collide on 8090/8080) and runs with {@code
 * --leader-elect=false}: every test class runs its own controller, and with election on they would
 * all contend for the one {@code argo-rollouts-controller-lock} Lease (a SIGKILLed predecessor
 * holds it for the 15 s lease duration). Tests of leader election pass {@code --leader-elect} and a
 * per-class {@code --leader-election-namespace} explicitly.
 */
public final class ControllerProcess implements AutoCloseable {

  private final List<String> command;
  private final Path log;
  private final int metricsPort;
  private final int healthzPort;
  private Map<String, String> environment = Map.of();
  private Process process;

  private ControllerProcess(List<String> command, Path log, int metricsPort, int healthzPort) {
    this.command = command;
    this.log = log;
    this.metricsPort = metricsPort;
    this.healthzPort = healthzPort;
  }

  /**
   * Returns a TCP port that is free right now (bound once, then released).
   *
   * @return the port
   */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Starts a controller.
   *
   * <p>The controller authenticates with the test cluster's kubeconfig unless the system property
   * {@code rollgate.controller.kubeconfig} (or the environment variable {@code
   * ROLLGATE_CONTROLLER_KUBECONFIG}) names another one, for example a ServiceAccount token's
   * kubeconfig, so that the scenarios prove the chart's RBAC sufficient while the test itself keeps
   * admin credentials.
   *
   * @param cluster the cluster
   * @param name a name for the log file ({@code target/controller-<name>.log})
   * @param extraArgs additional flags
   * @return the running process
   */
  public static ControllerProcess start(TestCluster cluster, String name, String... extraArgs) {
    return start(
        kubeconfigFor("rollgate.controller.kubeconfig", "ROLLGATE_CONTROLLER_KUBECONFIG", cluster),
        name,
        extraArgs);
  }

  /**
   * The kubeconfig a process started for the tests should use: the one named by the system property
   * or environment variable, else the test cluster's.
   *
   * @param property the system property
   * @param env the environment variable
   * @param cluster the test cluster
   * @return the kubeconfig path
   */
  static Path kubeconfigFor(String property, String env, TestCluster cluster) {
    String p = System.getProperty(property);
    if (p == null || p.isBlank()) {
      p = System.getenv(env);
    }
    return p == null || p.isBlank() ? cluster.kubeconfig() : Path.of(p);
  }

  /**
   * Starts a controller against the API server of a given kubeconfig.
   *
   * @param kubeconfig the kubeconfig file
   * @param name a name for the log file ({@code target/controller-<name>.log})
   * @param extraArgs additional flags
   * @return the running process
   */
  public static ControllerProcess start(Path kubeconfig, String name, String... extraArgs) {
    ControllerProcess p = prepare(kubeconfig, name, extraArgs);
    p.startProcess(false);
    return p;
  }

  /**
   * Starts a controller with extra environment variables (for example the AWS SDK's {@code
   * AWS_REGION} and {@code AWS_ENDPOINT_URL_CLOUDWATCH}), otherwise as {@link #start(TestCluster,
   * String, String...)}.
   *
   * @param cluster the cluster
   * @param name a name for the log file ({@code target/controller-<name>.log})
   * @param environment variables added to the test's own environment
   * @param extraArgs additional flags
   * @return the running process
   */
  public static ControllerProcess start(
      TestCluster cluster, String name, Map<String, String> environment, String... extraArgs) {
    ControllerProcess p =
        prepare(
            kubeconfigFor(
                "rollgate.controller.kubeconfig", "ROLLGATE_CONTROLLER_KUBECONFIG", cluster),
            name,
            extraArgs);
    p.environment = Map.copyOf(environment);
    p.startProcess(false);
    return p;
  }

  private static ControllerProcess prepare(Path kubeconfig, String name, String... extraArgs) {
    String jar =
        System.getProperty(
            "rollgate.controller.jar", "../controller/target/rollgate-controller.jar");
    if (!Files.exists(Path.of(jar))) {
      throw new IllegalStateException(
          "controller jar not found at " + jar + " (run mvn package first)");
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + System.getProperty("rollgate.controller.xmx", "512m"));
    cmd.add("-jar");
    cmd.add(jar);
    cmd.add("--kubeconfig");
    cmd.add(kubeconfig.toString());
    List<String> extra = List.of(extraArgs);
    int metricsPort = flagValue(extra, "--metricsport", "--metricsPort");
    if (metricsPort < 0) {
      metricsPort = freePort();
      cmd.add("--metricsport=" + metricsPort);
    }
    int healthzPort = flagValue(extra, "--healthzPort");
    if (healthzPort < 0) {
      healthzPort = freePort();
      cmd.add("--healthzPort=" + healthzPort);
    }
    if (extra.stream().noneMatch(a -> a.startsWith("--leader-elect"))) {
      cmd.add("--leader-elect=false");
    }
    cmd.addAll(extra);
    return new ControllerProcess(
        cmd, Path.of("target", "controller-" + name + ".log"), metricsPort, healthzPort);
  }

  /**
   * Starts the process; its output goes to the log, from an empty file on the first start and after
   * the earlier lines on a restart (so a test reads one history per controller, never an earlier
   * run's lines).
   */
  private void startProcess(boolean append) {
    try {
      Files.createDirectories(log.getParent());
      ProcessBuilder builder = new ProcessBuilder(command);
      builder.environment().putAll(environment);
      process =
          builder
              .redirectErrorStream(true)
              .redirectOutput(
                  append
                      ? ProcessBuilder.Redirect.appendTo(log.toFile())
                      : ProcessBuilder.Redirect.to(log.toFile()))
              .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start controller", e);
    }
  }

  private static int flagValue(List<String> args, String... names) {
    for (int i = 0; i < args.size(); i++) {
      for (String n : names) {
        if (args.get(i).equals(n) && i + 1 < args.size()) {
          return Integer.parseInt(args.get(i + 1));
        }
        if (args.get(i).startsWith(n + "=")) {
          return Integer.parseInt(args.get(i).substring(n.length() + 1));
        }
      }
    }
    return -1;
  }

  /** The port of {@code /metrics}. */
  public int metricsPort() {
    return metricsPort;
  }

  /** The port of {@code /healthz} and {@code /readyz}. */
  public int healthzPort() {
    return healthzPort;
  }

  /** The process id, or -1 when not started. */
  public long pid() {
    return process == null ? -1 : process.pid();
  }

  /**
   * Kills the process with SIGKILL, as a node failure or OOM kill would, and waits for it to be
   * gone.
   */
  public void kill() {
    Processes.kill(process);
  }

  /** Starts the process again with the same flags (after {@link #kill()}). */
  public void restart() {
    kill();
    startProcess(true);
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
    Processes.stop(process);
  }
}
