package io.rollgate.lease;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;

/**
 * The last check before a request leaves the process: a fabric8 HTTP {@link Interceptor} that refuses every request
 * other than a read (GET) while the process does not certainly hold its leader Lease (docs/reliability.md). The
 * controller fences every write; the webhook only those that are the leader's work ({@link #WriteFence(BiPredicate)}).
 *
 * <p>{@link KubeApi} already checks before each call, but one facade call can send several requests (fabric8 reads an
 * object before it patches it), and a process frozen between the check and the last request would otherwise send that
 * request when it resumes. Requests to the {@code coordination.k8s.io} API are let through: the Lease's own optimistic
 * concurrency arbitrates them, and the elector must be able to renew.
 */
public final class WriteFence implements Interceptor {

  /** The interceptor's name in fabric8's HTTP client builder. */
  public static final String NAME = "rollgate-write-fence";

  private volatile BooleanSupplier allowed = () -> true;
  private final BiPredicate<String, String> leaderOnly;

  /** A fence over every write (the controller's: all its writes are the leader's). */
  public WriteFence() {
    this((method, path) -> true);
  }

  /**
   * A fence over some writes only.
   *
   * @param leaderOnly which requests (HTTP method, request path) only the Lease holder may send; reads (GET) and
   *     {@code coordination.k8s.io} requests are never refused, whatever it says
   */
  public WriteFence(BiPredicate<String, String> leaderOnly) {
    this.leaderOnly = leaderOnly;
  }

  /**
   * Sets what decides whether a write may be sent; until called, every write may.
   *
   * @param allowed asked before each request that is not a read; must be cheap and thread-safe
   */
  public void guard(BooleanSupplier allowed) {
    this.allowed = allowed;
  }

  /**
   * Whether a request with this method and path would be refused now.
   *
   * @param method the HTTP method
   * @param path the request path
   * @return true when it must not be sent
   */
  public boolean refuses(String method, String path) {
    if ("GET".equals(method) || path.startsWith("/apis/coordination.k8s.io/") || !leaderOnly.test(method, path)) {
      return false;
    }
    return !allowed.getAsBoolean();
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    if (refuses(request.method(), request.uri().getPath())) {
      throw new KubernetesClientException(
          "refused: this process does not certainly hold the leader Lease (" + request.method() + " "
              + request.uri().getPath() + " not sent)");
    }
  }
}
