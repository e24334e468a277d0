package io.rollgate.webhook.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rollgate.api.Rollout;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.kube.ApiCallMetrics;
import io.rollgate.kube.KubeApiException;
import io.rollgate.kube.KubeCalls;
import io.rollgate.kube.RequestBudgets;
import io.rollgate.kube.TokenBucket;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The webhook's only way to the API server (informers aside): certificate Secrets, webhook
 * configurations, the policy audit's Rollout list and RolloutPolicy status. Built on the call core
 * the controller's facade uses ({@link KubeCalls}): a worker pool of its own ({@code
 * webhook-kube-api}), a timeout per call, a client-side rate limit, request metrics, and fencing.
 * Every method returns a Future completing on the caller's context and failing with {@link
 * KubeApiException}, which carries the HTTP status (0: no answer, a timeout, or a refused write).
 *
 * <p>One write convention, chosen by who else writes the object:
 *
 * <ul>
 *   <li>objects the webhook wholly owns (the webhook configurations it registers itself with {@code
 *       --register-url}) are written with server-side apply under the field manager {@value
 *       #FIELD_MANAGER}, forcing ownership: the applied object is the whole truth, and applying the
 *       same object again changes nothing;
 *   <li>every other change is a JSON merge patch (RFC 7386) carrying the {@code
 *       metadata.resourceVersion} that was read, so a concurrent writer (another replica, Helm,
 *       cert-manager, a user) makes it fail with 409 instead of being overwritten: the certificate
 *       Secret, the chart's webhook configurations ({@code caBundle}), and RolloutPolicy status,
 *       which is written only when the audit result changed;
 *   <li>an object that does not exist yet is created; of several replicas creating it, one wins and
 *       the others get 409.
 * </ul>
 *
 * <p>Fencing (docs/reliability.md): RolloutPolicy writes are the leader's work and are refused,
 * unsent, while {@link #leaderOnly} says this replica does not certainly hold the Lease;
 * certificate Secret and caBundle writes are not fenced, as every replica must be able to fill an
 * empty Secret before anyone leads, and their resourceVersion arbitrates. After {@link
 * #fence(String)} (shutdown) every write is refused.
 */
public final class WebhookApi {

  /** The field manager of the webhook's server-side applies. */
  public static final String FIELD_MANAGER = "rollgate-webhook";

  private static final String POLICIES = HasMetadata.getPlural(RolloutPolicy.class);

  private final KubeCalls calls;

  /**
   * Creates the facade and its worker pool.
   *
   * @param vertx the Vert.x instance whose contexts receive the results
   * @param client the fabric8 client (built on the same Vert.x instance)
   * @param poolSize the number of worker threads for blocking client calls
   * @param callTimeout the bound of one call (not counting the rate-limiter wait)
   * @param limiter the token bucket every call takes a token from, or null for no limit
   * @param metrics where requests and rate-limiter waits are recorded, or null
   */
  public WebhookApi(
      Vertx vertx,
      KubernetesClient client,
      int poolSize,
      Duration callTimeout,
      TokenBucket limiter,
      ApiCallMetrics metrics) {
    this(
        new KubeCalls(
            vertx,
            client,
            "webhook-kube-api",
            poolSize,
            callTimeout,
            limiter == null ? null : RequestBudgets.shared(limiter),
            metrics,
            true));
  }

  /**
   * Creates the facade over an existing call core (tests hand in one whose client they control).
   *
   * @param calls the call core
   */
  public WebhookApi(KubeCalls calls) {
    this.calls = calls;
  }

  /**
   * Fences the leader's writes (RolloutPolicy objects and their status) on the Lease.
   *
   * @param leading whether this replica certainly holds the Lease now; cheap and thread-safe
   */
  public void leaderOnly(BooleanSupplier leading) {
    calls.guardWrites(resource -> !resource.startsWith(POLICIES) || leading.getAsBoolean());
  }

  /**
   * Refuses every later write; used at shutdown.
   *
   * @param reason why, for the error message
   */
  public void fence(String reason) {
    calls.fence(reason);
  }

  /**
   * Returns the underlying client, for informers only (started once, by {@code ClusterWatch}).
   *
   * @return the fabric8 client
   */
  public KubernetesClient client() {
    return calls.client();
  }

  /**
   * Reads a Secret.
   *
   * @param namespace the namespace
   * @param name the name
   * @return the Secret, or null when it does not exist; fails with {@link KubeApiException} (403:
   *     RBAC)
   */
  public Future<Secret> getSecret(String namespace, String name) {
    return calls.get(Secret.class, namespace, name);
  }

  /**
   * Creates a Secret.
   *
   * @param secret the Secret, with its namespace set
   * @return the created Secret; fails with {@link KubeApiException} (409 when another writer
   *     created it first)
   */
  public Future<Secret> createSecret(Secret secret) {
    return calls.create(secret);
  }

  /**
   * Applies a JSON merge patch to a Secret.
   *
   * @param namespace the namespace
   * @param name the name
   * @param mergePatch the patch, with the {@code metadata.resourceVersion} read
   * @return the patched Secret; fails with {@link KubeApiException} (409 when it changed since it
   *     was read, 404 when gone)
   */
  public Future<Secret> patchSecret(String namespace, String name, String mergePatch) {
    return calls.patch(Secret.class, namespace, name, null, mergePatch);
  }

  /**
   * Reads a ValidatingWebhookConfiguration.
   *
   * @param name the name
   * @return the configuration, or null when it does not exist; fails with {@link KubeApiException}
   */
  public Future<ValidatingWebhookConfiguration> getValidatingConfiguration(String name) {
    return calls.get(ValidatingWebhookConfiguration.class, null, name);
  }

  /**
   * Reads a MutatingWebhookConfiguration.
   *
   * @param name the name
   * @return the configuration, or null when it does not exist; fails with {@link KubeApiException}
   */
  public Future<MutatingWebhookConfiguration> getMutatingConfiguration(String name) {
    return calls.get(MutatingWebhookConfiguration.class, null, name);
  }

  /**
   * Applies a JSON merge patch to a webhook configuration someone else owns.
   *
   * @param type {@code ValidatingWebhookConfiguration.class} or {@code
   *     MutatingWebhookConfiguration.class}
   * @param name the name
   * @param mergePatch the patch, with the {@code metadata.resourceVersion} read
   * @param <T> the configuration type
   * @return the patched configuration; fails with {@link KubeApiException} (409 when it changed
   *     since it was read)
   */
  public <T extends HasMetadata> Future<T> patchConfiguration(
      Class<T> type, String name, String mergePatch) {
    return calls.patch(type, null, name, null, mergePatch);
  }

  /**
   * Server-side applies a webhook configuration the webhook wholly owns.
   *
   * @param configuration the complete configuration
   * @param <T> the configuration type
   * @return the configuration as stored; fails with {@link KubeApiException}
   */
  public <T extends HasMetadata> Future<T> applyConfiguration(T configuration) {
    return calls.apply(configuration, FIELD_MANAGER);
  }

  /**
   * Lists one page of the Rollouts of every namespace.
   *
   * @param limit the page size, in Rollouts
   * @param continueToken the previous page's {@code metadata.continue}, or null for the first page
   * @return the page; fails with {@link KubeApiException}
   */
  public Future<KubernetesResourceList<Rollout>> listRollouts(long limit, String continueToken) {
    return calls.listPage(Rollout.class, limit, continueToken);
  }

  /**
   * Applies a JSON merge patch to a RolloutPolicy's {@code status} subresource; fenced on the
   * Lease.
   *
   * @param name the policy's name (cluster-scoped)
   * @param mergePatch the patch, with the {@code metadata.resourceVersion} read
   * @return the patched policy; fails with {@link KubeApiException} (409 when it changed since it
   *     was read, 404 when deleted, 0 when refused because this replica does not certainly lead)
   */
  public Future<RolloutPolicy> patchPolicyStatus(String name, String mergePatch) {
    return calls.patch(RolloutPolicy.class, null, name, "status", mergePatch);
  }

  /**
   * Releases the worker pool.
   *
   * @return a Future completing when closed
   */
  public Future<Void> close() {
    return calls.close();
  }
}
