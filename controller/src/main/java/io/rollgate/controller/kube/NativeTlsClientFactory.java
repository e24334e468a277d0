package io.rollgate.controller.kube;

import io.rollgate.kube.KubeClientFactory;
import io.vertx.core.Vertx;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.ext.web.client.WebClientOptions;

/**
 * fabric8's Vert.x HTTP client factory with TLS in BoringSSL (netty-tcnative-boringssl-static,
 * Vert.x's OpenSSL engine) for requests and watches, where the native library loads; elsewhere the
 * client keeps the JDK's TLS.
 *
 * <p>Why: every API request and every watch event is encrypted and decrypted on the client's event
 * loop. With the JDK's SSLEngine, AES-GCM took about a quarter of that event loop's CPU during a
 * cold start of 300 Rollouts (docs/performance.md). The trust and key managers built from the
 * kubeconfig are kept as they are. Token refresh as in {@link KubeClientFactory}.
 */
public final class NativeTlsClientFactory extends KubeClientFactory {

  /** Whether BoringSSL loads on this platform. */
  public static final boolean AVAILABLE = OpenSSLEngineOptions.isAvailable();

  /**
   * Creates the factory over the controller's Vert.x instance.
   *
   * @param vertx the Vert.x instance whose event loops run the client
   */
  public NativeTlsClientFactory(Vertx vertx) {
    super(vertx);
  }

  /**
   * Chooses the native TLS engine for HTTP requests and WebSocket watches when it is available.
   *
   * @param options the HTTP client options fabric8 built from the kubeconfig
   * @param webSocketOptions the WebSocket client options
   * @param poolOptions the connection pool options (unchanged)
   */
  @Override
  protected void additionalConfig(
      WebClientOptions options, WebSocketClientOptions webSocketOptions, PoolOptions poolOptions) {
    if (AVAILABLE) {
      options.setSslEngineOptions(new OpenSSLEngineOptions());
      webSocketOptions.setSslEngineOptions(new OpenSSLEngineOptions());
    }
  }
}
