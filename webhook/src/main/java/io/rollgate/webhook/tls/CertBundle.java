package io.rollgate.webhook.tls;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.ServerSSLOptions;
import java.util.Set;

/**
 * A CA certificate and a serving certificate with its key, PEM-encoded, as stored in the webhook's Secret under
 * {@code ca.crt}, {@code tls.crt} and {@code tls.key}.
 *
 * @param caCrt the CA certificate (PEM)
 * @param tlsCrt the serving certificate (PEM), signed by the CA
 * @param tlsKey the serving key (PEM, PKCS#8)
 */
public record CertBundle(String caCrt, String tlsCrt, String tlsKey) {

  /** Secret key of the CA certificate. */
  public static final String CA_CRT = "ca.crt";

  /** Secret key of the serving certificate. */
  public static final String TLS_CRT = "tls.crt";

  /** Secret key of the serving key. */
  public static final String TLS_KEY = "tls.key";

  /**
   * The server TLS options for this bundle: TLS 1.2 and 1.3 only.
   *
   * @return options for {@code HttpServerOptions#setSslOptions} or {@code HttpServer#updateSSLOptions}
   */
  public ServerSSLOptions sslOptions() {
    return new ServerSSLOptions()
        .setKeyCertOptions(
            new PemKeyCertOptions().addCertValue(Buffer.buffer(tlsCrt)).addKeyValue(Buffer.buffer(tlsKey)))
        .setEnabledSecureTransportProtocols(Set.of("TLSv1.2", "TLSv1.3"));
  }
}
