package io.rollgate.e2e.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One process of the local control plane (etcd, kube-apiserver, ...), as {@code e2e/cluster/up}
 * started it through kwokctl's binary runtime: found by its pid file under {@code <control-plane
 * root>/kwok/clusters/<cluster>/pids/}. The fault tests kill it with SIGKILL and start it again
 * later with the same command line, environment and working directory, appending to the same log,
 * and write the new pid to the pid file so that {@code e2e/cluster/down} stops the new process.
 * Only the local control plane has such processes: on another cluster {@link #find} finds none.
 */
public final class ControlPlaneComponent {

  private final String name;
  private final Path pidFile;
  private final Path logFile;
  private List<String> command;
  private Map<String, String> environment;
  private Path workingDir;

  private ControlPlaneComponent(String name, Path pidFile, Path logFile) {
    this.name = name;
    this.pidFile = pidFile;
    this.logFile = logFile;
  }

  /**
   * Finds a component of the cluster the tests run on.
   *
   * @param cluster the test cluster
   * @param name the component, as kwokctl names it ({@code kube-apiserver}, {@code etcd})
   * @return the component, or empty when the cluster is not the local control plane
   */
  public static Optional<ControlPlaneComponent> find(TestCluster cluster, String name) {
    Path kubeconfig = cluster.kubeconfig().toAbsolutePath();
    String file = kubeconfig.getFileName().toString();
    String clusterName =
        file.equals("kubeconfig")
            ? "rollgate"
            : file.startsWith("kubeconfig-") ? file.substring(11) : null;
    if (clusterName == null) {
      return Optional.empty();
    }
    Path dir = kubeconfig.getParent().resolve("kwok").resolve("clusters").resolve(clusterName);
    Path pid = dir.resolve("pids").resolve(name + ".pid");
    if (!Files.isRegularFile(pid)) {
      return Optional.empty();
    }
    ControlPlaneComponent c =
        new ControlPlaneComponent(name, pid, dir.resolve("logs").resolve(name + ".log"));
    c.capture();
    return Optional.of(c);
  }

  /**
   * Every component of the local control plane (the pid files kwokctl wrote), each with how it was
   * started.
   *
   * @param cluster the test cluster
   * @return the components, empty when the cluster is not the local control plane
   */
  public static List<ControlPlaneComponent> all(TestCluster cluster) {
    Optional<ControlPlaneComponent> api = find(cluster, "kube-apiserver");
    if (api.isEmpty()) {
      return List.of();
    }
    List<ControlPlaneComponent> out = new ArrayList<>();
    try (var files = Files.list(api.get().pidFile.getParent())) {
      for (Path f : files.sorted().toList()) {
        String file = f.getFileName().toString();
        if (file.endsWith(".pid")) {
          find(cluster, file.substring(0, file.length() - 4)).ifPresent(out::add);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  /** The component's current pid, from its pid file. */
  public long pid() {
    try {
      return Long.parseLong(Files.readString(pidFile).trim());
    } catch (IOException | NumberFormatException e) {
      throw new IllegalStateException("cannot read " + pidFile, e);
    }
  }

  /** Whether the process of the pid file is running. */
  public boolean isAlive() {
    return ProcessHandle.of(pid()).map(ProcessHandle::isAlive).orElse(false);
  }

  /**
   * Starts the component again when it has died (as a kubelet restarts a static pod):
   * kube-controller-manager and kube-scheduler exit by design when they cannot renew their leader
   * lease during an API server outage.
   *
   * @return whether it had to be started
   */
  public boolean ensureRunning() {
    if (isAlive()) {
      return false;
    }
    start();
    return true;
  }

  private void capture() {
    long pid = pid();
    Path proc = Path.of("/proc", String.valueOf(pid));
    try {
      command = split(Files.readAllBytes(proc.resolve("cmdline")));
      environment = new LinkedHashMap<>();
      for (String kv : split(Files.readAllBytes(proc.resolve("environ")))) {
        int eq = kv.indexOf('=');
        if (eq > 0) {
          environment.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
      }
      workingDir = Files.readSymbolicLink(proc.resolve("cwd"));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read how " + name + " was started from " + proc, e);
    }
  }

  /**
   * Kills the component with SIGKILL and waits until it is gone.
   *
   * @throws IllegalStateException when it is not running or does not die within 10 s
   */
  public void kill() {
    long pid = pid();
    ProcessHandle handle =
        ProcessHandle.of(pid)
            .orElseThrow(
                () -> new IllegalStateException(name + " (pid " + pid + ") is not running"));
    handle.destroyForcibly();
    try {
      handle.onExit().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(name + " (pid " + pid + ") did not die after SIGKILL", e);
    }
  }

  /**
   * Starts the component again as it was first started, and records its new pid.
   *
   * @throws IllegalStateException when it cannot be started or exits within a second
   */
  public void start() {
    if (command == null) {
      throw new IllegalStateException(name + ": command line unknown");
    }
    ProcessBuilder pb = new ProcessBuilder(command).directory(workingDir.toFile());
    pb.environment().clear();
    pb.environment().putAll(environment);
    pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    pb.redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
    pb.redirectErrorStream(true);
    try {
      Process p = pb.start();
      Files.writeString(pidFile, String.valueOf(p.pid()));
      if (p.waitFor(1, TimeUnit.SECONDS)) {
        throw new IllegalStateException(
            name + " exited at once with " + p.exitValue() + "; see " + logFile);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot start " + name + ": " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The component's name. */
  public String name() {
    return name;
  }

  private static List<String> split(byte[] nulSeparated) {
    List<String> out = new ArrayList<>();
    String all = new String(nulSeparated, StandardCharsets.UTF_8);
    out.addAll(Arrays.asList(all.split("\0")));
    out.removeIf(String::isEmpty);
    return out;
  }
}
