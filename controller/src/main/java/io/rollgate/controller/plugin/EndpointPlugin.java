package io.rollgate.controller.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.ModelJson;
import io.rollgate.plugin.PluginEntry;
import io.vertx.core.Future;
import java.time.Duration;

/**
 * A plugin that runs as its own service ({@code endpoint: http(s)://host:port[/base]},
 * docs/plugins.md): the controller only calls it, without a cookie. {@code init} is sent before the
 * first call and again after a failed one, until it succeeds.
 */
final class EndpointPlugin implements PluginInstance {

  private final PluginEntry entry;
  private final String baseUrl;
  private final PluginHttpClient http;
  private Future<Void> initialised;
  private boolean closed;

  /**
   * Creates the plugin.
   *
   * @param entry the registration
   * @param http the HTTP client
   * @throws IllegalArgumentException when the endpoint is not an http(s) URL
   */
  EndpointPlugin(PluginEntry entry, PluginHttpClient http) {
    this.entry = entry;
    this.http = http;
    String e = entry.endpoint().trim();
    java.net.URI uri;
    try {
      uri = java.net.URI.create(e);
    } catch (IllegalArgumentException ex) {
      throw new IllegalArgumentException("endpoint " + e + ": " + ex.getMessage());
    }
    if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
        || uri.getHost() == null) {
      throw new IllegalArgumentException("endpoint " + e + ": must be http(s)://host:port[/base]");
    }
    this.baseUrl = e.endsWith("/") ? e.substring(0, e.length() - 1) : e;
  }

  @Override
  public Future<JsonNode> call(String path, JsonNode body, Duration timeout) {
    if (closed) {
      return Future.failedFuture(
          new PluginCallException(
              PluginCallException.Reason.UNAVAILABLE,
              "plugin " + entry.name() + " is not running: was unregistered"));
    }
    if (initialised == null || initialised.failed()) {
      initialised =
          http.post(
                  entry.name(),
                  baseUrl,
                  "init",
                  ModelJson.mapper().createObjectNode(),
                  null,
                  timeout)
              .compose(
                  a -> {
                    String error = a.path("error").asText("");
                    return error.isEmpty()
                        ? Future.<Void>succeededFuture()
                        : Future.failedFuture(
                            new PluginCallException(
                                PluginCallException.Reason.UNAVAILABLE,
                                "plugin "
                                    + entry.name()
                                    + " is not running: init failed: "
                                    + error));
                  });
    }
    return initialised.compose(v -> http.post(entry.name(), baseUrl, path, body, null, timeout));
  }

  @Override
  public Future<Void> close() {
    closed = true;
    return Future.succeededFuture();
  }
}
