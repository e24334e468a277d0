package io.rollgate.controller.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.ModelJson;
import io.rollgate.plugin.sdk.PluginProtocol;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends protocol v1 calls ({@code POST <base>/v1/<path>}, JSON body, header {@code
 * Rollgate-Plugin-Protocol: 1}, and the per-process cookie as a bearer token for executable
 * plugins) on the controller's Vert.x instance. Never blocks.
 */
public final class PluginHttpClient {

  private static final int MAX_ANSWER_BYTES = 16 * 1024 * 1024;

  private final WebClient client;

  /**
   * Creates the client.
   *
   * @param vertx the controller's Vert.x instance
   */
  public PluginHttpClient(Vertx vertx) {
    this.client =
        WebClient.create(
            vertx,
            new WebClientOptions()
                .setUserAgent("rollgate-controller")
                .setKeepAlive(true)
                .setFollowRedirects(false)
                .setVerifyHost(true));
  }

  /**
   * Posts one call.
   *
   * @param plugin the plugin name, for messages
   * @param baseUrl the plugin's base URL, without a trailing slash
   * @param path the protocol path relative to {@code /v1/}
   * @param body the JSON body
   * @param cookie the bearer token, or null (endpoint plugins)
   * @param timeout bound of the whole call
   * @return the answer body (a JSON object); fails with {@link PluginCallException} ({@code
   *     TIMEOUT}, {@code TRANSPORT} for a refused connection or a status other than 200, {@code
   *     BAD_ANSWER} for a body that is not a JSON object)
   */
  public Future<JsonNode> post(
      String plugin, String baseUrl, String path, JsonNode body, String cookie, Duration timeout) {
    String url = baseUrl + "/v1/" + path;
    long millis = Math.max(1, timeout.toMillis());
    HttpRequest<Buffer> request;
    try {
      request = client.postAbs(url);
    } catch (RuntimeException e) {
      return Future.failedFuture(
          new PluginCallException(
              PluginCallException.Reason.TRANSPORT,
              "plugin " + plugin + ": bad URL " + url + ": " + e.getMessage()));
    }
    request
        .connectTimeout(millis)
        .idleTimeout(millis)
        .putHeader("Content-Type", "application/json")
        .putHeader(PluginProtocol.HEADER_PROTOCOL, String.valueOf(PluginProtocol.VERSION));
    if (cookie != null) {
      request.putHeader("Authorization", "Bearer " + cookie);
    }
    return request
        .sendBuffer(Buffer.buffer(ModelJson.toJson(body)))
        .timeout(millis, TimeUnit.MILLISECONDS)
        .recover(
            err -> {
              boolean timedOut =
                  err instanceof TimeoutException
                      || err.getClass().getSimpleName().contains("Timeout");
              return Future.failedFuture(
                  new PluginCallException(
                      timedOut
                          ? PluginCallException.Reason.TIMEOUT
                          : PluginCallException.Reason.TRANSPORT,
                      timedOut
                          ? "plugin "
                              + plugin
                              + ": "
                              + path
                              + " timed out after "
                              + seconds(timeout)
                          : "plugin " + plugin + ": " + path + " failed: " + rootMessage(err),
                      err));
            })
        .compose(
            resp -> {
              if (resp.statusCode() != 200) {
                return Future.failedFuture(
                    new PluginCallException(
                        PluginCallException.Reason.TRANSPORT,
                        "plugin "
                            + plugin
                            + ": "
                            + path
                            + " answered HTTP "
                            + resp.statusCode()
                            + excerpt(resp.bodyAsString())));
              }
              Buffer b = resp.body();
              if (b == null || b.length() > MAX_ANSWER_BYTES) {
                return Future.failedFuture(
                    new PluginCallException(
                        PluginCallException.Reason.BAD_ANSWER,
                        "plugin "
                            + plugin
                            + ": "
                            + path
                            + " answered "
                            + (b == null
                                ? "an empty body"
                                : "a body over " + MAX_ANSWER_BYTES + " bytes")));
              }
              try {
                JsonNode answer = ModelJson.mapper().readTree(b.getBytes());
                if (answer == null || !answer.isObject()) {
                  throw new IOException("not a JSON object");
                }
                return Future.succeededFuture(answer);
              } catch (IOException e) {
                return Future.failedFuture(
                    new PluginCallException(
                        PluginCallException.Reason.BAD_ANSWER,
                        "plugin "
                            + plugin
                            + ": "
                            + path
                            + " answered something that is not a JSON object"
                            + excerpt(b.toString())));
              }
            });
  }

  static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : (d.toMillis() / 1000.0) + "s";
  }

  private static String excerpt(String s) {
    if (s == null || s.isBlank()) {
      return "";
    }
    String one = s.strip().replaceAll("\\s+", " ");
    return ": " + (one.length() > 200 ? one.substring(0, 200) + "..." : one);
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage();
    return m == null ? t.getClass().getSimpleName() : m;
  }

  /** Closes the underlying client. */
  public void close() {
    client.close();
  }
}
