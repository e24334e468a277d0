package io.rollgate.controller.kube;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rollgate.controller.metrics.ControllerMetrics;
import io.rollgate.kube.KubeApiException;
import io.rollgate.kube.KubeCalls;
import io.rollgate.kube.RequestBudgets;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The single asynchronous facade over the fabric8 client: every API-server call of the controller
 * goes through here.
 *
 * <p>Built on the shared call core {@link KubeCalls} (module {@code kube}), which the webhook uses
 * too. fabric8's synchronous DSL runs on a named worker pool ({@code kube-api}), never on an
 * event-loop thread; each call returns a Vert.x {@link Future} that completes on the caller's
 * context and fails with {@link KubeApiException} (carrying the HTTP status: 404, 409, 422, ...) or
 * a timeout. Writes are always patches or creates, so fields this controller does not know are
 * never overwritten.
 *
 * <p>Every call first takes a token from the client-side rate limiter ({@code --qps}/{@code
 * --burst}, like client-go's token bucket, one per API client as in Argo Rollouts: {@link
 * RequestBudgets}; fabric8 has none); when the bucket is empty the call waits on a Vert.x timer,
 * never a sleeping thread, and the wait is recorded ({@code rollgate_kube_api_throttle_seconds}).
 * Each request is counted by verb, resource and status code. Informer list/watch and the
 * leader-election Lease calls do not go through here: they are bounded by the informers' and the
 * elector's own schedules. Once {@link #fence()} is called (leadership lost, or shutting down after
 * the drain bound), every write fails at once, so a process that is no longer the leader cannot
 * write.
 */
public final class KubeApi {

  private final Vertx vertx;
  private final KubernetesClient client;
  private final KubeCalls calls;

  /**
   * Creates the facade with per-client request budgets ({@code --qps}/{@code --burst} per API
   * client, as Argo Rollouts counts them) and request metrics.
   *
   * @param vertx the Vert.x instance whose contexts receive the results
   * @param client the fabric8 client (built on the same Vert.x instance)
   * @param poolSize the number of worker threads for blocking client calls
   * @param callTimeout the bound of one call (not counting the rate-limiter wait), after which the
   *     Future fails
   * @param limiter the budgets every call takes a token from, by its resource, or null for no limit
   * @param metrics the meters to record requests and waits in, or null
   */
  public KubeApi(
      Vertx vertx,
      KubernetesClient client,
      int poolSize,
      Duration callTimeout,
      RequestBudgets limiter,
      ControllerMetrics metrics) {
    this.vertx = vertx;
    this.client = client;
    this.calls =
        new KubeCalls(vertx, client, "kube-api", poolSize, callTimeout, limiter, metrics, false);
  }

  /**
   * Makes every later write (any verb but {@code get}/{@code list}/{@code watch}) fail at once with
   * a {@link KubeApiException}; used when leadership is lost, and at shutdown.
   *
   * @param reason why, for the error message
   */
  public void fence(String reason) {
    calls.fence(reason);
  }

  /**
   * Makes every write first ask {@code allowed}, right before it is sent (on the worker thread,
   * after any rate-limiter wait); a write it refuses fails with a {@link KubeApiException} and is
   * never sent. The controller passes "this process certainly holds the leader Lease"
   * (docs/reliability.md).
   *
   * @param allowed asked before each write; must be cheap and thread-safe
   */
  public void guardWrites(java.util.function.BooleanSupplier allowed) {
    calls.guardWrites(resource -> allowed.getAsBoolean());
  }

  /**
   * Returns the underlying client, for informers only (they are started once, at boot).
   *
   * @return the fabric8 client
   */
  public KubernetesClient client() {
    return client;
  }

  /**
   * Runs a blocking client operation on the worker pool.
   *
   * @param verb the API verb, for errors and metrics ({@code get}, {@code patch}, ...)
   * @param resource the resource, for errors and metrics ({@code replicasets}, ...)
   * @param op the blocking operation
   * @param <T> the result type
   * @return a Future with the result, failed with {@link KubeApiException} on an API error or a
   *     timeout
   */
  public <T> Future<T> call(String verb, String resource, Callable<T> op) {
    return calls.call(verb, resource, op);
  }

