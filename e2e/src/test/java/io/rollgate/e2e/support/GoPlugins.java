package io.rollgate.e2e.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Argo Rollouts' Go plugins for the e2e tests, and the plugin bridge that runs them
 * (docs/plugins.md, "Go plugins of Argo Rollouts"). The bridge and upstream's test plugins ({@code
 * test/cmd/*} of the argo-rollouts module) are built and cached by {@code bridge/build}: {@code
 * bin/test} exports their paths as {@code ROLLGATE_PLUGIN_BRIDGE} and {@code
 * ROLLGATE_ARGO_PLUGINS_DIR}; without them (a single test run by Maven) the script is run here and
 * answers from its cache. Third-party plugins come prebuilt from the directory {@link #shared}
 * reads (never copied into the repository).
 */
public final class GoPlugins {

  private static Path bridge;
  private static Path pluginsDir;
  private static Path faultyStepPlugin;

  private GoPlugins() {}

  /**
   * The plugin bridge executable.
   *
   * @return its path
   */
  public static synchronized Path bridge() {
    if (bridge == null) {
      bridge = fromEnvOrBuild("ROLLGATE_PLUGIN_BRIDGE");
    }
    return bridge;
  }

  /**
   * One of upstream's test plugins, built from the argo-rollouts module.
   *
   * @param name {@code step-plugin-e2e}, {@code step-plugin-sample}, {@code metrics-plugin-sample}
   *     or {@code trafficrouter-plugin-sample}
   * @return its path
   */
  public static synchronized Path argoTestPlugin(String name) {
    if (pluginsDir == null) {
      pluginsDir = fromEnvOrBuild("ROLLGATE_ARGO_PLUGINS_DIR", "--test-plugins");
    }
    Path p = pluginsDir.resolve(name);
    if (!Files.isExecutable(p)) {
      throw new IllegalStateException("no test plugin " + name + " in " + pluginsDir);
    }
    return p;
  }

  /**
   * The project's own misbehaving step plugin ({@code bridge/cmd/faulty-step-plugin}: its step
   * config {@code {do: panic|hang|succeed}} picks what {@code Run} does). {@code bin/test} exports
   * its path as {@code ROLLGATE_FAULTY_STEP_PLUGIN}.
   *
   * @return its path
   */
  public static synchronized Path faultyStepPlugin() {
    if (faultyStepPlugin == null) {
      faultyStepPlugin = fromEnvOrBuild("ROLLGATE_FAULTY_STEP_PLUGIN", "--faulty-plugin");
    }
    return faultyStepPlugin;
  }

  /**
   * A prebuilt third-party plugin, from the directory named by {@code ROLLGATE_SHARED_PLUGINS} (or
   * the system property {@code rollgate.shared.plugins}); without either, a {@code shared/plugins}
   * directory two levels above the e2e module's working directory, outside the repository.
   *
   * @param file the file name
   * @return its path
   */
  public static Path shared(String file) {
    String dir =
        System.getProperty(
            "rollgate.shared.plugins", System.getenv().getOrDefault("ROLLGATE_SHARED_PLUGINS", ""));
    Path base = dir.isBlank() ? Path.of("..", "..", "shared", "plugins") : Path.of(dir);
    Path p = base.resolve(file).toAbsolutePath().normalize();
    if (!Files.isExecutable(p)) {
      throw new IllegalStateException(
          "prebuilt plugin not found at " + p + " (set ROLLGATE_SHARED_PLUGINS)");
    }
    return p;
  }

  /**
   * The SHA-256 of a file, for the {@code sha256} of a registration.
   *
   * @param file the file
   * @return 64 lower-case hex digits
   */
  public static String sha256(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[1 << 16];
      int n;
      while ((n = in.read(buf)) > 0) {
        md.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (IOException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("cannot hash " + file, e);
    }
  }

  private static Path fromEnvOrBuild(String env, String... args) {
    String v = System.getenv(env);
    if (v != null && !v.isBlank()) {
      return Path.of(v);
    }
    Path script = Path.of("..", "bridge", "build").toAbsolutePath().normalize();
    List<String> cmd = new java.util.ArrayList<>(List.of(script.toString()));
    cmd.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
        throw new IllegalStateException(cmd + " failed: " + out);
      }
      String last = out.substring(out.lastIndexOf('\n') + 1);
      return Path.of(last);
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + cmd, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + cmd, e);
    }
  }
}
