package io.rollgate.controller.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * An informer item store that drops {@code metadata.managedFields} from every object it keeps.
 *
 * <p>The server-side-apply field ownership records are often the largest part of a small object (a
 * canary Rollout's ReplicaSet carries one entry per writer, each with the full field set), and the
 * controller never reads them. Writes are unaffected: the controller patches, and an update without
 * {@code managedFields} keeps the server's records (Kubernetes API convention: an absent {@code
 * managedFields} in a write leaves them as they are). Objects are keyed by {@code namespace/name},
 * as the informer's default store keys them.
 *
 * @param <T> the resource type
 */
public final class TrimmedItemStore<T extends HasMetadata> extends BasicItemStore<T> {

  /** A store keyed by {@code namespace/name}. */
  public TrimmedItemStore() {
    super(Cache::metaNamespaceKeyFunc);
  }

  /**
   * Keeps {@code object} without its {@code managedFields}.
   *
   * @param key the cache key
   * @param object the object from the watch or list; its managedFields are cleared in place
   * @return the object previously kept under the key, or null
   */
  @Override
  public T put(String key, T object) {
    if (object.getMetadata() != null) {
      object.getMetadata().setManagedFields(null);
    }
    return super.put(key, object);
  }

  /**
   * Gives an informer that has not been started a trimmed store.
   *
   * @param informer the informer, not yet running
   * @param <T> the resource type
   * @return the same informer
   * @throws IllegalStateException when the informer is already running (fabric8 refuses a store
   *     change then)
   */
  public static <T extends HasMetadata> SharedIndexInformer<T> trim(
      SharedIndexInformer<T> informer) {
    return informer.itemStore(new TrimmedItemStore<>());
  }
}
