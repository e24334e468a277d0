package io.rollgate.plugins.haproxy;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.rollgate.plugin.sdk.PluginProtocol;
import io.rollgate.plugin.sdk.TrafficRouterPlugin;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HAProxy traffic router: moves traffic between a backend's stable and canary servers by
 * setting their weights through HAProxy's runtime API ({@code set weight <backend>/<server>
 * <weight>}), and verifies the weights by reading them back ({@code get weight}). Configured by
 * {@code spec.strategy.canary.trafficRouting.plugins["<org>/haproxy"]} (see {@link
 * HaproxyRouterConfig}); docs/compatibility.md §11 gives the call semantics.
 *
 * <p>What each call does:
 *
 * <ul>
 *   <li>{@code setWeight}: canary server = desired weight, stable server = {@code maxTrafficWeight}
 *       − desired − Σ additional, each additional destination's server its weight (see {@link
 *       ServerWeights}). Weights above 0 are written first, so the backend never has all its
 *       servers at weight 0 in between.
 *   <li>{@code verifyWeight}: true when every server's current weight is the one {@code setWeight}
 *       writes; false otherwise (for example after HAProxy was reloaded with its configured
 *       weights; the next reconcile writes them again).
 *   <li>{@code updateHash}: nothing to do: the servers reach the stable and canary Services, which
 *       Rollgate points at the right ReplicaSets; the configuration is still checked.
 *   <li>{@code setHeaderRoute} and {@code setMirrorRoute}: HAProxy's runtime API cannot add routing
 *       rules, so a route with a {@code match} is a plugin error naming the step (a user who asks
 *       for a header route must not get a silent weight-only canary); removing a route (no {@code
 *       match}) succeeds, as there is none.
 *   <li>{@code removeManagedRoutes}: nothing to remove; succeeds.
 * </ul>
 *
 * <p>Every call checks the configuration first and fails with the field path and the reason when it
 * is invalid.
 */
