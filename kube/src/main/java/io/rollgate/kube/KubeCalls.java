package io.rollgate.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * The core both programs reach the API server through: fabric8's synchronous DSL run on a named
 * worker pool, never on an event loop, each call bounded by a timeout, rate limited, counted, and
 * refused once the process may no longer write (docs/architecture.md, docs/reliability.md). The
 * controller's {@code KubeApi} and the webhook's {@code WebhookApi} are built on it.
 *
 * <p>Every call returns a Vert.x {@link Future} that completes on the caller's context and fails
 * with {@link KubeApiException}: the HTTP status of an API error (404, 409, 422, ...), or 0 with
 * {@code refused: ...} for a fenced write. A call that took longer than the timeout fails with a
 * {@link KubeApiException} (code 0, {@code timed out}) when the core was built with {@code
 * timeoutAsApiError}, or else with Vert.x's {@link TimeoutException} (the controller's callers tell
 * a timeout by that type).
 *
 * <p>Each call first takes a token from the client-side rate limiter (client-go's token bucket;
 * fabric8 has none); when the bucket is empty the call waits on a Vert.x timer, never a sleeping
 * thread. A write (any verb but {@code get}, {@code list} and {@code watch}) is checked twice,
 * before the wait and again on the worker right before it is sent: it fails at once after {@link
 * #fence(String)}, and whenever the guard set with {@link #guardWrites(Predicate)} refuses it.
 */
public final class KubeCalls {

  private final Vertx vertx;
  private final KubernetesClient client;
  private final WorkerExecutor executor;
  private final Duration callTimeout;
  private final RequestBudgets limiter;
  private final ApiCallMetrics metrics;
  private final boolean timeoutAsApiError;
  private volatile String fenced;
  private volatile Predicate<String> mayWrite = resource -> true;

  /**
   * The resource whose calls wait for idle budget: Events, which report what happened and never
   * change it, so they never delay a write that does (docs/compatibility.md §14).
   */
  private static final String LOW_PRIORITY = "events";

  private final Map<TokenBucket, IdleLane> lanes = new ConcurrentHashMap<>();

  /**
   * Creates the core and its worker pool, with a request budget per API client ({@link
   * RequestBudgets}); a program with a single budget passes {@link
   * RequestBudgets#shared(TokenBucket)}.
   *
   * @param vertx the Vert.x instance whose contexts receive the results
   * @param client the fabric8 client (built on the same Vert.x instance)
   * @param poolName the worker pool's name, which its threads carry ({@code kube-api}, {@code
   *     webhook-kube-api})
   * @param poolSize the number of worker threads for blocking client calls
   * @param callTimeout the bound of one call, not counting the rate-limiter wait
   * @param limiter the budgets every call takes a token from, by its resource, or null for no limit
   * @param metrics where requests and waits are recorded, or null
   * @param timeoutAsApiError whether a timed-out call fails with a {@link KubeApiException} (code
   *     0) rather than a {@link TimeoutException}
   */
  public KubeCalls(
      Vertx vertx,
      KubernetesClient client,
      String poolName,
      int poolSize,
      Duration callTimeout,
      RequestBudgets limiter,
      ApiCallMetrics metrics,
      boolean timeoutAsApiError) {
    this.vertx = vertx;
    this.client = client;
    this.executor = vertx.createSharedWorkerExecutor(poolName, poolSize);
    this.callTimeout = callTimeout;
    this.limiter = limiter;
    this.metrics = metrics;
    this.timeoutAsApiError = timeoutAsApiError;
  }

  /**
   * Makes every later write fail at once with a {@link KubeApiException}; used when leadership is
   * lost, and at shutdown.
   *
   * @param reason why, for the error message
   */
  public void fence(String reason) {
    fenced = reason;
  }

  /**
   * Makes every write first ask {@code allowed}, right before it is sent (on the worker thread,
   * after any rate-limiter wait); a write it refuses fails with a {@link KubeApiException} and is
   * never sent.
   *
   * @param allowed told the resource of the write ({@code rolloutpolicies/status}, ...), answers
   *     whether it may be sent now; must be cheap and thread-safe
   */
  public void guardWrites(Predicate<String> allowed) {
    mayWrite = allowed;
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
   * @return a Future with the result, failed with {@link KubeApiException} on an API error, a
   *     refusal or a timeout
   */
  public <T> Future<T> call(String verb, String resource, Callable<T> op) {
    String refusal = refusal(verb, resource);
    if (refusal != null) {
      return Future.failedFuture(refused(verb, resource, refusal));
    }
    if (limiter != null && LOW_PRIORITY.equals(resource)) {
      return whenIdle(verb, resource, op);
    }
    long waitNanos = limiter == null ? 0 : limiter.reserve(resource);
    if (metrics != null) {
      metrics.throttled(waitNanos);
    }
    if (waitNanos <= 0) {
      return execute(verb, resource, op);
    }
    return vertx.timer(waitNanos, TimeUnit.NANOSECONDS).compose(t -> execute(verb, resource, op));
  }

  /**
   * Whether an Event write made now would be sent at once rather than wait for idle budget ({@link
   * IdleLane}): always true without a rate limit. A snapshot, for callers that wait for an Event
   * only when it costs no budget wait.
   *
   * @return true when the Event budget has a free token and no Event write waits
   */
  public boolean eventBudgetIdle() {
    if (limiter == null) {
      return true;
    }
    TokenBucket bucket = limiter.bucket(LOW_PRIORITY);
    IdleLane lane = lanes.get(bucket);
    return lane == null ? bucket.available() >= 1 : lane.idle();
  }

  /**
   * Runs an Event write when its client's budget has a token no other call waits for ({@link
   * IdleLane}); its wait is recorded like a reservation's.
   */
  private <T> Future<T> whenIdle(String verb, String resource, Callable<T> op) {
    Promise<T> result = Promise.promise();
    long queued = System.nanoTime();
    lanes
        .computeIfAbsent(limiter.bucket(resource), b -> new IdleLane(vertx, b))
        .submit(
            () -> {
              if (metrics != null) {
                metrics.throttled(System.nanoTime() - queued);
              }
              execute(verb, resource, op).onComplete(result);
            });
    return result.future();
  }

  private <T> Future<T> execute(String verb, String resource, Callable<T> op) {
    Future<T> result =
        executor
            .executeBlocking(
                () -> {
                  String refusal = refusal(verb, resource);
                  if (refusal != null) {
                    throw refused(verb, resource, refusal);
                  }
                  try {
                    return op.call();
                  } catch (KubernetesClientException e) {
                    throw new KubeApiException(verb, resource, e.getCode(), message(e), e);
                  }
                },
                false)
            .timeout(callTimeout.toMillis(), TimeUnit.MILLISECONDS)
            .recover(
                err ->
                    Future.failedFuture(
                        timeoutAsApiError && err instanceof TimeoutException
                            ? new KubeApiException(
                                verb,
                                resource,
                                0,
                                "timed out after " + callTimeout.toMillis() + " ms",
                                err)
                            : err));
    record(verb, resource, result);
    return result;
  }

  private void record(String verb, String resource, Future<?> result) {
    if (metrics != null) {
      result.onComplete(
          ar ->
              metrics.apiRequest(
                  verb, resource, statusCode(verb, ar.succeeded(), ar.result(), ar.cause())));
    }
  }

  private static KubeApiException refused(String verb, String resource, String why) {
    return new KubeApiException(verb, resource, 0, "refused: " + why, null);
  }

  /** Why a call with this verb may not be sent now, or null when it may. */
  private String refusal(String verb, String resource) {
    if ("get".equals(verb) || "list".equals(verb) || "watch".equals(verb)) {
      return null;
    }
    String f = fenced;
    if (f != null) {
      return f;
    }
    return mayWrite.test(resource) ? null : "this process does not certainly hold the leader Lease";
  }

  private static String statusCode(String verb, boolean ok, Object result, Throwable err) {
    if (ok) {
      if ("get".equals(verb) && result == null) {
        return "404";
      }
      return "create".equals(verb) ? "201" : "200";
    }
    if (err instanceof KubeApiException e && e.code() > 0) {
      return String.valueOf(e.code());
    }
    if (err instanceof TimeoutException
        || err instanceof KubeApiException e && e.getCause() instanceof TimeoutException) {
      return "timeout";
    }
    return err instanceof KubeApiException ? "refused" : "error";
  }

  /**
   * Reads an object straight from the API server (bypassing any informer cache).
   *
   * @param type the model class
   * @param namespace the namespace, or null for a cluster-scoped kind
   * @param name the name
   * @param <T> the model type
   * @return the object, or null when it does not exist; fails with {@link KubeApiException} on
   *     other errors
   */
  public <T extends HasMetadata> Future<T> get(Class<T> type, String namespace, String name) {
    return call(
        "get", HasMetadata.getPlural(type), () -> scoped(type, namespace).withName(name).get());
  }

  /**
   * Lists every object of a kind in one namespace, straight from the API server.
   *
   * @param type the model class
   * @param namespace the namespace
   * @param <T> the model type
   * @return the objects; fails with {@link KubeApiException}
   */
  public <T extends HasMetadata> Future<List<T>> list(Class<T> type, String namespace) {
    return call(
        "list",
        HasMetadata.getPlural(type),
        () -> client.resources(type).inNamespace(namespace).list().getItems());
  }

  /**
   * Lists one page of the objects of a kind in every namespace (API {@code limit} and {@code
   * continue}).
   *
   * @param type the model class
   * @param limit the page size bound, in objects
   * @param continueToken the {@code metadata.continue} of the previous page, or null for the first
   * @param <T> the model type
   * @return the page (its {@code metadata.continue} is empty on the last); fails with {@link
   *     KubeApiException} (410 when the token expired)
   */
  public <T extends HasMetadata> Future<KubernetesResourceList<T>> listPage(
      Class<T> type, long limit, String continueToken) {
    return call(
        "list",
        HasMetadata.getPlural(type),
        () ->
            client
                .resources(type)
                .inAnyNamespace()
                .list(
                    new ListOptionsBuilder().withLimit(limit).withContinue(continueToken).build()));
  }

  /**
   * Creates an object.
   *
   * @param obj the object; {@code metadata.namespace} is where it is created (none for a
   *     cluster-scoped kind)
   * @param <T> the model type
   * @return the created object; fails with {@link KubeApiException} (409 when an object of that
   *     name exists)
   */
  @SuppressWarnings("unchecked")
  public <T extends HasMetadata> Future<T> create(T obj) {
    Class<T> type = (Class<T>) obj.getClass();
    return call(
        "create",
        HasMetadata.getPlural(type),
        () -> scoped(type, obj.getMetadata().getNamespace()).resource(obj).create());
  }

  /**
   * Applies a JSON merge patch (RFC 7386) to an object, on the main resource or a subresource.
   *
   * @param type the model class
   * @param namespace the namespace, or null for a cluster-scoped kind
   * @param name the name
   * @param subresource {@code null} for the main resource, or for example {@code status}
   * @param mergePatch the patch; include {@code metadata.resourceVersion} for optimistic
   *     concurrency (409 when stale)
   * @param <T> the model type
   * @return the patched object; fails with {@link KubeApiException} (404 when gone, 409 when stale)
   */
  public <T extends HasMetadata> Future<T> patch(
      Class<T> type, String namespace, String name, String subresource, String mergePatch) {
    String resource = HasMetadata.getPlural(type) + (subresource == null ? "" : "/" + subresource);
    return call(
        "patch",
        resource,
        () -> {
          var op = scoped(type, namespace).resource(named(newInstance(type), namespace, name));
          PatchContext ctx = PatchContext.of(PatchType.JSON_MERGE);
          return subresource == null
              ? op.patch(ctx, mergePatch)
              : op.subresource(subresource).patch(ctx, mergePatch);
        });
  }

  /**
   * Server-side applies an object this process wholly owns, taking over any field another manager
   * set ({@code force}).
   *
   * @param obj the complete desired object
   * @param fieldManager the field manager that owns what is applied
   * @param <T> the model type
   * @return the object as stored; fails with {@link KubeApiException}
   */
  @SuppressWarnings("unchecked")
  public <T extends HasMetadata> Future<T> apply(T obj, String fieldManager) {
    Class<T> type = (Class<T>) obj.getClass();
    return call(
        "apply",
        HasMetadata.getPlural(type),
        () ->
            scoped(type, obj.getMetadata().getNamespace())
                .resource(obj)
                .fieldManager(fieldManager)
                .forceConflicts()
                .serverSideApply());
  }

  /**
   * Deletes an object.
   *
   * @param type the model class
   * @param namespace the namespace
   * @param name the name
   * @param <T> the model type
   * @return a Future completing once the API server accepted the deletion; a missing object is not
   *     an error
   */
  public <T extends HasMetadata> Future<Void> delete(Class<T> type, String namespace, String name) {
    return call(
        "delete",
        HasMetadata.getPlural(type),
        () -> {
          client.resources(type).inNamespace(namespace).withName(name).delete();
          return null;
        });
  }

  /**
   * Releases the worker pool.
   *
   * @return a Future completing when closed
   */
  public Future<Void> close() {
    return executor.close();
  }

  private <T extends HasMetadata>
      NonNamespaceOperation<T, KubernetesResourceList<T>, Resource<T>> scoped(
          Class<T> type, String namespace) {
    return namespace == null
        ? client.resources(type)
        : client.resources(type).inNamespace(namespace);
  }

  /**
   * Names an empty object, so that a patch through it goes straight to the API server: fabric8's
   * {@code patch(PatchContext, String)} on a name alone first GETs the object (a request per write
   * that neither the rate limiter nor the request metrics saw); with an item it only takes the
   * item's name and namespace for the URL. The patch document alone says what changes.
   *
   * @param obj an empty object of the kind to patch
   * @param namespace the namespace, or null for a cluster-scoped kind
   * @param name the name
   * @param <T> the model type
   * @return {@code obj}, with only its namespace and name set
   */
  public static <T extends HasMetadata> T named(T obj, String namespace, String name) {
    obj.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
    return obj;
  }

  private static <T extends HasMetadata> T newInstance(Class<T> type) {
    try {
      return type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(
          type.getName() + " has no public no-argument constructor", e);
    }
  }

  private static String message(KubernetesClientException e) {
    if (e.getStatus() != null && e.getStatus().getMessage() != null) {
      return e.getStatus().getMessage();
    }
    return e.getMessage();
  }
}
