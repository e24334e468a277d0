package io.rollgate.webhook;

import io.rollgate.webhook.tls.CertBundle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.ext.web.Router;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The HTTPS server (TLS 1.2 and 1.3 only) in front of the webhook router; its certificate is
 * swapped in place with {@link HttpServer#updateSSLOptions}, without dropping connections.
 *
 * <p>The server runs on {@code eventLoops} Vert.x event loops, each with its own router and HTTP
 * server sharing the one port (Vert.x hands new connections to them in turn), so TLS and decisions
 * use every core instead of one event loop's thread.
 */
public final class WebhookServer {

  private static final int IDLE_TIMEOUT_SECONDS = 60;

  /**
   * Whether Netty's BoringSSL binding (netty-tcnative-boringssl-static, on the classpath) loads on
   * this platform: then TLS runs in native code through Vert.x's OpenSSL engine, at a fraction of
   * the JDK SSLEngine's CPU time and garbage per record; otherwise the JDK's TLS serves.
   */
  private static final boolean OPENSSL = OpenSSLEngineOptions.isAvailable();

  private final Vertx vertx;
  private final Supplier<Router> routers;
  private final String host;
  private final int port;
  private final int eventLoops;
  private final List<HttpServer> servers = new CopyOnWriteArrayList<>();
  private final List<String> deployments = new ArrayList<>();
  private volatile CertBundle loaded;

  /**
   * Creates a server on one event loop (not listening yet).
   *
   * @param vertx the Vert.x instance
   * @param router the routes ({@link AdmissionRouter#create})
   * @param host the address to bind, for example {@code 0.0.0.0}
   * @param port the port; 0 picks a free one
   */
  public WebhookServer(Vertx vertx, Router router, String host, int port) {
    this(vertx, () -> router, host, port, 1);
  }

  /**
   * Creates a server on several event loops (not listening yet).
   *
   * @param vertx the Vert.x instance
   * @param routers makes the routes of one event loop ({@link AdmissionRouter#create}); called once
   *     per event loop
   * @param host the address to bind, for example {@code 0.0.0.0}
   * @param port the port; 0 picks a free one (shared by every event loop)
   * @param eventLoops how many event loops serve, at least 1 (typically the number of cores)
   * @throws IllegalArgumentException when {@code eventLoops} is below 1
   */
  public WebhookServer(
      Vertx vertx, Supplier<Router> routers, String host, int port, int eventLoops) {
    if (eventLoops < 1) {
      throw new IllegalArgumentException("eventLoops must be at least 1, got " + eventLoops);
    }
    this.vertx = vertx;
    this.routers = routers;
    this.host = host;
    this.port = port;
    this.eventLoops = eventLoops;
  }

  /** One HTTP server on the event loop of its own deployment. */
  private final class Instance extends VerticleBase {
    private final HttpServerOptions options;
    private final Promise<Integer> bound;

    Instance(HttpServerOptions options, Promise<Integer> bound) {
      this.options = options;
      this.bound = bound;
    }

    @Override
    public Future<?> start() {
      return vertx
          .createHttpServer(options)
          .requestHandler(routers.get())
          .listen()
          .onSuccess(
              s -> {
                servers.add(s);
                bound.tryComplete(s.actualPort());
              })
          .onFailure(bound::tryFail);
    }
  }

  /**
   * Starts listening with a certificate.
   *
   * @param bundle the serving certificate and key
   * @return a Future completed with the bound port; failed when the port is taken or the key is
   *     unusable
   */
  public Future<Integer> start(CertBundle bundle) {
    Promise<Integer> first = Promise.promise();
    return vertx
        .deployVerticle(new Instance(options(bundle, port), first))
        .compose(
            id -> {
              deployments.add(id);
              return first.future();
            })
        .compose(
            actual -> {
              // The other event loops listen with the same options, so Vert.x shares the first
              // one's socket with them (for port 0 too: they share the port it was given).
              Future<Void> rest = Future.succeededFuture();
              for (int i = 1; i < eventLoops; i++) {
                rest =
                    rest.compose(
                        v ->
                            vertx
                                .deployVerticle(
                                    new Instance(options(bundle, port), Promise.promise()))
                                .map(
                                    id -> {
                                      deployments.add(id);
                                      return null;
                                    }));
              }
              return rest.map(
                  v -> {
                    loaded = bundle;
                    return actual;
                  });
            });
  }

  /**
   * Names the TLS implementation the server uses.
   *
   * @return {@code OpenSSL (BoringSSL)} or {@code JDK}
   */
  public static String tlsEngine() {
    return OPENSSL ? "OpenSSL (BoringSSL)" : "JDK";
  }

  private HttpServerOptions options(CertBundle bundle, int listenPort) {
    HttpServerOptions options = new HttpServerOptions();
    if (OPENSSL) {
      options.setSslEngineOptions(new OpenSSLEngineOptions());
    }
    bundle.sslOptions().getEnabledCipherSuites().forEach(options::addEnabledCipherSuite);
    return options
        .setHost(host)
        .setPort(listenPort)
        .setSsl(true)
        .setKeyCertOptions(bundle.sslOptions().getKeyCertOptions())
        .setEnabledSecureTransportProtocols(
            bundle.sslOptions().getEnabledSecureTransportProtocols())
        .setSslHandshakeTimeout(10)
        .setIdleTimeout(IDLE_TIMEOUT_SECONDS)
        .setMaxInitialLineLength(4096)
        .setMaxHeaderSize(16384);
  }

  /**
   * Replaces the serving certificate on every event loop; new TLS handshakes use it, open
   * connections continue.
   *
   * @param bundle the new certificate and key
   * @return a Future completed when the new options are in use; failed when the key is unusable
   */
  public Future<Void> reload(CertBundle bundle) {
    if (servers.isEmpty()) {
      return Future.failedFuture(new IllegalStateException("server not started"));
    }
    List<Future<Boolean>> updates = new ArrayList<>();
    for (HttpServer s : servers) {
      updates.add(s.updateSSLOptions(bundle.sslOptions()));
    }
    return Future.all(updates)
        .map(
            updated -> {
              loaded = bundle;
              return null;
            });
  }

  /**
   * The certificate in use.
   *
   * @return the bundle, or null before {@link #start}
   */
  public CertBundle loaded() {
    return loaded;
  }

  /**
   * Whether a certificate is loaded and the server listens.
   *
   * @return true once started
   */
  public boolean ready() {
    return loaded != null;
  }

  /**
   * Stops listening on every event loop.
   *
   * @return a Future completed when closed
   */
  public Future<Void> close() {
    List<Future<Void>> closing = new ArrayList<>();
    for (String id : deployments) {
      // Undeploying the owning verticle may already have undeployed these (they are its children).
      closing.add(vertx.undeploy(id).recover(e -> Future.succeededFuture()));
    }
    deployments.clear();
    servers.clear();
    return Future.all(closing).mapEmpty();
  }
}
