package io.rollgate.plugin.sdk;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Turns protocol v1 request bodies into calls of a {@link StepPlugin} or {@link
 * TrafficRouterPlugin} and their results into answer bodies (docs/plugins.md, "Requests"). The HTTP
 * server ({@link PluginServer}) and the controller's in-process plugins both use it, so a plugin
 * sees the same objects whichever way it runs.
 *
 * <p>A plugin that fails its Future, or throws, answers {@code {"error": "<message>"}} (a plugin
 * error). A body that cannot be read fails the returned Future with {@link BadRequestException}.
 */
public final class PluginDispatcher {

  private static final ObjectMapper JSON = ModelJson.mapper();

  private final String kind;
  private final StepPlugin step;
  private final TrafficRouterPlugin router;
  private boolean initialised;

  private PluginDispatcher(String kind, StepPlugin step, TrafficRouterPlugin router) {
    this.kind = kind;
    this.step = step;
    this.router = router;
  }

  /**
   * A dispatcher for a step plugin.
   *
   * @param plugin the plugin
   * @return the dispatcher, kind {@code step}
   */
  public static PluginDispatcher of(StepPlugin plugin) {
    return new PluginDispatcher(PluginProtocol.KIND_STEP, plugin, null);
  }

  /**
   * A dispatcher for a traffic-router plugin.
   *
   * @param plugin the plugin
   * @return the dispatcher, kind {@code trafficrouter}
   */
  public static PluginDispatcher of(TrafficRouterPlugin plugin) {
    return new PluginDispatcher(PluginProtocol.KIND_TRAFFIC_ROUTER, null, plugin);
  }

  /**
   * A dispatcher for a plugin object of either kind.
   *
   * @param plugin a {@link StepPlugin} or a {@link TrafficRouterPlugin}
   * @return the dispatcher
   * @throws IllegalArgumentException when the object implements neither interface
   */
  public static PluginDispatcher forPlugin(Object plugin) {
    if (plugin instanceof StepPlugin s) {
      return of(s);
    }
    if (plugin instanceof TrafficRouterPlugin r) {
      return of(r);
    }
    throw new IllegalArgumentException(
        plugin.getClass().getName() + " implements neither StepPlugin nor TrafficRouterPlugin");
  }

  /**
   * The plugin kind.
   *
   * @return {@code step} or {@code trafficrouter}
   */
  public String kind() {
    return kind;
  }

  /**
   * Handles one call.
   *
   * @param path the protocol path relative to {@code /v1/}, for example {@code step/run} or {@code
   *     init}
   * @param body the request body (null counts as {@code {}})
   * @return the answer body; fails with {@link BadRequestException} for an unknown path or
   *     unreadable body
   */
  public Future<JsonNode> handle(String path, JsonNode body) {
    JsonNode b = body == null || body.isNull() ? JSON.createObjectNode() : body;
    try {
      switch (path) {
        case "init":
          return safely(() -> step != null ? step.init() : router.init())
              .map(
                  v -> {
                    initialised = true;
                    return (JsonNode) errorAnswer("");
                  })
              .recover(err -> Future.succeededFuture(errorAnswer(message(err))));
        case "info":
          return Future.succeededFuture(info());
        default:
          break;
      }
      if (step != null && path.startsWith("step/")) {
        return stepCall(path, b);
      }
      if (router != null && path.startsWith("trafficrouter/")) {
        return routerCall(path, b);
      }
      return Future.failedFuture(
          new BadRequestException("unknown call " + path + " for a " + kind + " plugin"));
    } catch (BadRequestException e) {
      return Future.failedFuture(e);
    }
  }

  /**
   * Whether {@code init} has succeeded at least once.
   *
   * @return true after a successful {@code init}
   */
  public boolean initialised() {
    return initialised;
  }

  private JsonNode info() {
    ObjectNode o = JSON.createObjectNode();
    o.put("type", step != null ? step.type() : router.type());
    JsonNode schema = step != null ? step.configSchema() : router.configSchema();
    o.set("configSchema", schema == null ? NullNode.getInstance() : schema);
    return o;
  }

  private Future<JsonNode> stepCall(String path, JsonNode b) {
    Rollout rollout = rollout(b);
    JsonNode c = b.path("context");
    if (!c.isObject()) {
      throw new BadRequestException("context: must be an object");
    }
    StepContext ctx =
        new StepContext(
            c.path("pluginName").asText(null),
            c.path("stepIndex").asInt(0),
            nullToNull(c.get("config")),
            nullToNull(c.get("status")));
    Function<StepPlugin, Future<StepResult>> call =
        switch (path) {
          case "step/run" -> p -> p.run(rollout, ctx);
          case "step/terminate" -> p -> p.terminate(rollout, ctx);
          case "step/abort" -> p -> p.abort(rollout, ctx);
          default -> throw new BadRequestException("unknown call " + path + " for a step plugin");
        };
    return safely(() -> call.apply(step))
        .map(PluginDispatcher::stepAnswer)
        .recover(err -> Future.succeededFuture(errorAnswer(message(err))));
  }

