package io.rollgate.controller.kube;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.rollgate.api.ModelJson;
import io.rollgate.kube.KubeApiException;
import io.rollgate.kube.MergePatch;
import io.vertx.core.Future;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status write every reconciler ends its pass with: a JSON merge patch (RFC 7386) of the
 * difference between the status as read and the status the pass computed, carrying the {@code
 * metadata.resourceVersion} read, so a write over a newer object fails with 409 and never
 * overwrites it (the Kubernetes optimistic-concurrency convention); after a write the informer
 * cache is told of the object the API server returned. A status that did not change sends nothing.
 *
 * @param <T> the custom resource type
 */
public final class StatusPatch<T extends HasMetadata> {

  private static final Logger LOG = LoggerFactory.getLogger(StatusPatch.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private final KubeApi api;
  private final Class<T> type;
  private final String subresource;
  private final Consumer<T> wrote;

  /**
   * Creates the writer for one kind.
   *
   * @param api the API facade
   * @param type the model class
   * @param subresource {@code status} where the kind has a status subresource (Rollout), {@code
   *     null} where the status is written on the object itself (AnalysisRun and Experiment, as in
   *     Argo's CRDs)
   * @param wrote told of each object the API server returned after a write (the informer cache's
   *     {@code wrote})
   */
  public StatusPatch(KubeApi api, Class<T> type, String subresource, Consumer<T> wrote) {
    this.api = api;
    this.type = type;
    this.subresource = subresource;
    this.wrote = wrote;
  }

  /**
   * The merge patch that turns the status read into the new one.
   *
   * @param read the object as read (its {@code metadata.resourceVersion} guards the write)
   * @param before the status as read ({@code null} for none)
   * @param after the status the pass computed
   * @return the patch ({@code metadata.resourceVersion} and the changed {@code status} fields),
   *     empty when nothing changed
   */
  public Optional<ObjectNode> diff(T read, Object before, Object after) {
    return MergePatch.guarded(
        read.getMetadata().getResourceVersion(),
        "status",
        JSON.valueToTree(before),
        JSON.valueToTree(after));
  }

  /**
   * Sends a patch built by {@link #diff} and tells the cache of the result.
   *
   * @param read the object as read (namespace and name)
   * @param patch the patch
   * @return the object as written; fails with a 409 {@link KubeApiException} when the object
   *     changed since it was read, or with the API error
   */
  public Future<T> write(T read, ObjectNode patch) {
    String namespace = read.getMetadata().getNamespace();
    String name = read.getMetadata().getName();
    return api.patch(type, namespace, name, subresource, patch.toString())
        .onSuccess(
            updated -> {
              wrote.accept(updated);
              LOG.debug(
                  "{} {}/{} status patched: {}",
                  type.getSimpleName(),
                  namespace,
                  name,
                  patch.get("status"));
            });
  }
}
