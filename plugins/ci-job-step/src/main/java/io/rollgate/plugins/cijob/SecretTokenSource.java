package io.rollgate.plugins.cijob;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Reads the bearer token from a Secret with the plugin's Kubernetes identity (the controller's: the
 * plugin process inherits it). The blocking read runs on a Vert.x worker thread. The token is never
 * logged.
 */
public final class SecretTokenSource implements TokenSource {

  private final Vertx vertx;
  private final KubernetesClient client;

  /**
   * Creates the source.
   *
   * @param vertx the Vert.x instance, for the worker thread
   * @param client the Kubernetes client
   */
  public SecretTokenSource(Vertx vertx, KubernetesClient client) {
    this.vertx = vertx;
    this.client = client;
  }

  @Override
  public Future<String> token(String namespace, String name, String key) {
    return vertx.executeBlocking(
        () -> {
          Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
          if (secret == null) {
            throw new IllegalStateException("Secret " + namespace + "/" + name + " not found");
          }
          String value = secret.getData() == null ? null : secret.getData().get(key);
          if (value != null) {
            return new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8).trim();
          }
          String plain = secret.getStringData() == null ? null : secret.getStringData().get(key);
          if (plain != null) {
            return plain.trim();
          }
          throw new IllegalStateException(
              "Secret " + namespace + "/" + name + " has no key " + key);
        },
        false);
  }
}