  private Future<JsonNode> routerCall(String path, JsonNode b) {
    Rollout rollout = rollout(b);
    Future<?> result =
        switch (path) {
          case "trafficrouter/updateHash" ->
              safely(
                  () ->
                      router.updateHash(
                          rollout,
                          b.path("canaryHash").asText(null),
                          b.path("stableHash").asText(null),
                          destinations(b)));
          case "trafficrouter/setWeight" ->
              safely(() -> router.setWeight(rollout, weight(b), destinations(b)));
          case "trafficrouter/setHeaderRoute" ->
              safely(
                  () ->
                      router.setHeaderRoute(
                          rollout,
                          read(b.get("headerRoute"), SetHeaderRoute.class, "headerRoute")));
          case "trafficrouter/setMirrorRoute" ->
              safely(
                  () ->
                      router.setMirrorRoute(
                          rollout,
                          read(b.get("mirrorRoute"), SetMirrorRoute.class, "mirrorRoute")));
          case "trafficrouter/verifyWeight" ->
              safely(() -> router.verifyWeight(rollout, weight(b), destinations(b)));
          case "trafficrouter/removeManagedRoutes" ->
              safely(() -> router.removeManagedRoutes(rollout));
          default ->
              throw new BadRequestException(
                  "unknown call " + path + " for a traffic-router plugin");
        };
    boolean verify = path.equals("trafficrouter/verifyWeight");
    return result
        .map(
            v -> {
              ObjectNode o = errorAnswer("");
              if (verify) {
                o.set(
                    "verified",
                    v == null
                        ? NullNode.getInstance()
                        : JSON.getNodeFactory().booleanNode((Boolean) v));
              }
              return (JsonNode) o;
            })
        .recover(err -> Future.succeededFuture(errorAnswer(message(err))));
  }

  private static int weight(JsonNode b) {
    JsonNode w = b.get("desiredWeight");
    if (w == null || !w.canConvertToInt()) {
      throw new BadRequestException("desiredWeight: must be an integer");
    }
    return w.asInt();
  }

  private static List<WeightDestination> destinations(JsonNode b) {
    JsonNode a = b.get("additionalDestinations");
    List<WeightDestination> list = new ArrayList<>();
    if (a == null || a.isNull()) {
      return list;
    }
    if (!a.isArray()) {
      throw new BadRequestException("additionalDestinations: must be a list");
    }
    for (JsonNode d : a) {
      list.add(read(d, WeightDestination.class, "additionalDestinations[]"));
    }
    return list;
  }

  private static Rollout rollout(JsonNode b) {
    JsonNode r = b.get("rollout");
    if (r == null || !r.isObject()) {
      throw new BadRequestException("rollout: must be an object");
    }
    return read(r, Rollout.class, "rollout");
  }

  private static <T> T read(JsonNode n, Class<T> type, String field) {
    if (n == null || n.isNull()) {
      return null;
    }
    try {
      return JSON.treeToValue(n, type);
    } catch (JsonProcessingException e) {
      throw new BadRequestException(field + ": " + e.getOriginalMessage());
    } catch (IllegalArgumentException e) {
      throw new BadRequestException(field + ": " + e.getMessage());
    }
  }

  private static JsonNode nullToNull(JsonNode n) {
    return n == null || n.isNull() ? null : n;
  }

  /**
   * Encodes a step result as an answer body.
   *
   * @param r the result (null counts as an empty answer)
   * @return {@code {"phase", "message", "requeueAfterSeconds", "status", "error"}}
   */
  public static JsonNode stepAnswer(StepResult r) {
    ObjectNode o = JSON.createObjectNode();
    if (r == null) {
      o.put("error", "");
      return o;
    }
    o.put("phase", r.phase() == null ? "" : r.phase().name());
    o.put("message", r.message() == null ? "" : r.message());
    if (r.requeueAfterSeconds() != null) {
      o.put("requeueAfterSeconds", r.requeueAfterSeconds());
    }
    o.set("status", r.status() == null ? NullNode.getInstance() : r.status());
    o.put("error", r.error() == null ? "" : r.error());
    return o;
  }

  private static ObjectNode errorAnswer(String error) {
    ObjectNode o = JSON.createObjectNode();
    o.put("error", error);
    return o;
  }

  private static String message(Throwable err) {
    String m = err.getMessage();
    return m == null || m.isEmpty() ? err.getClass().getSimpleName() : m;
  }

  private static <T> Future<T> safely(java.util.function.Supplier<Future<T>> call) {
    try {
      Future<T> f = call.get();
      return f == null ? Future.failedFuture("the plugin returned no Future") : f;
    } catch (BadRequestException e) {
      throw e;
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  /** A request the plugin cannot read: unknown path or malformed body (HTTP 400 / 404). */
  public static final class BadRequestException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong, naming the field
     */
    public BadRequestException(String message) {
      super(message);
    }
  }
}
