package io.rollgate.controller.analysis.provider.common;

import io.fabric8.kubernetes.api.model.Secret;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Where metric providers read their credentials: Kubernetes Secrets, by default in the controller's
 * namespace (Argo's {@code datadog}, {@code newrelic} and {@code wavefront-api-tokens} Secrets live
 * next to the controller).
 */
public final class ProviderSecrets {

  private final BiFunction<String, String, Future<Secret>> reader;
  private final String controllerNamespace;

  /**
   * Creates the source.
   *
   * @param reader reads a Secret by namespace and name, completing with null when it does not exist
   *     (for example {@code KubeApi::getSecret}, which bounds the call with the API timeout)
   * @param controllerNamespace the controller's namespace, where {@code argo-rollouts-config} is
   *     read ({@code --plugin-config-namespace}, else {@code $POD_NAMESPACE}, else the watched
   *     namespace)
   */
  public ProviderSecrets(
      BiFunction<String, String, Future<Secret>> reader, String controllerNamespace) {
    this.reader = reader;
    this.controllerNamespace = controllerNamespace;
  }

  /**
   * The controller's namespace, where provider Secrets are looked up unless a metric says
   * otherwise.
   *
   * @return the namespace
   */
  public String controllerNamespace() {
    return controllerNamespace;
  }

  /**
   * Reads a Secret's data, decoded as UTF-8 text ({@code stringData} included, as the API server
   * would store it).
   *
   * @param namespace the namespace
   * @param name the Secret's name
   * @return the keys and values, or empty when the Secret does not exist; fails when it cannot be
   *     read
   */
  public Future<Optional<Map<String, String>>> read(String namespace, String name) {
    return reader
        .apply(namespace, name)
        .map(s -> Optional.ofNullable(s).map(ProviderSecrets::data));
  }

  /**
   * Reads a Secret that must exist.
   *
   * @param namespace the namespace
   * @param name the Secret's name
   * @return the decoded data; fails with {@code secrets "<name>" not found} (as Kubernetes words
   *     it) when absent
   */
  public Future<Map<String, String>> require(String namespace, String name) {
    return read(namespace, name)
        .compose(
            data ->
                data.map(Future::succeededFuture)
                    .orElseGet(
                        () ->
                            Future.failedFuture(
                                new MetricProviderException(
                                    "secrets \"" + name + "\" not found"))));
  }

  private static Map<String, String> data(Secret secret) {
    Map<String, String> out = new HashMap<>();
    if (secret.getData() != null) {
      secret
          .getData()
          .forEach(
              (k, v) ->
                  out.put(
                      k,
                      v == null
                          ? ""
                          : new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
    }
    if (secret.getStringData() != null) {
      out.putAll(secret.getStringData());
    }
    return out;
  }
}
