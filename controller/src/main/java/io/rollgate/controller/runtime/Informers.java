package io.rollgate.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rollgate.controller.kube.TrimmedItemStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The informers of one controller process: one per kind, created with the process's namespace scope
 * and resync period, started together and stopped together.
 *
 * <p>Each informer keeps its objects without {@code metadata.managedFields} ({@link
 * TrimmedItemStore}). Its events are wired to a {@link WorkQueue} with an {@link EnqueueHandler},
 * which only enqueues {@code namespace/name} keys. {@link #start()} completes once every cache has
 * synced; {@link #lost()} fails as soon as one informer stops on its own, which means that its
 * watch could not be re-established and its cache no longer follows the cluster.
 *
 * <p>Create the informers and register their handlers before {@link #start()}; the instance is
 * meant for one Vert.x context.
 */
public final class Informers {

  private final Vertx vertx;
  private final KubernetesClient client;
  private final String namespace;
  private final long resyncMillis;
  private final List<Named> informers = new ArrayList<>();
  private final Promise<Void> lost = Promise.promise();
  private volatile boolean stopping;

  private record Named(String name, SharedIndexInformer<?> informer) {}

  /**
   * Creates an empty set.
   *
   * @param vertx the Vert.x instance; {@link #start()} reports the syncs on the caller's context
   * @param client the fabric8 client the informers list and watch with
   * @param namespace the only namespace watched ({@code --namespaced}), or null for all namespaces
   * @param resync the informers' resync period ({@code --rollout-resync}); every cached object is
   *     delivered again as an update with an unchanged resourceVersion at this interval
   */
  public Informers(Vertx vertx, KubernetesClient client, String namespace, Duration resync) {
    this.vertx = vertx;
    this.client = client;
    this.namespace = namespace;
    this.resyncMillis = resync.toMillis();
  }

  /**
   * Creates the informer of a namespaced kind, in the process's namespace scope, without label
   * selector or index.
   *
   * @param name the plural name used in logs and in the error of {@link #lost()}, for example
   *     {@code deployments}
   * @param type the kind's class
   * @param <T> the kind
   * @return the informer, not yet started
   */
  public <T extends HasMetadata> SharedIndexInformer<T> watch(String name, Class<T> type) {
    return watch(name, type, null, Map.of());
  }

  /**
   * Creates the informer of a namespaced kind, in the process's namespace scope.
   *
   * @param name the plural name used in logs and in the error of {@link #lost()}
   * @param type the kind's class
   * @param labelSelector the label selector of its list and watch (Kubernetes label selector
   *     syntax, for example {@code !argo-rollouts.argoproj.io/controller-instance-id}), or null for
   *     every object
   * @param indexers the cache indexes, by index name; empty for none
   * @param <T> the kind
   * @return the informer, not yet started
   */
  public <T extends HasMetadata> SharedIndexInformer<T> watch(
      String name,
      Class<T> type,
      String labelSelector,
      Map<String, Function<T, List<String>>> indexers) {
    var all = client.resources(type);
    var scoped = namespace == null ? all.inAnyNamespace() : all.inNamespace(namespace);
    var informable =
        labelSelector == null
            ? scoped.withIndexers(indexers)
            : scoped.withLabelSelector(labelSelector).withIndexers(indexers);
    return add(name, TrimmedItemStore.trim(informable.runnableInformer(resyncMillis)));
  }

  /**
   * Creates the informer of a cluster-scoped kind (the namespace scope does not apply).
   *
   * @param name the plural name used in logs and in the error of {@link #lost()}
   * @param type the kind's class
   * @param <T> the kind
   * @return the informer, not yet started
   */
  public <T extends HasMetadata> SharedIndexInformer<T> watchClusterScoped(
      String name, Class<T> type) {
    return add(name, TrimmedItemStore.trim(client.resources(type).runnableInformer(resyncMillis)));
  }

  /**
   * Adds an informer created elsewhere, so that it is started, watched for loss and stopped with
   * the others.
   *
   * @param name the plural name used in logs and in the error of {@link #lost()}
   * @param informer the informer, not yet started
   * @param <T> the kind
   * @return the same informer
   */
  public <T extends HasMetadata> SharedIndexInformer<T> add(
      String name, SharedIndexInformer<T> informer) {
    informers.add(new Named(name, informer));
    return informer;
  }

  /**
   * Starts every informer, in the order they were created.
   *
   * @return a Future completing on the caller's context once every cache has synced, failing when
   *     an informer cannot list (for example its CRD is not installed, or RBAC refuses the list)
   */
  public Future<Void> start() {
    List<Future<Void>> synced = new ArrayList<>();
    for (Named n : informers) {
      synced.add(
          Future.fromCompletionStage(n.informer().start(), vertx.getOrCreateContext()).mapEmpty());
      watchForLoss(n);
    }
    return Future.all(synced).mapEmpty();
  }

  private void watchForLoss(Named n) {
    n.informer()
        .stopped()
        .whenComplete(
            (v, err) -> {
              if (!stopping) {
                lost.tryFail(
                    new IllegalStateException(
                        "informer for "
                            + n.name()
                            + " stopped: "
                            + (err == null ? "no error given" : err.getMessage()),
                        err));
              }
            });
  }

  /**
   * Fails when an informer stopped on its own (its watch could not be re-established): the caches
   * no longer follow the cluster, so the process must not keep reconciling from them.
   *
   * @return a Future failing with an {@link IllegalStateException} naming the informer and carrying
   *     its error; never completes successfully
   */
  public Future<Void> lost() {
    return lost.future();
  }

  /**
   * Stops every informer; from now on an informer that stops is not reported by {@link #lost()}.
   */
  public void stop() {
    stopping = true;
    for (Named n : informers) {
      n.informer().stop();
    }
  }
}
