package io.rollgate.webhook;

import io.rollgate.webhook.tls.CertBundle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;

/**
 * The HTTPS server (TLS 1.2 and 1.3 only) in front of the webhook router; its certificate is swapped in place with
 * {@link HttpServer#updateSSLOptions}, without dropping connections.
 */
public final class WebhookServer {

  private static final int IDLE_TIMEOUT_SECONDS = 60;

  private final Vertx vertx;
  private final Router router;
  private final String host;
  private final int port;
  private HttpServer server;
  private volatile CertBundle loaded;

  /**
   * Creates the server (not listening yet).
   *
   * @param vertx the Vert.x instance
   * @param router the routes ({@link AdmissionRouter#create})
   * @param host the address to bind, for example {@code 0.0.0.0}
   * @param port the port; 0 picks a free one
   */
  public WebhookServer(Vertx vertx, Router router, String host, int port) {
    this.vertx = vertx;
    this.router = router;
    this.host = host;
    this.port = port;
  }

  /**
   * Starts listening with a certificate.
   *
   * @param bundle the serving certificate and key
   * @return a Future completed with the bound port; failed when the port is taken or the key is unusable
   */
  public Future<Integer> start(CertBundle bundle) {
    HttpServerOptions options =
        new HttpServerOptions()
            .setHost(host)
            .setPort(port)
            .setSsl(true)
            .setKeyCertOptions(bundle.sslOptions().getKeyCertOptions())
            .setEnabledSecureTransportProtocols(bundle.sslOptions().getEnabledSecureTransportProtocols())
            .setSslHandshakeTimeout(10)
            .setIdleTimeout(IDLE_TIMEOUT_SECONDS)
            .setMaxInitialLineLength(4096)
            .setMaxHeaderSize(16384);
    return vertx
        .createHttpServer(options)
        .requestHandler(router)
        .listen()
        .map(
            s -> {
              server = s;
              loaded = bundle;
              return s.actualPort();
            });
  }

  /**
   * Replaces the serving certificate; new TLS handshakes use it, open connections continue.
   *
   * @param bundle the new certificate and key
   * @return a Future completed when the new options are in use; failed when the key is unusable
   */
  public Future<Void> reload(CertBundle bundle) {
    if (server == null) {
      return Future.failedFuture(new IllegalStateException("server not started"));
    }
    return server.updateSSLOptions(bundle.sslOptions()).map(updated -> {
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
   * Stops listening.
   *
   * @return a Future completed when closed
   */
  public Future<Void> close() {
    return server == null ? Future.succeededFuture() : server.close();
  }
}
