package io.rollgate.controller.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.ModelJson;
import io.rollgate.plugin.PluginEntry;
import io.rollgate.plugin.sdk.PluginDispatcher;
import io.rollgate.plugin.sdk.StepPlugin;
import io.rollgate.plugin.sdk.TrafficRouterPlugin;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;

/**
 * A Java plugin on the controller's classpath ({@code location: java:<class>}, docs/plugins.md):
 * the provider {@code <class>} of {@link StepPlugin} or {@link TrafficRouterPlugin} is loaded with
 * {@link ServiceLoader} on first use, {@code init} is called once, and calls go through the SDK's
 * {@link PluginDispatcher} with the same JSON bodies an executable plugin gets (so the plugin never
 * shares the controller's cached objects).
 */
final class InProcessPlugin implements PluginInstance {

  /** The location prefix of in-process plugins. */
  static final String PREFIX = "java:";

  private final Vertx vertx;
  private final String kind;
  private final PluginEntry entry;
  private final String className;
  private Future<PluginDispatcher> loaded;
  private boolean closed;

  /**
   * Creates the plugin (nothing is loaded until the first call).
   *
   * @param vertx the Vert.x instance
   * @param kind {@code step} or {@code trafficrouter}
   * @param entry the registration, with {@code location: java:<class>}
   */
  InProcessPlugin(Vertx vertx, String kind, PluginEntry entry) {
    this.vertx = vertx;
    this.kind = kind;
    this.entry = entry;
    this.className = entry.location().substring(PREFIX.length()).trim();
  }

  @Override
  public Future<JsonNode> call(String path, JsonNode body, Duration timeout) {
    if (closed) {
      return unavailable("was unregistered");
    }
    if (loaded == null || loaded.failed()) {
      loaded =
          vertx
              .executeBlocking(this::load, false)
              .recover(err -> unavailable(err.getMessage()))
              .compose(
                  d ->
                      d.handle("init", ModelJson.mapper().createObjectNode())
                          .compose(
                              a -> {
                                String error = a.path("error").asText("");
                                return error.isEmpty()
                                    ? Future.succeededFuture(d)
                                    : unavailable("init failed: " + error);
                              }));
    }
    return loaded.compose(
        d ->
            d.handle(path, body)
                .timeout(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS)
                .recover(
                    err ->
                        Future.failedFuture(
                            err instanceof java.util.concurrent.TimeoutException
                                ? new PluginCallException(
                                    PluginCallException.Reason.TIMEOUT,
                                    "plugin "
                                        + entry.name()
                                        + ": "
                                        + path
                                        + " timed out after "
                                        + PluginHttpClient.seconds(timeout))
                                : new PluginCallException(
                                    PluginCallException.Reason.BAD_ANSWER,
                                    "plugin "
                                        + entry.name()
                                        + ": "
                                        + path
                                        + " failed: "
                                        + err.getMessage(),
                                    err))));
  }

  private PluginDispatcher load() {
    Class<?> iface =
        PluginHost.KIND_STEP.equals(kind) ? StepPlugin.class : TrafficRouterPlugin.class;
    ClassLoader cl = Thread.currentThread().getContextClassLoader();
    if (cl == null) {
      cl = InProcessPlugin.class.getClassLoader();
    }
    for (ServiceLoader.Provider<?> p : ServiceLoader.load(iface, cl).stream().toList()) {
      if (p.type().getName().equals(className)) {
        return PluginDispatcher.forPlugin(p.get());
      }
    }
    throw new IllegalStateException(
        "no "
            + iface.getSimpleName()
            + " provider "
            + className
            + " on the controller's classpath (it must be listed in"
            + " META-INF/services/"
            + iface.getName()
            + ")");
  }

  private <T> Future<T> unavailable(String why) {
    return Future.failedFuture(
        new PluginCallException(
            PluginCallException.Reason.UNAVAILABLE,
            "plugin " + entry.name() + " is not running: " + why));
  }

  @Override
  public Future<Void> close() {
    closed = true;
    return Future.succeededFuture();
  }
}
