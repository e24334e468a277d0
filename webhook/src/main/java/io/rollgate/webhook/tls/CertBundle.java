package io.rollgate.webhook.tls;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.ServerSSLOptions;
import java.util.List;
import java.util.Set;

/**
 * A CA certificate and a serving certificate with its key, PEM-encoded, as stored in the webhook's
 * Secret under {@code ca.crt}, {@code tls.crt} and {@code tls.key}.
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
   * The cipher suites the webhook offers: the TLS 1.3 suites, and for TLS 1.2 only ECDHE key
   * exchange with AEAD ciphers (AES-GCM, ChaCha20-Poly1305), for ECDSA and RSA keys alike (a
   * provided or cert-manager certificate may be RSA). No CBC and no SHA-1 MAC suites, which TLS 1.2
   * would otherwise negotiate with old clients.
   */
  public static final List<String> CIPHER_SUITES =
      List.of(
          "TLS_AES_128_GCM_SHA256",
          "TLS_AES_256_GCM_SHA384",
          "TLS_CHACHA20_POLY1305_SHA256",
          "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
          "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

  /**
   * The server TLS options for this bundle: TLS 1.2 and 1.3 only, with {@link #CIPHER_SUITES}.
   *
   * @return options for {@code HttpServerOptions#setSslOptions} or {@code
   *     HttpServer#updateSSLOptions}
   */
  public ServerSSLOptions sslOptions() {
    ServerSSLOptions options =
        new ServerSSLOptions()
            .setKeyCertOptions(
                new PemKeyCertOptions()
                    .addCertValue(Buffer.buffer(tlsCrt))
                    .addKeyValue(Buffer.buffer(tlsKey)))
            .setEnabledSecureTransportProtocols(Set.of("TLSv1.2", "TLSv1.3"));
    CIPHER_SUITES.forEach(options::addEnabledCipherSuite);
    return options;
  }
}
