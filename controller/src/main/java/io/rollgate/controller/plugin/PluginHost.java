package io.rollgate.controller.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.Rollout;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.metrics.ControllerMetrics;
import io.rollgate.controller.traffic.TrafficRouter;
import io.rollgate.plugin.PluginEntry;
import io.rollgate.plugin.PluginKind;
import io.rollgate.plugin.PluginRegistry;
import io.rollgate.plugin.sdk.PluginProtocol;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's plugin host (docs/plugins.md): holds the registry read from {@code
 * argo-rollouts-config}, one {@link PluginInstance} per registered plugin in use (executable,
 * endpoint or in-process, created on first call), and makes every call: bounded by {@code
 * --plugin-call-timeout}, counted in {@code rollgate_plugin_calls_total} and {@code
 * rollgate_plugin_call_duration_seconds}, written to the audit log (logger {@code
 * io.rollgate.plugin.audit}: Rollout, step, call, outcome, duration; never bodies, which may carry
 * secrets), and, when the plugin cannot be fetched, verified or started, recorded as a Warning
 * event {@value #EVENT_UNAVAILABLE} on the Rollout.
 *
 * <p>A registry change closes (kills) the instances whose registration changed or disappeared; the
 * next call starts the new registration. All state lives on one Vert.x context; the public methods
 * may be called from any thread.
 */
public final class PluginHost {

  /** The protocol kind of step plugins. */
  public static final String KIND_STEP = PluginProtocol.KIND_STEP;

  /** The protocol kind of traffic-router plugins. */
  public static final String KIND_TRAFFIC_ROUTER = PluginProtocol.KIND_TRAFFIC_ROUTER;

  /** The protocol kind of metric-provider plugins. */
  public static final String KIND_METRIC_PROVIDER = PluginProtocol.KIND_METRIC_PROVIDER;

  /** The reason of the Warning event recorded on a Rollout whose plugin is unavailable. */
  public static final String EVENT_UNAVAILABLE = "PluginUnavailable";

  private static final Logger LOG = LoggerFactory.getLogger(PluginHost.class);
  private static final Logger AUDIT = LoggerFactory.getLogger("io.rollgate.plugin.audit");

  private final Vertx vertx;
  private final Context context;
  private final Duration callTimeout;
  private volatile java.util.function.BooleanSupplier callAllowed = () -> true;
  private final Duration handshakeTimeout;
  private final String where;
  private final EventRecorder events;
  private final ControllerMetrics metrics;
  private final Clock clock;
  private final PluginFetcher fetcher;
  private final PluginHttpClient http;
  private final PluginBridge bridge;
  private final Map<String, Boolean> goPluginBySha = new HashMap<>();
  private volatile Map<String, String> processEnvironment = Map.of();
  private final Map<String, Held> instances = new HashMap<>();
  private final Map<String, ExecutablePlugin> bridgeModes = new HashMap<>();
  private volatile PluginRegistry registry = PluginRegistry.EMPTY;
  private volatile boolean loaded;
  private volatile Runnable registryListener = () -> {};
  private boolean closed;

  private record Held(PluginEntry entry, PluginInstance instance) {}

  /**
   * Creates the host on the caller's Vert.x context (or a new one when called off-context).
   *
   * @param vertx the controller's Vert.x instance
   * @param pluginDir the plugin folder ({@code --plugin-dir})
   * @param callTimeout bound of one call ({@code --plugin-call-timeout})
   * @param handshakeTimeout how long an executable plugin has to write its handshake line, and to
   *     answer {@code init} ({@code --plugin-handshake-timeout}, 10 s by default)
   * @param where {@code <namespace>/argo-rollouts-config}, for messages
   * @param events the event recorder, or null (no events)
   * @param metrics the meters, or null
   * @param clock the clock
   */
  public PluginHost(
      Vertx vertx,
      Path pluginDir,
      Duration callTimeout,
      Duration handshakeTimeout,
      String where,
      EventRecorder events,
      ControllerMetrics metrics,
      Clock clock) {
    this(
        vertx,
        pluginDir,
        callTimeout,
        handshakeTimeout,
        where,
        events,
        metrics,
        clock,
        PluginBridge.ofController(null));
  }

  /**
   * Creates the host on the caller's Vert.x context (or a new one when called off-context).
   *
   * @param vertx the controller's Vert.x instance
   * @param pluginDir the plugin folder ({@code --plugin-dir})
   * @param callTimeout bound of one call ({@code --plugin-call-timeout})
   * @param handshakeTimeout how long an executable plugin has to write its handshake line, and to
   *     answer {@code init} ({@code --plugin-handshake-timeout}, 10 s by default)
   * @param where {@code <namespace>/argo-rollouts-config}, for messages
   * @param events the event recorder, or null (no events)
   * @param metrics the meters, or null
   * @param clock the clock
   * @param bridge where {@code rollgate-plugin-bridge} is ({@code --plugin-bridge}), for go-plugin
   *     binaries
   */
  public PluginHost(
      Vertx vertx,
      Path pluginDir,
      Duration callTimeout,
      Duration handshakeTimeout,
      String where,
      EventRecorder events,
      ControllerMetrics metrics,
      Clock clock,
      PluginBridge bridge) {
    this.bridge = bridge;
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.callTimeout = callTimeout;
    this.handshakeTimeout = handshakeTimeout;
    this.where = where;
    this.events = events;
    this.metrics = metrics;
    this.clock = clock;
    this.fetcher = new PluginFetcher(vertx, pluginDir);
    this.http = new PluginHttpClient(vertx);
  }

  /**
   * Replaces the registry (a ConfigMap change). Instances whose registration changed or was removed
   * are closed.
   *
   * @param next the new registry
   */
  public void update(PluginRegistry next) {
    boolean first = !loaded;
    Runnable listener = registryListener;
    registry = next;
    loaded = true;
    onContext(
        () -> {
          for (var it = instances.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            String[] key = e.getKey().split(" ", 2);
            PluginKind kind = registryKind(key[0]);
            Optional<PluginEntry> now = next.find(kind, key[1]);
            if (now.isEmpty() || !now.get().equals(e.getValue().entry())) {
              LOG.info(
                  "plugin {} ({}) {}: stopping it",
                  key[1],
                  key[0],
                  now.isEmpty() ? "unregistered" : "registration changed");
              e.getValue().instance().close();
              it.remove();
            }
          }
          LOG.info(
              "plugin registry {} {}: stepPlugins={} trafficRouterPlugins={}",
              where,
              first ? "loaded" : "reloaded",
              next.names(PluginKind.STEP),
              next.names(PluginKind.TRAFFIC_ROUTER));
          if (!first) {
            listener.run();
          }
          return null;
        });
  }

  /**
   * Sets what runs after each registry change once the first registry was loaded (the Rollout
   * controller requeues the Rollouts that use plugins, so a plugin registered or repaired is used
   * at once instead of at their next retry).
   *
   * @param listener run on the host's context after the instances of changed registrations are
   *     closed
   */
  public void onRegistryChange(Runnable listener) {
    registryListener = listener;
  }

  /**
   * Sets environment variables every executable plugin process gets on top of the controller's own
   * (the controller passes {@code KUBECONFIG} when it runs with {@code --kubeconfig}, so plugins
   * that talk to the cluster, as Argo Rollouts' do, use the controller's identity and API server).
   * Applies to processes started afterwards.
   *
   * @param env the variables
   */
  public void processEnvironment(Map<String, String> env) {
    processEnvironment = Map.copyOf(env);
  }

  /**
   * The current registry.
   *
   * @return the registry ({@link PluginRegistry#EMPTY} until the ConfigMap was read)
   */
  public PluginRegistry registry() {
    return registry;
  }

  /**
   * A plugin's current registration.
   *
   * @param kind the kind
   * @param name the plugin name
   * @return the entry, or empty when none has that name
   */
  public Optional<PluginEntry> registration(PluginKind kind, String name) {
    return registry.find(kind, name);
  }

  /**
   * The step plugins, for the Rollout reconciler.
   *
   * @return the {@link StepPlugins} implementation backed by this host
   */
  public StepPlugins stepPlugins() {
    return new HostedStepPlugins(this);
  }

  /**
   * The traffic router for a {@code trafficRouting.plugins} key.
   *
   * @param name the plugin name, {@code <org>/<name>}
   * @return a router whose calls go to that plugin (failing when it is not registered)
   */
  public TrafficRouter router(String name) {
    return new PluginTrafficRouter(this, name);
  }

  /**
   * Makes every plugin call first ask {@code allowed}; a call it refuses fails with {@link
   * PluginCallException.Reason#NOT_LEADER} and never reaches the plugin, since plugins write to the
   * cluster and to traffic routers on the controller's behalf. The controller passes "this process
   * certainly holds the leader Lease" (docs/reliability.md).
   *
   * @param allowed asked before each call; must be cheap and thread-safe
   */
  public void guardCalls(java.util.function.BooleanSupplier allowed) {
    callAllowed = allowed;
  }

  /**
   * Calls a plugin. Never blocks.
   *
   * @param kind the kind
   * @param name the plugin name
   * @param path the protocol path relative to {@code /v1/}
   * @param body the request body
   * @param rollout the Rollout the call is for (events and audit), or null
   * @param step the 0-based step index for the audit log, or null
   * @return the answer body (a JSON object, whose {@code error} the caller interprets); fails with
   *     a {@link PluginCallException} naming the plugin and the reason
   */
  public Future<JsonNode> call(
      PluginKind kind, String name, String path, JsonNode body, Rollout rollout, Integer step) {
    long startNanos = System.nanoTime();
    String k = protocolKind(kind);
    return onContextFuture(
            () ->
                instance(kind, name)
                    .compose(
                        i ->
                            callAllowed.getAsBoolean()
                                ? i.call(path, body, callTimeout)
                                : Future.failedFuture(
                                    new PluginCallException(
                                        PluginCallException.Reason.NOT_LEADER,
                                        "plugin "
                                            + name
                                            + ": call "
                                            + path
                                            + " not sent: this process does not certainly hold the leader Lease"))))
        .andThen(
            ar -> {
              String outcome;
              if (ar.succeeded()) {
                outcome =
                    ar.result().path("error").asText("").isEmpty() ? "success" : "plugin_error";
              } else {
                outcome = PluginCallException.reasonOf(ar.cause()).outcome();
              }
              long nanos = System.nanoTime() - startNanos;
              if (metrics != null) {
                metrics.pluginCall(name, k, path, outcome, nanos);
              }
              String ro =
                  rollout == null
                      ? "-"
                      : rollout.getMetadata().getNamespace()
                          + "/"
                          + rollout.getMetadata().getName();
              AUDIT.info(
                  "plugin call plugin={} kind={} call={} rollout={} step={} outcome={} durationMs={}{}",
                  name,
                  k,
                  path,
                  ro,
                  step == null ? "-" : step,
                  outcome,
                  nanos / 1_000_000,
                  ar.failed() ? " error=\"" + ar.cause().getMessage() + "\"" : "");
              if (ar.failed()
                  && rollout != null
                  && events != null
                  && PluginCallException.reasonOf(ar.cause())
                      == PluginCallException.Reason.UNAVAILABLE) {
                events.warning(rollout, EVENT_UNAVAILABLE, ar.cause().getMessage());
              }
            });
  }

  private Future<PluginInstance> instance(PluginKind kind, String name) {
    if (closed) {
      return unavailable(name, "the controller is shutting down");
    }
    String k = protocolKind(kind);
    Optional<PluginEntry> entry = registry.find(kind, name);
    if (entry.isEmpty()) {
      return unavailable(
          name,
          loaded
              ? "not registered in " + where + " (" + kind.key() + ")"
              : "the plugin registry " + where + " has not been read yet");
    }
    String key = k + " " + name;
    Held held = instances.get(key);
    if (held != null && held.entry().equals(entry.get())) {
      return Future.succeededFuture(held.instance());
    }
    if (held != null) {
      LOG.info("plugin {} ({}) registration changed: stopping it", name, k);
      held.instance().close();
      instances.remove(key);
    }
    PluginInstance created;
    try {
      created = create(k, entry.get());
    } catch (IllegalArgumentException e) {
      return unavailable(name, "bad registration in " + where + ": " + e.getMessage());
    }
    instances.put(key, new Held(entry.get(), created));
    return Future.succeededFuture(created);
  }

  private PluginInstance create(String kind, PluginEntry e) {
    boolean hasLocation = e.location() != null && !e.location().isBlank();
    boolean hasEndpoint = e.endpoint() != null && !e.endpoint().isBlank();
    if (hasLocation == hasEndpoint) {
      throw new IllegalArgumentException("exactly one of location and endpoint must be set");
    }
    if (hasEndpoint) {
      return new EndpointPlugin(e, http);
    }
    if (e.location().startsWith(InProcessPlugin.PREFIX)) {
      if (e.location().substring(InProcessPlugin.PREFIX.length()).isBlank()) {
        throw new IllegalArgumentException("location java: must name a class");
      }
      return new InProcessPlugin(vertx, kind, e);
    }
    String loc = e.location();
    if (!(loc.startsWith("file://") || loc.startsWith("http://") || loc.startsWith("https://"))) {
      throw new IllegalArgumentException(
          "location " + loc + ": must start with file://, http://, https:// or java:");
    }
    return new ExecutablePlugin(
        vertx,
        context,
        kind,
        e,
        fetcher,
        http,
        clock,
        handshakeTimeout,
        bridge,
        goPluginBySha,
        () -> processEnvironment,
        why -> {});
  }

  private static <T> Future<T> unavailable(String name, String why) {
    return Future.failedFuture(
        new PluginCallException(
            PluginCallException.Reason.UNAVAILABLE,
            "plugin " + name + " is not available: " + why));
  }

  /**
   * The protocol kind of a registry kind.
   *
   * @param kind the registry kind
   * @return {@code step}, {@code trafficrouter} or {@code metricprovider}
   */
  public static String protocolKind(PluginKind kind) {
    return switch (kind) {
      case STEP -> KIND_STEP;
      case TRAFFIC_ROUTER -> KIND_TRAFFIC_ROUTER;
      case METRIC_PROVIDER -> KIND_METRIC_PROVIDER;
    };
  }

  private static PluginKind registryKind(String protocolKind) {
    return switch (protocolKind) {
      case KIND_STEP -> PluginKind.STEP;
      case KIND_METRIC_PROVIDER -> PluginKind.METRIC_PROVIDER;
      default -> PluginKind.TRAFFIC_ROUTER;
    };
  }

  /**
   * Calls the plugin bridge running in one of its own modes (for example {@code notifications},
   * docs/notifications.md) rather than in front of a plugin: the process {@code
   * rollgate-plugin-bridge <mode> [args...]} is found as for go-plugin binaries ({@link
   * PluginBridge}), started on the first call, supervised and restarted like an executable plugin,
   * and stopped with the host. Unlike plugin calls, these are not subject to {@link #guardCalls}:
   * the caller decides. Never blocks.
   *
   * @param mode the bridge's mode, its first argument
   * @param args the mode's further arguments (taken on the first call of a mode)
   * @param path the protocol path relative to {@code /v1/}
   * @param body the request body
   * @param timeout bound of the call
   * @return the answer body; fails with a {@link PluginCallException} naming {@code
   *     rollgate/<mode>} and the reason, for example that the bridge is not installed
   */
  public Future<JsonNode> callBridge(
      String mode, List<String> args, String path, JsonNode body, Duration timeout) {
    return onContextFuture(
        () -> {
          if (closed) {
            return unavailable("rollgate/" + mode, "the controller is shutting down");
          }
          ExecutablePlugin p =
              bridgeModes.computeIfAbsent(
                  mode,
                  m -> {
                    List<String> all = new ArrayList<>();
                    all.add(m);
                    all.addAll(args);
                    PluginEntry entry =
                        new PluginEntry(
                            "rollgate/" + m, "bridge:" + m, null, null, all, false, null);
                    return new ExecutablePlugin(
                        vertx,
                        context,
                        m,
                        entry,
                        fetcher,
                        http,
                        clock,
                        handshakeTimeout,
                        bridge,
                        goPluginBySha,
                        () -> processEnvironment,
                        why -> {},
                        () ->
                            bridge
                                .locate()
                                .map(
                                    found ->
                                        Future.succeededFuture(
                                            new PluginFetcher.Fetched(found, "bridge:" + m)))
                                .orElseGet(
                                    () ->
                                        Future.failedFuture(
                                            new IllegalStateException(bridge.notFound()))));
                  });
          return p.call(path, body, timeout);
        });
  }

  /**
   * The metric provider of AnalysisTemplates' {@code provider.plugin} metrics, for the AnalysisRun
   * reconciler.
   *
   * @return a provider whose measurements are taken by the registered metric-provider plugins
   */
  public PluginMetricProvider metricProvider() {
    return new PluginMetricProvider(this);
  }

  /**
   * Stops every plugin process (SIGKILL, with their children) and fails later calls. For the
   * controller's shutdown.
   *
   * @return a Future completing when every process was signalled
   */
  public Future<Void> close() {
    return onContextFuture(
        () -> {
          closed = true;
          List<Future<Void>> all = new ArrayList<>();
          for (Held h : instances.values()) {
            if (h.instance() instanceof ExecutablePlugin x) {
              x.killNow();
            } else {
              all.add(h.instance().close());
            }
          }
          instances.clear();
          bridgeModes.values().forEach(ExecutablePlugin::killNow);
          bridgeModes.clear();
          fetcher.close();
          http.close();
          return Future.join(all).mapEmpty();
        });
  }

  private void onContext(Supplier<Void> action) {
    if (Vertx.currentContext() == context) {
      action.get();
    } else {
      context.runOnContext(v -> action.get());
    }
  }

  private <T> Future<T> onContextFuture(Supplier<Future<T>> action) {
    if (Vertx.currentContext() == context) {
      return safely(action);
    }
    return Future.<Future<T>>future(p -> context.runOnContext(v -> p.complete(safely(action))))
        .compose(f -> f);
  }

  private static <T> Future<T> safely(Supplier<Future<T>> action) {
    try {
      return Objects.requireNonNull(action.get(), "no Future");
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }
}
