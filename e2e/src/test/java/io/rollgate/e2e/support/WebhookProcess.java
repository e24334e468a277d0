package io.rollgate.e2e.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The admission webhook as users run it locally: {@code java -jar rollgate-webhook.jar}, in its own
 * process, so a test can stop it and start it again.
 */
public final class WebhookProcess implements AutoCloseable {

  private final List<String> command;
  private final Path log;
  private Process process;

  private WebhookProcess(List<String> command, Path log) {
    this.command = command;
    this.log = log;
  }

  /**
   * Starts a webhook.
   *
   * <p>It authenticates with the test cluster's kubeconfig unless the system property {@code
   * rollgate.webhook.kubeconfig} (or the environment variable {@code ROLLGATE_WEBHOOK_KUBECONFIG})
   * names another one, for example a ServiceAccount token's kubeconfig.
   *
   * @param cluster the cluster
   * @param name a name for the log file ({@code target/webhook-<name>.log})
   * @param args the webhook's flags (besides {@code --kubeconfig})
   * @return the running process
   */
  public static WebhookProcess start(TestCluster cluster, String name, String... args) {
    String jar =
        System.getProperty("rollgate.webhook.jar", "../webhook/target/rollgate-webhook.jar");
    if (!Files.exists(Path.of(jar))) {
      throw new IllegalStateException(
          "webhook jar not found at " + jar + " (run mvn package first)");
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-jar");
    cmd.add(jar);
    cmd.add("--kubeconfig");
    cmd.add(
        ControllerProcess.kubeconfigFor(
                "rollgate.webhook.kubeconfig", "ROLLGATE_WEBHOOK_KUBECONFIG", cluster)
            .toString());
    cmd.addAll(List.of(args));
    WebhookProcess p = new WebhookProcess(cmd, Path.of("target", "webhook-" + name + ".log"));
    p.startProcess(false);
    return p;
  }

  /**
   * A free TCP port on the loopback interface.
   *
   * @return the port
   */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port", e);
    }
  }

  /**
   * Starts the process; its log starts empty on the first start and keeps the earlier lines on a
   * restart.
   */
  private void startProcess(boolean append) {
    try {
      Files.createDirectories(log.getParent());
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(
                  append
                      ? ProcessBuilder.Redirect.appendTo(log.toFile())
                      : ProcessBuilder.Redirect.to(log.toFile()))
              .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start webhook", e);
    }
  }

  /** Starts the process again with the same flags (after {@link #close()}). */
  public void restart() {
    close();
    startProcess(true);
  }

  /** Whether the process is running. */
  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** The process id of the running process. */
  public long pid() {
    return process.pid();
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
