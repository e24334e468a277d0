package io.rollgate.plugin.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.ModelJson;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Serves a {@link StepPlugin} or {@link TrafficRouterPlugin} over plugin protocol v1
 * (docs/plugins.md): {@code POST <base>/v1/<path>} with JSON bodies, answered through a {@link
 * PluginDispatcher}.
 *
 * <p>Two ways to run it:
 *
 * <ul>
 *   <li>as an executable plugin started by the controller: call {@link #serve(StepPlugin)} or
 *       {@link #serve(TrafficRouterPlugin)} from {@code main}; it reads {@code ROLLGATE_PLUGIN_*}
 *       from the environment, listens on {@code 127.0.0.1} on a free port, writes the handshake
 *       line {@code rollgate-plugin 1 http://127.0.0.1:<port>} as the first line on standard
 *       output, and answers 401 to a request without {@code Authorization: Bearer <cookie>};
 *   <li>as an endpoint plugin (its own service): {@link #start(Vertx, PluginDispatcher, Options)}
 *       with a host, a port and optionally a PEM certificate and key for TLS, without a cookie.
 * </ul>
 *
 * <p>Answers: 200 with the JSON answer; 400 for an unreadable body or a wrong {@code
 * Rollgate-Plugin-Protocol} header; 401 without the cookie; 404 for an unknown path; 405 for a
 * method other than POST.
 */
public final class PluginServer {

  /** Largest request body accepted, in bytes (a Rollout with its status is far smaller). */
  public static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

  private static final ObjectMapper JSON = ModelJson.mapper();
  private static final long START_SECONDS = 30;

  private final Vertx vertx;
  private final HttpServer server;
  private final String baseUrl;
  private final boolean ownsVertx;

  private PluginServer(Vertx vertx, HttpServer server, String baseUrl, boolean ownsVertx) {
    this.vertx = vertx;
    this.server = server;
    this.baseUrl = baseUrl;
    this.ownsVertx = ownsVertx;
  }

  /**
   * Where and how to listen.
   *
   * @param host the address to bind, for example {@code 127.0.0.1} or {@code 0.0.0.0}
   * @param port the port, 0 for any free port
   * @param cookie the bearer token every request must carry, or null to accept any request
   *     (endpoint plugins)
   * @param tlsCertPath PEM certificate chain file for HTTPS, or null for plain HTTP
   * @param tlsKeyPath PEM private key file for HTTPS, or null for plain HTTP
   */
  public record Options(
      String host, int port, String cookie, String tlsCertPath, String tlsKeyPath) {

    /**
     * Plain HTTP on a host and port, without a cookie (an endpoint plugin).
     *
     * @param host the address to bind
     * @param port the port, 0 for any free port
     * @return the options
     */
    public static Options endpoint(String host, int port) {
      return new Options(host, port, null, null, null);
    }
  }

  /**
   * Runs a step plugin as an executable plugin started by the controller; returns once it listens
   * and the handshake line is written (the Vert.x threads keep the process alive).
   *
   * @param plugin the plugin
   * @return the running server
   * @throws IllegalStateException when the environment is not the controller's or the server cannot
   *     listen
   */
  public static PluginServer serve(StepPlugin plugin) {
    return serve(PluginDispatcher.of(plugin), System.getenv());
  }

  /**
   * Runs a traffic-router plugin as an executable plugin started by the controller; returns once it
   * listens and the handshake line is written (the Vert.x threads keep the process alive).
   *
   * @param plugin the plugin
   * @return the running server
   * @throws IllegalStateException when the environment is not the controller's or the server cannot
   *     listen
   */
  public static PluginServer serve(TrafficRouterPlugin plugin) {
    return serve(PluginDispatcher.of(plugin), System.getenv());
  }

  /**
   * Runs a plugin as an executable plugin with a given environment (see {@link
   * #serve(StepPlugin)}).
   *
   * @param dispatcher the plugin
   * @param env the environment: {@code ROLLGATE_PLUGIN_PROTOCOL}, {@code ROLLGATE_PLUGIN_KIND} and
   *     {@code ROLLGATE_PLUGIN_COOKIE} are required
   * @return the running server
   * @throws IllegalStateException when a variable is missing or wrong, or the server cannot listen
   */
  static PluginServer serve(PluginDispatcher dispatcher, Map<String, String> env) {
    String protocol = env.get(PluginProtocol.ENV_PROTOCOL);
    String cookie = env.get(PluginProtocol.ENV_COOKIE);
    String kind = env.get(PluginProtocol.ENV_KIND);
    if (protocol == null || cookie == null || cookie.isEmpty()) {
      throw new IllegalStateException(
          "this is a Rollgate plugin: it is started by the Rollgate controller ("
              + PluginProtocol.ENV_PROTOCOL
              + " and "
              + PluginProtocol.ENV_COOKIE
              + " are not set)");
    }
    if (!String.valueOf(PluginProtocol.VERSION).equals(protocol.trim())) {
      throw new IllegalStateException(
          PluginProtocol.ENV_PROTOCOL
              + "="
              + protocol
              + ": this plugin speaks protocol "
              + PluginProtocol.VERSION);
    }
    if (kind != null && !kind.isEmpty() && !kind.equals(dispatcher.kind())) {
      throw new IllegalStateException(
          "registered as a " + kind + " plugin, but this is a " + dispatcher.kind() + " plugin");
    }
    Vertx vertx = Vertx.vertx();
    try {
      PluginServer s =
          listen(vertx, dispatcher, new Options("127.0.0.1", 0, cookie, null, null), true)
              .toCompletionStage()
              .toCompletableFuture()
              .get(START_SECONDS, TimeUnit.SECONDS);
      System.out.println(
          PluginProtocol.HANDSHAKE_PREFIX + " " + PluginProtocol.VERSION + " " + s.baseUrl());
      System.out.flush();
      exitWhenStdinCloses(s);
      return s;
    } catch (ExecutionException | TimeoutException e) {
      vertx.close();
      throw new IllegalStateException(
          "cannot listen: " + (e.getCause() == null ? e : e.getCause()).getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      vertx.close();
      throw new IllegalStateException("interrupted while starting", e);
    }
  }

  /**
   * Ends the process when standard input reaches its end: the controller keeps that pipe open for
   * the plugin's lifetime, so its end means the controller is gone (even killed with SIGKILL) and
   * the plugin must not linger.
   */
  private static void exitWhenStdinCloses(PluginServer s) {
    Thread t =
        new Thread(
            () -> {
              try {
                byte[] buf = new byte[256];
                while (System.in.read(buf) >= 0) {
                  // the controller never writes; anything read is ignored
                }
              } catch (IOException e) {
                // a broken pipe means the same as the end of input
              }
              System.err.println("standard input closed: the controller is gone, exiting");
              s.close();
              Runtime.getRuntime().halt(0);
            },
            "rollgate-plugin-stdin");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Starts a plugin server on a Vert.x instance (endpoint plugins, tests).
   *
   * @param vertx the Vert.x instance (not closed by {@link #close()})
   * @param dispatcher the plugin
   * @param options where and how to listen
   * @return a Future with the listening server; fails when the port cannot be bound or the TLS
   *     files cannot be read
   */
  public static Future<PluginServer> start(
      Vertx vertx, PluginDispatcher dispatcher, Options options) {
    return listen(vertx, dispatcher, options, false);
  }

  private static Future<PluginServer> listen(
      Vertx vertx, PluginDispatcher dispatcher, Options options, boolean ownsVertx) {
    HttpServerOptions http =
        new HttpServerOptions().setHost(options.host()).setPort(options.port());
    boolean tls = options.tlsCertPath() != null && options.tlsKeyPath() != null;
    if (tls) {
      http.setSsl(true)
          .setKeyCertOptions(
              new PemKeyCertOptions()
                  .setCertPath(options.tlsCertPath())
                  .setKeyPath(options.tlsKeyPath()));
    }
    HttpServer server = vertx.createHttpServer(http);
    server.requestHandler(req -> handle(dispatcher, options.cookie(), req));
    return server
        .listen()
        .map(
            s -> {
              String host =
                  options.host().contains(":") ? "[" + options.host() + "]" : options.host();
              String url = (tls ? "https" : "http") + "://" + host + ":" + s.actualPort();
              return new PluginServer(vertx, s, url, ownsVertx);
            });
  }

  private static void handle(PluginDispatcher dispatcher, String cookie, HttpServerRequest req) {
    if (cookie != null && !authorised(req.getHeader("Authorization"), cookie)) {
      answer(req, 401, error("missing or wrong bearer token"));
      return;
    }
    if (req.method() != HttpMethod.POST) {
      answer(req, 405, error("only POST is allowed"));
      return;
    }
    String version = req.getHeader(PluginProtocol.HEADER_PROTOCOL);
    if (version != null && !version.trim().equals(String.valueOf(PluginProtocol.VERSION))) {
      answer(
          req,
          400,
          error(
              PluginProtocol.HEADER_PROTOCOL
                  + ": this plugin speaks protocol "
                  + PluginProtocol.VERSION));
      return;
    }
    String path = req.path();
    if (!path.startsWith("/v1/")) {
      answer(req, 404, error("unknown path " + path));
      return;
    }
    String call = path.substring(4);
    String length = req.getHeader("Content-Length");
    if (length != null && parseLong(length) > MAX_BODY_BYTES) {
      answer(req, 413, error("body larger than " + MAX_BODY_BYTES + " bytes"));
      return;
    }
    req.body()
        .compose(
            body -> {
              JsonNode json;
              try {
                json =
                    body.length() == 0 ? JSON.createObjectNode() : JSON.readTree(body.getBytes());
              } catch (IOException e) {
                return Future.failedFuture(
                    new PluginDispatcher.BadRequestException(
                        "body is not JSON: " + e.getMessage()));
              }
              return dispatcher.handle(call, json);
            })
        .onSuccess(answerBody -> answer(req, 200, answerBody))
        .onFailure(
            err -> {
              if (err instanceof PluginDispatcher.BadRequestException bad) {
                int status = bad.getMessage().startsWith("unknown call") ? 404 : 400;
                answer(req, status, error(bad.getMessage()));
              } else {
                answer(req, 500, error(String.valueOf(err.getMessage())));
              }
            });
  }

  private static long parseLong(String s) {
    try {
      return Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static boolean authorised(String header, String cookie) {
    if (header == null || !header.startsWith("Bearer ")) {
      return false;
    }
    byte[] given = header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(given, cookie.getBytes(StandardCharsets.UTF_8));
  }

  private static JsonNode error(String message) {
    ObjectNode o = JSON.createObjectNode();
    o.put("error", message);
    return o;
  }

  private static void answer(HttpServerRequest req, int status, JsonNode body) {
    if (req.response().ended() || req.response().closed()) {
      return;
    }
    req.response()
        .setStatusCode(status)
        .putHeader("Content-Type", "application/json")
        .end(Buffer.buffer(ModelJson.toJson(body)));
  }

  /**
   * The base URL clients call, for example {@code http://127.0.0.1:40123}.
   *
   * @return the URL, without a trailing slash
   */
  public String baseUrl() {
    return baseUrl;
  }

  /**
   * The port the server listens on.
   *
   * @return the port
   */
  public int port() {
    return server.actualPort();
  }

  /**
   * Stops listening (and closes the Vert.x instance when {@link #serve(StepPlugin)} created it).
   *
   * @return a Future completing when closed
   */
  public Future<Void> close() {
    Future<Void> closed = server.close();
    return ownsVertx ? closed.eventually(vertx::close) : closed;
  }
}
