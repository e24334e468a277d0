package io.rollgate.webhook;

import io.vertx.core.Future;

/**
 * Makes the API server trust the webhook's CA: writes the PEM CA bundle into the {@code caBundle}
 * of the webhook configurations, either by registering them whole ({@link WebhookRegistrar}, local
 * runs) or by patching only {@code caBundle} of configurations someone else owns ({@link
 * CaBundlePatcher}, the Helm chart).
 */
public interface CaBundlePublisher {

  /**
   * Publishes a CA bundle.
   *
   * @param caBundlePem the PEM CA certificate(s) the API server must trust; several during a CA
   *     rollover
   * @return a Future completed once published; failed with the client's exception when the API
   *     server refuses
   */
  Future<Void> publish(String caBundlePem);

  /**
   * Called on every periodic certificate check while the certificate is unchanged, so that a
   * publisher can repair a {@code caBundle} that was removed or replaced behind its back (by
   * default it does nothing).
   *
   * @param caBundlePem the PEM CA bundle that should be in place
   * @return a Future completed once checked (and repaired)
   */
  default Future<Void> refresh(String caBundlePem) {
    return Future.succeededFuture();
  }
}
