package io.rollgate.e2e.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code helm} binary built by {@code e2e/cluster/build-helm} (or the one named by {@code
 * ROLLGATE_HELM}), run against the test cluster's kubeconfig.
 */
public final class Helm {

  private static Path binary;

  private final Path kubeconfig;

  /**
   * A helm that talks to the given cluster.
   *
   * @param kubeconfig the kubeconfig helm uses (the test's admin credentials)
   */
  public Helm(Path kubeconfig) {
    this.kubeconfig = kubeconfig;
  }

  /**
   * The outcome of one helm command.
   *
   * @param exitCode the exit code
   * @param stdout standard output
   * @param stderr standard error
   */
  public record Result(int exitCode, String stdout, String stderr) {

    /** Whether helm exited with 0. */
    public boolean ok() {
      return exitCode == 0;
    }

    /**
     * Fails unless helm exited with 0.
     *
     * @param what what was attempted, for the message
     * @return this result
     */
    public Result orFail(String what) {
      if (exitCode != 0) {
        throw new AssertionError(
            what + " failed (exit " + exitCode + "):\n" + stderr + "\n" + stdout);
      }
      return this;
    }
  }

  /** The chart directory in this repository. */
  public static Path chartDir() {
    return Path.of(System.getProperty("rollgate.chart.dir", "../charts/rollgate"))
        .toAbsolutePath()
        .normalize();
  }

  /**
   * Runs helm with the given arguments (and {@code KUBECONFIG} set to the test cluster's).
   *
   * @param args the arguments, e.g. {@code "lint", chart}
   * @return the result
   */
  public Result run(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(binary().toString());
    cmd.addAll(List.of(args));
    try {
      Path out = Files.createTempFile("helm-out", ".txt");
      Path err = Files.createTempFile("helm-err", ".txt");
      ProcessBuilder pb =
          new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
      pb.environment().put("KUBECONFIG", kubeconfig.toString());
      // Keep helm's own caches and repositories out of the user's home.
      Path home = Path.of("target", "helm-home").toAbsolutePath();
      pb.environment().put("HELM_CACHE_HOME", home.resolve("cache").toString());
      pb.environment().put("HELM_CONFIG_HOME", home.resolve("config").toString());
      pb.environment().put("HELM_DATA_HOME", home.resolve("data").toString());
      Process p = pb.start();
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new AssertionError(
            "helm " + String.join(" ", args) + " did not finish within 5 minutes");
      }
      Result r = new Result(p.exitValue(), Files.readString(out), Files.readString(err));
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
      return r;
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + cmd, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * The helm binary: {@code $ROLLGATE_HELM}, else the cached build of {@code
   * e2e/cluster/build-helm} (built on first use; the script prints the path as its last line).
   *
   * @return the binary's path
   */
  public static synchronized Path binary() {
    if (binary != null) {
      return binary;
    }
    String env = System.getenv("ROLLGATE_HELM");
    if (env != null && !env.isBlank()) {
      binary = Path.of(env);
      return binary;
    }
    Path script =
        Path.of(System.getProperty("rollgate.cluster.dir", "cluster"))
            .resolve("build-helm")
            .toAbsolutePath();
    try {
      Process p =
          new ProcessBuilder(script.toString())
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
        throw new IllegalStateException(script + " failed");
      }
      String[] lines = out.strip().split("\n");
      binary = Path.of(lines[lines.length - 1].strip());
      if (!Files.isExecutable(binary)) {
        throw new IllegalStateException(
            script + " printed " + binary + ", which is not executable");
      }
      return binary;
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + script, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