  /**
   * Creates a ReplicaSet.
   *
   * @param rs the ReplicaSet to create
   * @return the created object, or a failure (409 when it already exists)
   */
  public Future<ReplicaSet> createReplicaSet(ReplicaSet rs) {
    return call(
        "create",
        "replicasets",
        () ->
            client
                .apps()
                .replicaSets()
                .inNamespace(rs.getMetadata().getNamespace())
                .resource(rs)
                .create());
  }

  /**
   * Reads a ReplicaSet straight from the API server (bypassing the informer cache).
   *
   * @param namespace the namespace
   * @param name the name
   * @return the ReplicaSet, or null when it does not exist
   */
  public Future<ReplicaSet> getReplicaSet(String namespace, String name) {
    return call(
        "get",
        "replicasets",
        () -> client.apps().replicaSets().inNamespace(namespace).withName(name).get());
  }

  /**
   * Applies a JSON merge patch (RFC 7386) to a ReplicaSet.
   *
   * @param namespace the namespace
   * @param name the name
   * @param mergePatch the patch document
   * @return the patched object
   */
  public Future<ReplicaSet> patchReplicaSet(String namespace, String name, String mergePatch) {
    return call(
        "patch",
        "replicasets",
        () ->
            client
                .apps()
                .replicaSets()
                .inNamespace(namespace)
                .resource(KubeCalls.named(new ReplicaSet(), namespace, name))
                .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch));
  }

  /**
   * Deletes a ReplicaSet (its pods are removed by the garbage collector).
   *
   * @param namespace the namespace
   * @param name the name
   * @return a Future completing once the API server accepted the deletion; a missing object is not
   *     an error
   */
  public Future<Void> deleteReplicaSet(String namespace, String name) {
    return call(
        "delete",
        "replicasets",
        () -> {
          client.apps().replicaSets().inNamespace(namespace).withName(name).delete();
          return null;
        });
  }

  /**
   * Creates a namespaced object of a custom or built-in type (for example an AnalysisRun or a
   * networking.k8s.io/v1 Ingress).
   *
   * @param obj the object; {@code metadata.namespace} is where it is created
   * @param <T> the model type
   * @return the created object; fails with {@link KubeApiException} (409 when an object of that
   *     name exists)
   */
  public <T extends HasMetadata> Future<T> create(T obj) {
    return calls.create(obj);
  }

  /**
   * Applies a JSON merge patch to an object of a custom or built-in type, on the main resource or a
   * subresource.
   *
   * @param type the model class
   * @param namespace the namespace
   * @param name the name
   * @param subresource {@code null} for the main resource, or for example {@code status}
   * @param mergePatch the patch; include {@code metadata.resourceVersion} for optimistic
   *     concurrency (409 when stale)
   * @param <T> the model type
   * @return the patched object
   */
  public <T extends HasMetadata> Future<T> patch(
      Class<T> type, String namespace, String name, String subresource, String mergePatch) {
    return calls.patch(type, namespace, name, subresource, mergePatch);
  }

  /**
   * Reads an object straight from the API server (bypassing the informer caches), for example to
   * confirm that a Rollout missing from the cache is really gone.
   *
   * @param type the model class
   * @param namespace the namespace
   * @param name the name
   * @param <T> the model type
   * @return the object, or null when it does not exist; fails with {@link KubeApiException} on
   *     other errors
   */
  public <T extends HasMetadata> Future<T> get(Class<T> type, String namespace, String name) {
    return calls.get(type, namespace, name);
  }

  /**
   * Applies a JSON merge patch (RFC 7386) to a core/v1 Service, for example to switch {@code
   * spec.selector.rollouts-pod-template-hash} and the {@code
   * argo-rollouts.argoproj.io/managed-by-rollouts} annotation.
   *
   * @param namespace the namespace
   * @param name the Service name
   * @param mergePatch the patch; include {@code metadata.resourceVersion} for optimistic
   *     concurrency (409 when stale)
   * @return the patched Service; fails with {@link KubeApiException} (404 when the Service is gone,
   *     409 when stale)
   */
  public Future<Service> patchService(String namespace, String name, String mergePatch) {
    return call(
        "patch",
        "services",
        () ->
            client
                .services()
                .inNamespace(namespace)
                .resource(KubeCalls.named(new Service(), namespace, name))
                .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch));
  }

  /**
   * Lists the pods of a namespace matching equality labels (for example a ReplicaSet's {@code
   * spec.selector.matchLabels}, which include {@code rollouts-pod-template-hash}), straight from
   * the API server, one page of at most {@code limit} pods.
   *
   * @param namespace the namespace
   * @param labels the labels every returned pod carries
   * @param limit the page size bound (pods)
   * @return the pods (at most {@code limit}); fails with {@link KubeApiException}
   */
  public Future<List<Pod>> listPods(String namespace, Map<String, String> labels, long limit) {
    return call(
        "list",
        "pods",
        () ->
            client
                .pods()
                .inNamespace(namespace)
                .withLabels(labels)
                .list(new ListOptionsBuilder().withLimit(limit).build())
                .getItems());
  }

  /**
   * Applies a JSON merge patch (RFC 7386) to a pod, for example its {@code metadata.labels}
   * (ephemeral metadata, which never restarts the pod).
   *
   * @param namespace the namespace
   * @param name the pod name
   * @param mergePatch the patch
   * @return the patched pod; fails with {@link KubeApiException} (404 when the pod is gone)
   */
  public Future<Pod> patchPod(String namespace, String name, String mergePatch) {
    return call(
        "patch",
        "pods",
        () ->
            client
                .pods()
                .inNamespace(namespace)
                .resource(KubeCalls.named(new Pod(), namespace, name))
                .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch));
  }

  /**
   * Evicts a pod through the Eviction API ({@code policy/v1}), which honours PodDisruptionBudgets.
   *
   * @param namespace the namespace
   * @param name the pod name
   * @return a Future completing with true when the eviction was accepted, false when it was refused
   *     for now (429: a disruption budget does not allow it); fails with {@link KubeApiException}
   *     on other errors
   */
  public Future<Boolean> evictPod(String namespace, String name) {
    return call(
        "create",
        "pods/eviction",
        () ->
            client
                .pods()
                .inNamespace(namespace)
                .withName(name)
                .evict(
                    new EvictionBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(namespace)
                        .endMetadata()
                        .build()));
  }

  /**
   * Whether an Event written now would be sent at once, without waiting for budget the other calls
   * use (Event writes take only idle budget, docs/compatibility.md §13.2).
   *
   * @return true when the Event budget is idle
   */
  public boolean eventBudgetIdle() {
    return calls.eventBudgetIdle();
  }

  /**
   * Creates a core/v1 Event.
   *
   * @param event the event
   * @return the created event
   */
  public Future<Event> createEvent(Event event) {
    return call(
        "create",
        "events",
        () ->
            client
                .v1()
                .events()
                .inNamespace(event.getMetadata().getNamespace())
                .resource(event)
                .create());
  }

  /**
   * Applies a JSON merge patch to a core/v1 Event (aggregation: count and lastTimestamp).
   *
   * @param namespace the namespace
   * @param name the event name
   * @param mergePatch the patch
   * @return the patched event
   */
  public Future<Event> patchEvent(String namespace, String name, String mergePatch) {
    return call(
        "patch",
        "events",
        () ->
            client
                .v1()
                .events()
                .inNamespace(namespace)
                .resource(KubeCalls.named(new Event(), namespace, name))
                .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch));
  }

  /**
   * Lists the objects of a typed kind in one namespace, straight from the API server.
   *
   * @param type the model class
   * @param namespace the namespace
   * @param <T> the model type
   * @return the objects; fails with {@link KubeApiException}
   */
  public <T extends HasMetadata> Future<List<T>> list(Class<T> type, String namespace) {
    return calls.list(type, namespace);
  }

  /**
   * Deletes an object of a typed kind.
   *
   * @param type the model class
   * @param namespace the namespace
   * @param name the name
   * @param <T> the model type
   * @return a Future completing once the API server accepted the deletion; a missing object is not
   *     an error
   */
  public <T extends HasMetadata> Future<Void> delete(Class<T> type, String namespace, String name) {
    return calls.delete(type, namespace, name);
  }

  /**
   * Creates a {@code batch/v1} Job.
   *
   * @param job the Job; {@code metadata.namespace} is where it is created
   * @return the created Job; fails with {@link KubeApiException} (409 when a Job of that name
   *     exists)
   */
  public Future<Job> createJob(Job job) {
    return call(
        "create",
        "jobs",
        () ->
            client
                .batch()
                .v1()
                .jobs()
                .inNamespace(job.getMetadata().getNamespace())
                .resource(job)
                .create());
  }

  /**
   * Reads a Job straight from the API server.
   *
   * @param namespace the namespace
   * @param name the name
   * @return the Job, or null when it does not exist
   */
  public Future<Job> getJob(String namespace, String name) {
    return call(
        "get",
        "jobs",
        () -> client.batch().v1().jobs().inNamespace(namespace).withName(name).get());
  }

  /**
   * Lists the Jobs of a namespace carrying the given labels.
   *
   * @param namespace the namespace
   * @param labels equality labels every returned Job carries
   * @return the Jobs
   */
  public Future<List<Job>> listJobs(String namespace, Map<String, String> labels) {
    return call(
        "list",
        "jobs",
        () ->
            client.batch().v1().jobs().inNamespace(namespace).withLabels(labels).list().getItems());
  }

  /**
   * Deletes a Job with foreground propagation: the Job stays (with a deletion timestamp) until the
   * garbage collector has deleted its pods.
   *
   * @param namespace the namespace
   * @param name the name
   * @return a Future completing once the API server accepted the deletion; a missing Job is not an
   *     error
   */
  public Future<Void> deleteJobForeground(String namespace, String name) {
    return call(
        "delete",
        "jobs",
        () -> {
          client
              .batch()
              .v1()
              .jobs()
              .inNamespace(namespace)
              .withName(name)
              .withPropagationPolicy(DeletionPropagation.FOREGROUND)
              .delete();
          return null;
        });
  }

  /**
   * Reads a Secret straight from the API server (Secrets are never cached by the controller).
   *
   * @param namespace the namespace
   * @param name the name
   * @return the Secret, or null when it does not exist
   */
  public Future<Secret> getSecret(String namespace, String name) {
    return call(
        "get", "secrets", () -> client.secrets().inNamespace(namespace).withName(name).get());
  }

  /**
   * Reads an object of a kind the controller has no Java model for (a traffic router's custom
   * resource, such as an Istio VirtualService or a Gateway API HTTPRoute), straight from the API
   * server.
   *
   * @param apiVersion the {@code group/version}, for example {@code gateway.networking.k8s.io/v1}
   * @param kind the kind, for example {@code HTTPRoute}
   * @param namespace the namespace
   * @param name the name
   * @return the object, or null when it does not exist; fails with {@link KubeApiException} (404
   *     also when the kind is not served by the API server)
   */
  public Future<GenericKubernetesResource> getGeneric(
      String apiVersion, String kind, String namespace, String name) {
    return call(
        "get",
        kind.toLowerCase(java.util.Locale.ROOT),
        () -> genericClient(apiVersion, kind).inNamespace(namespace).withName(name).get());
  }

  /**
   * Lists the objects of a kind the controller has no Java model for in one namespace, straight
   * from the API server.
   *
   * @param apiVersion the {@code group/version}, for example {@code networking.istio.io/v1alpha3}
   * @param kind the kind, for example {@code DestinationRule}
   * @param namespace the namespace
   * @return the objects (empty when there are none); fails with {@link KubeApiException} (404 when
   *     the kind is not served by the API server)
   */
  public Future<List<GenericKubernetesResource>> listGeneric(
      String apiVersion, String kind, String namespace) {
    return call(
        "list",
        kind.toLowerCase(java.util.Locale.ROOT),
        () -> genericClient(apiVersion, kind).inNamespace(namespace).list().getItems());
  }

  /**
   * Creates an object of a kind the controller has no Java model for.
   *
   * @param obj the object, with apiVersion, kind and namespace set
   * @return the created object; fails with {@link KubeApiException} (409 when it already exists)
   */
  public Future<GenericKubernetesResource> createGeneric(GenericKubernetesResource obj) {
    return call(
        "create",
        obj.getKind().toLowerCase(java.util.Locale.ROOT),
        () ->
            genericClient(obj.getApiVersion(), obj.getKind())
                .inNamespace(obj.getMetadata().getNamespace())
                .resource(obj)
                .create());
  }

  /**
   * Applies a JSON merge patch (RFC 7386) to an object of a kind the controller has no Java model
   * for. Arrays in the patch replace the stored arrays whole, so a patch that rewrites route lists
   * must carry the complete list and {@code metadata.resourceVersion}.
   *
   * @param apiVersion the {@code group/version}
   * @param kind the kind
   * @param namespace the namespace
   * @param name the name
   * @param mergePatch the patch
   * @return the patched object; fails with {@link KubeApiException} (404 when gone, 409 when stale)
   */
  public Future<GenericKubernetesResource> patchGeneric(
      String apiVersion, String kind, String namespace, String name, String mergePatch) {
    return call(
        "patch",
        kind.toLowerCase(java.util.Locale.ROOT),
        () ->
            genericClient(apiVersion, kind)
                .inNamespace(namespace)
                .resource(KubeCalls.named(generic(apiVersion, kind), namespace, name))
                .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch));
  }

  private static GenericKubernetesResource generic(String apiVersion, String kind) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setApiVersion(apiVersion);
    r.setKind(kind);
    return r;
  }

  /**
   * Deletes an object of a kind the controller has no Java model for.
   *
   * @param apiVersion the {@code group/version}, for example {@code apisix.apache.org/v2}
   * @param kind the kind, for example {@code ApisixRoute}
   * @param namespace the namespace
   * @param name the name
   * @return a Future completing once the API server accepted the deletion; a missing object is not
   *     an error; fails with {@link KubeApiException} on other errors
   */
  public Future<Void> deleteGeneric(String apiVersion, String kind, String namespace, String name) {
    return call(
        "delete",
        kind.toLowerCase(java.util.Locale.ROOT),
        () -> {
          genericClient(apiVersion, kind).inNamespace(namespace).withName(name).delete();
          return null;
        });
  }

  /**
   * Releases the worker pool.
   *
   * @return a Future completing when closed
   */
  public Future<Void> close() {
    return calls.close();
  }

  /**
   * The client for a kind without a Java model. The client resolves the kind's plural through
   * discovery; a kind the API server does not serve (its CRD is not installed) fails here as a 404,
   * as a list or get of it would, so callers tell "not installed" from an API failure by the code
   * (docs/traffic-routers.md).
   */
  private MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      genericClient(String apiVersion, String kind) {
    try {
      return client.genericKubernetesResources(apiVersion, kind);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 0
          && String.valueOf(e.getMessage()).startsWith("Could not find the metadata")) {
        throw new KubernetesClientException(
            new StatusBuilder()
                .withCode(404)
                .withReason("NotFound")
                .withMessage("the API server serves no " + kind + " in " + apiVersion)
                .build());
      }
      throw e;
    }
  }

  /** Vert.x instance the facade completes on; exposed for components that share its timers. */
  Vertx vertx() {
    return vertx;
  }
}