public final class HaproxyTrafficRouterPlugin implements TrafficRouterPlugin, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HaproxyTrafficRouterPlugin.class);
  private static final Pattern WEIGHT_ANSWER = Pattern.compile("(\\d+) \\(initial (\\d+)\\)");

  private final Vertx vertx;
  private final String pluginName;

  /** The weights last written per runtime API and backend, so that only changes are logged. */
  private final Map<String, Map<String, Integer>> lastWritten = new ConcurrentHashMap<>();

  private HaproxyRuntimeApi api;

  /**
   * Creates the plugin for {@code location:
   * java:io.rollgate.plugins.haproxy.HaproxyTrafficRouterPlugin} (loaded with {@link
   * java.util.ServiceLoader}): the registered name comes from {@code ROLLGATE_PLUGIN_NAME} when
   * set, else each Rollout's single {@code <org>/haproxy} entry is used; connections run on the
   * caller's Vert.x instance.
   */
  public HaproxyTrafficRouterPlugin() {
    this(null, System.getenv(PluginProtocol.ENV_NAME));
  }

  /**
   * Creates the plugin.
   *
   * @param vertx the Vert.x instance for the runtime API connections, or null to use the one whose
   *     context makes the first call (the plugin server's, or the controller's for an in-process
   *     plugin)
   * @param pluginName the registered name {@code <org>/<name>} (the {@code ROLLGATE_PLUGIN_NAME}
   *     the controller passes), or null to use the single {@code <org>/haproxy} entry of each
   *     Rollout
   */
  public HaproxyTrafficRouterPlugin(Vertx vertx, String pluginName) {
    this.vertx = vertx;
    this.pluginName = pluginName == null || pluginName.isBlank() ? null : pluginName;
  }

  private synchronized HaproxyRuntimeApi api() {
    if (api == null) {
      Vertx owner = vertx;
      if (owner == null) {
        Context context = Vertx.currentContext();
        if (context == null) {
          throw new IllegalStateException("the HAProxy router must be called on a Vert.x context");
        }
        owner = context.owner();
      }
      api = new HaproxyRuntimeApi(owner);
    }
    return api;
  }

  @Override
  public String type() {
    return "haproxy";
  }

  @Override
  public JsonNode configSchema() {
    try (InputStream in =
        HaproxyTrafficRouterPlugin.class.getResourceAsStream("config-schema.json")) {
      return ModelJson.mapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the HAProxy router's configuration schema", e);
    }
  }

  @Override
  public Future<Void> updateHash(
      Rollout rollout, String canaryHash, String stableHash, List<WeightDestination> additional) {
    return config(rollout).mapEmpty();
  }

  @Override
  public Future<Void> setWeight(
      Rollout rollout, int desiredWeight, List<WeightDestination> additional) {
    return config(rollout)
        .compose(
            config -> {
              ServerWeights weights;
              try {
                weights = ServerWeights.compute(config, rollout, desiredWeight, additional);
              } catch (IllegalArgumentException e) {
                return Future.failedFuture(e.getMessage());
              }
              List<Map.Entry<String, Integer>> order =
                  new ArrayList<>(weights.weights().entrySet());
              order.sort((a, b) -> Boolean.compare(a.getValue() == 0, b.getValue() == 0));
              Future<Void> chain = Future.succeededFuture();
              for (Map.Entry<String, Integer> e : order) {
                chain = chain.compose(v -> setServerWeight(config, e.getKey(), e.getValue()));
              }
              String key = config.runtimeApi() + " " + config.backend();
              return chain.onSuccess(
                  v -> {
                    if (!weights.weights().equals(lastWritten.put(key, weights.weights()))) {
                      LOG.info(
                          "rollout={} canary weight {}: backend {} at {} now has weights {}",
                          rolloutName(rollout),
                          desiredWeight,
                          config.backend(),
                          config.runtimeApi(),
                          weights.weights());
                    }
                  });
            });
  }

  @Override
  public Future<Void> setHeaderRoute(Rollout rollout, SetHeaderRoute route) {
    return unsupportedRoute(
        rollout,
        route == null ? null : route.getName(),
        route == null ? null : route.getMatch(),
        "header",
        "setHeaderRoute");
  }

  @Override
  public Future<Void> setMirrorRoute(Rollout rollout, SetMirrorRoute route) {
    return unsupportedRoute(
        rollout,
        route == null ? null : route.getName(),
        route == null ? null : route.getMatch(),
        "mirror",
        "setMirrorRoute");
  }

  /**
   * A header or mirror route: a route without a match (removing it) is a no-op, one with a match is
   * an error, as HAProxy's runtime API cannot add routing rules. The Rollout's config is checked
   * either way.
   */
  private Future<Void> unsupportedRoute(
      Rollout rollout, String name, List<?> match, String what, String step) {
    return config(rollout)
        .compose(
            config -> {
              if (match == null || match.isEmpty()) {
                return Future.succeededFuture();
              }
              return Future.failedFuture(
                  "the HAProxy traffic router does not support "
                      + what
                      + " routes ("
                      + step
                      + " "
                      + name(name)
                      + "): HAProxy's runtime API cannot add routing rules; remove the "
                      + step
                      + " step or use a router "
                      + "that supports it");
            });
  }

  @Override
  public Future<Boolean> verifyWeight(
      Rollout rollout, int desiredWeight, List<WeightDestination> additional) {
    return config(rollout)
        .compose(
            config -> {
              ServerWeights weights;
              try {
                weights = ServerWeights.compute(config, rollout, desiredWeight, additional);
              } catch (IllegalArgumentException e) {
                return Future.failedFuture(e.getMessage());
              }
              List<Future<Boolean>> checks = new ArrayList<>();
              weights
                  .weights()
                  .forEach(
                      (server, weight) ->
                          checks.add(
                              currentWeight(config, server)
                                  .map(current -> weight.equals(current))));
              return Future.all(checks).map(all -> checks.stream().allMatch(Future::result));
            });
  }

  @Override
  public Future<Void> removeManagedRoutes(Rollout rollout) {
    return config(rollout).mapEmpty();
  }

  /**
   * Reads a server's current weight from HAProxy ({@code get weight <backend>/<server>}).
   *
   * @param config the configuration (address, backend, timeout)
   * @param server the server's name in the backend
   * @return a Future with the current weight (0 to 256); it fails when HAProxy does not know the
   *     backend or server, or cannot be reached
   */
  public Future<Integer> currentWeight(HaproxyRouterConfig config, String server) {
    String command = "get weight " + config.backend() + "/" + server;
    return execute(config, command)
        .compose(
            answer -> {
              String text = answer.strip();
              Matcher m = WEIGHT_ANSWER.matcher(text);
              if (m.matches()) {
                return Future.succeededFuture(Integer.parseInt(m.group(1)));
              }
              return Future.failedFuture(refusal(config, server, command, text));
            });
  }

  private Future<Void> setServerWeight(HaproxyRouterConfig config, String server, int weight) {
    String command = "set weight " + config.backend() + "/" + server + " " + weight;
    return execute(config, command)
        .compose(
            answer -> {
              String text = answer.strip();
              return text.isEmpty()
                  ? Future.succeededFuture()
                  : Future.failedFuture(refusal(config, server, command, text));
            });
  }

  private Future<String> execute(HaproxyRouterConfig config, String command) {
    try {
      return api().execute(config.runtimeApi(), command, config.timeout());
    } catch (IllegalStateException e) {
      return Future.failedFuture(e.getMessage());
    }
  }

  private static String refusal(
      HaproxyRouterConfig config, String server, String command, String answer) {
    if (answer.startsWith("No such backend")) {
      return "HAProxy at "
          + config.runtimeApi()
          + " has no backend \""
          + config.backend()
          + "\" ("
          + config.field()
          + ".backend)";
    }
    if (answer.startsWith("No such server")) {
      return "HAProxy backend \""
          + config.backend()
          + "\" at "
          + config.runtimeApi()
          + " has no server \""
          + server
          + "\" ("
          + config.field()
          + "."
          + serverField(config, server)
          + ")";
    }
    if (answer.startsWith("Permission denied")) {
      return "HAProxy at "
          + config.runtimeApi()
          + " refused `"
          + command
          + "`: permission denied (the stats socket "
          + "needs `level admin`)";
    }
    return "HAProxy at "
        + config.runtimeApi()
        + " refused `"
        + command
        + "`: "
        + answer.replace('\n', ' ');
  }

  private static String serverField(HaproxyRouterConfig config, String server) {
    if (server.equals(config.stableServer())) {
      return "stableServer";
    }
    if (server.equals(config.canaryServer())) {
      return "canaryServer";
    }
    for (Map.Entry<String, String> e : config.additionalServers().entrySet()) {
      if (e.getValue().equals(server)) {
        return "additionalServers." + e.getKey();
      }
    }
    return "additionalServers";
  }

  private Future<HaproxyRouterConfig> config(Rollout rollout) {
    try {
      return Future.succeededFuture(HaproxyRouterConfig.fromRollout(rollout, pluginName));
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e.getMessage());
    }
  }

  private static String rolloutName(Rollout rollout) {
    return rollout.getMetadata() == null
        ? "?"
        : rollout.getMetadata().getNamespace() + "/" + rollout.getMetadata().getName();
  }

  private static String name(String routeName) {
    return routeName == null ? "(unnamed)" : "\"" + routeName + "\"";
  }

  /** Closes the runtime API client. */
  @Override
  public synchronized void close() {
    if (api != null) {
      api.close();
      api = null;
    }
  }
}
