package io.rollgate.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.vertx.core.Vertx;

/**
 * fabric8's Vert.x HTTP client factory, whose clients try fabric8's token refresh at most once a
 * minute when the kubeconfig has no credential to refresh ({@link ThrottledTokenRefresh}). The
 * controller and the webhook build their Kubernetes clients with it.
 */
public class KubeClientFactory extends Vertx5HttpClientFactory {

  /**
   * Creates the factory over a Vert.x instance.
   *
   * @param vertx the Vert.x instance whose event loops run the clients
   */
  public KubeClientFactory(Vertx vertx) {
    super(vertx);
  }

  /**
   * fabric8's builder for a configuration, with its token interceptor wrapped in {@link
   * ThrottledTokenRefresh}.
   *
   * @param config the client's configuration
   * @return the builder
   */
  @Override
  public HttpClient.Builder newBuilder(Config config) {
    return ThrottledTokenRefresh.install(super.newBuilder(config), config, this);
  }
}
