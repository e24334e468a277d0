package io.rollgate.webhook.tls;

import io.vertx.core.Future;

/**
 * Where the webhook's serving certificate comes from: generated and kept in a Secret ({@link
 * CertificateManager}), or provided by someone else in files or a Secret ({@link
 * ProvidedCertificates}, for cert-manager and certificates made by hand). The webhook calls {@link
 * #ensure()} at start and then every {@code --cert-check-interval} seconds, and serves whatever
 * bundle the last call returned.
 */
public interface CertificateSource {

  /**
   * Returns the good bundle the webhook should serve now.
   *
   * @return a Future completed with the bundle and whether this call wrote it (only a generating
   *     source writes); failed with a message naming the file or Secret and the reason when no good
   *     bundle is available
   */
  Future<CertificateManager.Ensured> ensure();
}
