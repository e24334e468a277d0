package io.rollgate.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * An informer event handler that only enqueues {@code namespace/name} keys on a {@link WorkQueue}
 * (with the trigger {@code watch}), after telling the cache about a deletion.
 *
 * <p>Which keys an object maps to, and which updates count, depend on the handler:
 *
 * <ul>
 *   <li>{@link #self}: the object's own key; every update counts, and one with an unchanged
 *       resourceVersion (the informer's periodic resync) is queued with the trigger {@code resync};
 *       a deletion enqueues nothing unless {@link #alsoOnDelete()};
 *   <li>{@link #controllerOwner}: the key of the object's controller (the owner reference with
 *       {@code controller: true}) when it is of the given kind; only an update with a new
 *       resourceVersion counts; a deletion enqueues the owner too;
 *   <li>{@link #mapped}: the keys computed by a function (objects that reference this one); by
 *       default as {@link #controllerOwner}, adjustable with {@link #updatesWhen} and {@link
 *       #alsoBeforeWhen}.
 * </ul>
 *
 * @param <T> the informer's kind
 */
public final class EnqueueHandler<T extends HasMetadata> implements ResourceEventHandler<T> {

  private static final String WATCH = "watch";
  private static final String RESYNC = "resync";

  private final WorkQueue queue;
  private final Function<T, List<String>> keys;
  private final BiConsumer<String, String> forget;
  private final boolean self;
  private final boolean enqueueOnDelete;
  private final BiPredicate<T, T> updateCounts;
  private final BiPredicate<T, T> beforeCounts;

  private EnqueueHandler(
      WorkQueue queue,
      Function<T, List<String>> keys,
      BiConsumer<String, String> forget,
      boolean self,
      boolean enqueueOnDelete,
      BiPredicate<T, T> updateCounts,
      BiPredicate<T, T> beforeCounts) {
    this.queue = queue;
    this.keys = keys;
    this.forget = forget;
    this.self = self;
    this.enqueueOnDelete = enqueueOnDelete;
    this.updateCounts = updateCounts;
    this.beforeCounts = beforeCounts;
  }

  /**
   * A handler for the kind the queue reconciles: each event enqueues the object itself.
   *
   * @param queue the queue
   * @param forget tells the cache that an object is gone: (namespace, name)
   * @param <T> the kind
   * @return the handler; a deletion only forgets
   */
  public static <T extends HasMetadata> EnqueueHandler<T> self(
      WorkQueue queue, BiConsumer<String, String> forget) {
    return new EnqueueHandler<>(
        queue, obj -> List.of(key(obj)), forget, true, false, (b, a) -> true, (b, a) -> false);
  }

  /**
   * A handler for a kind owned by the one the queue reconciles: each event with a new
   * resourceVersion, and each deletion, enqueues the object's controller when it is of {@code
   * ownerKind} (Kubernetes API conventions: owner references, at most one with {@code controller:
   * true}; the owner lives in the object's namespace).
   *
   * @param queue the queue
   * @param ownerKind the owner's kind, for example {@code Rollout}
   * @param forget tells the cache that an object is gone: (namespace, name)
   * @param <T> the kind
   * @return the handler
   */
  public static <T extends HasMetadata> EnqueueHandler<T> controllerOwner(
      WorkQueue queue, String ownerKind, BiConsumer<String, String> forget) {
    return mapped(queue, obj -> controllerOwnerKeys(obj, ownerKind), forget);
  }

  /**
   * A handler for a kind that objects of the reconciled kind refer to: each event with a new
   * resourceVersion, and each deletion, enqueues the keys {@code keys} maps the object to.
   *
   * @param queue the queue
   * @param keys the {@code namespace/name} keys to enqueue for an object, in order
   * @param forget tells the cache that an object is gone: (namespace, name)
   * @param <T> the kind
   * @return the handler
   */
  public static <T extends HasMetadata> EnqueueHandler<T> mapped(
      WorkQueue queue, Function<T, List<String>> keys, BiConsumer<String, String> forget) {
    return new EnqueueHandler<>(
        queue, keys, forget, false, true, EnqueueHandler::newResourceVersion, (b, a) -> false);
  }

  /**
   * The same handler, enqueueing on a deletion too (for the reconciled kind: the pass of a deleted
   * object releases what it held).
   *
   * @return a new handler
   */
  public EnqueueHandler<T> alsoOnDelete() {
    return new EnqueueHandler<>(queue, keys, forget, self, true, updateCounts, beforeCounts);
  }

  /**
   * The same handler, with another rule for which updates enqueue the new object's keys.
   *
   * @param counts given the object before and after the update, whether it enqueues
   * @return a new handler
   */
  public EnqueueHandler<T> updatesWhen(BiPredicate<T, T> counts) {
    return new EnqueueHandler<>(queue, keys, forget, self, enqueueOnDelete, counts, beforeCounts);
  }

  /**
   * The same handler, also enqueueing the old object's keys on an update when {@code counts} holds
   * (after the new object's keys), for a reference that the update removed.
   *
   * @param counts given the object before and after the update, whether the old keys enqueue
   * @return a new handler
   */
  public EnqueueHandler<T> alsoBeforeWhen(BiPredicate<T, T> counts) {
    return new EnqueueHandler<>(queue, keys, forget, self, enqueueOnDelete, updateCounts, counts);
  }

  @Override
  public void onAdd(T obj) {
    enqueue(obj, WATCH);
  }

  @Override
  public void onUpdate(T before, T after) {
    if (updateCounts.test(before, after)) {
      enqueue(after, self && !newResourceVersion(before, after) ? RESYNC : WATCH);
    }
    if (beforeCounts.test(before, after)) {
      enqueue(before, WATCH);
    }
  }

  @Override
  public void onDelete(T obj, boolean deletedFinalStateUnknown) {
    forget.accept(obj.getMetadata().getNamespace(), obj.getMetadata().getName());
    if (enqueueOnDelete) {
      enqueue(obj, WATCH);
    }
  }

  private void enqueue(T obj, String trigger) {
    for (String key : keys.apply(obj)) {
      queue.add(key, trigger);
    }
  }

  /**
   * Whether an update carries a new resourceVersion, that is, is not a resync of the cache.
   *
   * @param before the object before the update
   * @param after the object after it
   * @return true when the resourceVersions differ
   */
  public static boolean newResourceVersion(HasMetadata before, HasMetadata after) {
    return !Objects.equals(
        before.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion());
  }

  /**
   * Returns an object's work-queue key.
   *
   * @param obj a namespaced object
   * @return {@code namespace/name}
   */
  public static String key(HasMetadata obj) {
    return obj.getMetadata().getNamespace() + "/" + obj.getMetadata().getName();
  }

  private static List<String> controllerOwnerKeys(HasMetadata obj, String ownerKind) {
    List<OwnerReference> refs = obj.getMetadata().getOwnerReferences();
    if (refs == null) {
      return List.of();
    }
    List<String> keys = new ArrayList<>(1);
    for (OwnerReference ref : refs) {
      if (Boolean.TRUE.equals(ref.getController()) && ownerKind.equals(ref.getKind())) {
        keys.add(obj.getMetadata().getNamespace() + "/" + ref.getName());
      }
    }
    return keys;
  }
}
