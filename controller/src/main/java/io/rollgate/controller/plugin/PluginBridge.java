package io.rollgate.controller.plugin;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where the plugin bridge {@code rollgate-plugin-bridge} is (docs/plugins.md, "Go plugins of Argo
 * Rollouts"): the program, built from the repository's {@code bridge/} Go module, that runs an Argo
 * Rollouts plugin binary (HashiCorp go-plugin over net/rpc) and serves it to the controller over
 * protocol v1. It is looked up, in this order, at {@code --plugin-bridge}, at the environment
 * variable {@value #ENV}, beside the controller's jar, then on {@code PATH}; the first executable
 * file wins. The lookup runs when a go-plugin binary is first met, so a bridge installed later is
 * found without a restart.
 *
 * <p>Also knows the go-plugin handshake line ({@code CORE|APP|NETWORK|ADDR|PROTOCOL[|...]}, for
 * example {@code 1|1|unix|/tmp/plugin123|netrpc|}) that such a binary prints when started with Argo
 * Rollouts' magic cookie ({@value #MAGIC_COOKIE_KEY}{@code =<kind>}).
 */
public final class PluginBridge {

  /** The bridge's file name. */
  public static final String FILE_NAME = "rollgate-plugin-bridge";

  /** Environment variable naming the bridge when {@code --plugin-bridge} is not given. */
  public static final String ENV = "ROLLGATE_PLUGIN_BRIDGE";

  /**
   * Argo Rollouts' go-plugin magic cookie key; its value is the plugin kind ({@code step}, {@code
   * trafficrouter}).
   */
  public static final String MAGIC_COOKIE_KEY = "ARGO_ROLLOUTS_RPC_PLUGIN";

  private static final Pattern GO_PLUGIN_LINE =
      Pattern.compile("^\\d+\\|\\d+\\|(tcp|unix)\\|[^|]+\\|(netrpc|grpc)(\\|.*)?$");

  private final Path flag;
  private final Map<String, String> env;
  private final Path jarDir;

  /**
   * Creates the locator.
   *
   * @param flag the {@code --plugin-bridge} value, or null
   * @param env the controller's environment ({@value #ENV}, {@code PATH})
   * @param jarDir the folder of the controller's jar, or null when not run from a jar
   */
  public PluginBridge(Path flag, Map<String, String> env, Path jarDir) {
    this.flag = flag;
    this.env = env;
    this.jarDir = jarDir;
  }

  /**
   * The locator of a running controller: its flag, its environment, the folder of its jar.
   *
   * @param flag the {@code --plugin-bridge} value, or null
   * @return the locator
   */
  public static PluginBridge ofController(Path flag) {
    Path jar = null;
    try {
      Path code =
          Path.of(PluginBridge.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      jar = Files.isRegularFile(code) ? code.getParent() : null;
    } catch (URISyntaxException | RuntimeException e) {
      jar = null;
    }
    return new PluginBridge(flag, System.getenv(), jar);
  }

  /**
   * Finds the bridge.
   *
   * @return the executable, or empty when none of the places holds one
   */
  public Optional<Path> locate() {
    for (Path p : candidates()) {
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /**
   * Where {@link #locate} looks, for messages: only the flag when it is given (an explicit path is
   * never replaced by another bridge).
   *
   * @return the places, in order
   */
  public List<Path> candidates() {
    List<Path> out = new ArrayList<>();
    if (flag != null) {
      out.add(flag);
      return out;
    }
    String fromEnv = env.get(ENV);
    if (fromEnv != null && !fromEnv.isBlank()) {
      out.add(Path.of(fromEnv));
    }
    if (jarDir != null) {
      out.add(jarDir.resolve(FILE_NAME));
    }
    String path = env.get("PATH");
    if (path != null) {
      for (String dir : path.split(File.pathSeparator)) {
        if (!dir.isBlank()) {
          out.add(Path.of(dir, FILE_NAME));
        }
      }
    }
    return out;
  }

  /**
   * Why no bridge was found, for the {@code PluginUnavailable} message.
   *
   * @return a sentence naming the flag and the places looked at
   */
  public String notFound() {
    List<Path> places = candidates();
    String where =
        places.size() > 4
            ? places.subList(0, 4) + " and " + (places.size() - 4) + " more PATH entries"
            : places.toString();
    return FILE_NAME
        + " was not found (looked at "
        + where
        + "; set --plugin-bridge or "
        + ENV
        + ")";
  }

  /**
   * Whether a line is a go-plugin handshake line ({@code CORE|APP|NETWORK|ADDR|PROTOCOL[|...]}).
   *
   * @param line a line of a plugin's standard output
   * @return true for a go-plugin handshake line
   */
  public static boolean isGoPluginHandshake(String line) {
    return line != null && GO_PLUGIN_LINE.matcher(line.trim()).matches();
  }
}
