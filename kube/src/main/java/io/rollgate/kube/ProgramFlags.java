package io.rollgate.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Checks of the command-line flags the controller and the webhook share, so that a bad value stops
 * the program at once with one line naming the flag and the reason (docs/operating.md), before any
 * connection is made.
 *
 * <p>Every check throws {@link IllegalArgumentException} whose message starts with the flag's name;
 * the programs turn it into their usage error (exit code 2).
 */
public final class ProgramFlags {

  /**
   * The log levels {@code --loglevel} accepts: the names Argo Rollouts' controller accepts (logrus
   * levels), mapped to SLF4J level names. {@code panic} and {@code fatal} log as {@code ERROR}.
   */
  private static final Map<String, String> LOG_LEVELS =
      Map.of(
          "panic", "ERROR",
          "fatal", "ERROR",
          "error", "ERROR",
          "warn", "WARN",
          "warning", "WARN",
          "info", "INFO",
          "debug", "DEBUG",
          "trace", "TRACE");

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private ProgramFlags() {}

  /**
   * Maps a {@code --loglevel} value to an SLF4J level name.
   *
   * @param flag the flag's name, for the message
   * @param value panic, fatal, error, warn, warning, info, debug or trace, in any case
   * @return ERROR, WARN, INFO, DEBUG or TRACE
   * @throws IllegalArgumentException for any other value
   */
  public static String logLevel(String flag, String value) {
    String level = value == null ? null : LOG_LEVELS.get(value.toLowerCase(Locale.ROOT));
    if (level == null) {
      throw new IllegalArgumentException(
          flag
              + " must be one of panic, fatal, error, warn, warning, info, debug, trace; got '"
              + value
              + "'");
    }
    return level;
  }

  /**
   * Checks a TCP port flag.
   *
   * @param flag the flag's name, for the message
   * @param port the value; 0 asks the operating system for a free port
   * @return {@code port}
   * @throws IllegalArgumentException when the port is outside 0..65535
   */
  public static int port(String flag, int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          flag + " must be a TCP port 0..65535 (0: any free port), got " + port);
    }
    return port;
  }

  /**
   * Checks a client-side request rate, as client-go's {@code --qps}/{@code --burst} pair.
   *
   * @param qps requests per second; must be a finite number above 0
   * @param burst requests allowed at once; at least 1
   * @throws IllegalArgumentException naming the flag at fault
   */
  public static void rate(double qps, int burst) {
    if (!(qps > 0) || Double.isInfinite(qps)) {
      throw new IllegalArgumentException(
          "--qps must be a finite number of requests per second above 0, got " + qps);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("--burst must be at least 1, got " + burst);
    }
  }

  /**
   * Reads and parses a kubeconfig file (the format of {@code kubectl config view}).
   *
   * @param flag the flag's name, for the message
   * @param path the file
   * @param complete whether the file must name a server by itself (one file); false for one of
   *     several files in {@code KUBECONFIG}, which kubectl merges, where it need only parse
   * @return the client configuration of the file's current context
   * @throws IllegalArgumentException when the path is missing, a directory, unreadable, or not a
   *     kubeconfig file; the message names the file and the reason
   */
  public static Config kubeconfig(String flag, String path, boolean complete) {
    Path location = Path.of(path);
    if (!Files.exists(location)) {
      throw new IllegalArgumentException(flag + " " + path + ": no such file");
    }
    if (Files.isDirectory(location)) {
      throw new IllegalArgumentException(flag + " " + path + ": is a directory, not a file");
    }
    String text;
    try {
      text = Files.readString(location);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          flag + " " + path + ": cannot be read (" + e.getClass().getSimpleName() + ")", e);
    }
    String prefix = flag + " " + path + ": ";
    io.fabric8.kubernetes.api.model.Config file;
    Config config;
    try {
      file = SERIALIZATION.unmarshal(text, io.fabric8.kubernetes.api.model.Config.class);
      config = Config.fromKubeconfig(null, text, path);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          prefix + "not a kubeconfig file (" + firstLine(e) + ")", e);
    }
    if (!complete) {
      return config;
    }
    // kubectl's rule: the current-context names a context, whose cluster has a server.
    String current = file == null ? null : file.getCurrentContext();
    if (current == null || current.isBlank()) {
      throw new IllegalArgumentException(prefix + "no current-context is set");
    }
    String cluster =
        file.getContexts() == null
            ? null
            : file.getContexts().stream()
                .filter(c -> current.equals(c.getName()) && c.getContext() != null)
                .map(c -> c.getContext().getCluster())
                .findFirst()
                .orElse(null);
    if (cluster == null) {
      throw new IllegalArgumentException(
          prefix + "current-context '" + current + "' is not among the contexts");
    }
    boolean hasServer =
        file.getClusters() != null
            && file.getClusters().stream()
                .anyMatch(
                    c ->
                        cluster.equals(c.getName())
                            && c.getCluster() != null
                            && c.getCluster().getServer() != null
                            && !c.getCluster().getServer().isBlank());
    if (!hasServer) {
      throw new IllegalArgumentException(
          prefix + "cluster '" + cluster + "' of context '" + current + "' has no server");
    }
    return config;
  }

  /**
   * Prints a flag error the way both programs answer one: the reason on one line, then where to
   * find the flags, instead of the whole usage text.
   *
   * @param err where the program writes errors
   * @param program the program's name, as in its usage line
   * @param message the reason, starting with the flag's name
   */
  public static void printUsageError(java.io.PrintWriter err, String program, String message) {
    err.println(program + ": " + message);
    err.println("Run '" + program + " --help' for the flags.");
    err.flush();
  }

  private static String firstLine(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (message.contains("Cannot construct instance")) {
      // Jackson's words for a document that is not a mapping at all (a plain word, a list).
      return "expected a mapping with clusters, contexts and current-context";
    }
    int newline = message.indexOf('\n');
    String line = newline < 0 ? message : message.substring(0, newline);
    return line.length() <= 160 ? line : line.substring(0, 160) + "...";
  }
}
