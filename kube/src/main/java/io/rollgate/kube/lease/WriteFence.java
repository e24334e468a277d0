package io.rollgate.kube.lease;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The last check before a request leaves the process: a fabric8 HTTP {@link Interceptor} that
 * refuses every request other than a read (GET) while the process does not certainly hold its
 * leader Lease (docs/reliability.md). The controller fences every write; the webhook only those
 * that are the leader's work ({@link #WriteFence(BiPredicate)}).
 *
 * <p>{@link io.rollgate.kube.KubeCalls} already checks before each call, but one facade call can
 * send several requests (fabric8 reads an object before it patches it), and a process frozen
 * between the check and the last request would otherwise send that request when it resumes.
 * Requests to the {@code coordination.k8s.io} API are let through: the Lease's own optimistic
 * concurrency arbitrates them, and the elector must be able to renew.
 */
public final class WriteFence implements Interceptor {

  /** The interceptor's name in fabric8's HTTP client builder. */
  public static final String NAME = "rollgate-write-fence";

  /** How many of the last writes let through are remembered, for {@link #inFlightAcross}. */
  static final int REMEMBERED = 256;

  private volatile BooleanSupplier allowed = () -> true;
  private final BiPredicate<String, String> leaderOnly;
  private final LongSupplier nanoTime;

  /** A write let through: what, when (monotonic), and when its answer came (0 while none). */
  private static final class Sent {
    final String what;
    final long allowedAt;
    long answeredAt;

    Sent(String what, long allowedAt) {
      this.what = what;
      this.allowedAt = allowedAt;
    }
  }

  private final Sent[] recent = new Sent[REMEMBERED];
  private int next;

  /** A fence over every write (the controller's: all its writes are the leader's). */
  public WriteFence() {
    this((method, path) -> true, System::nanoTime);
  }

  /**
   * A fence over some writes only.
   *
   * @param leaderOnly which requests (HTTP method, request path) only the Lease holder may send;
   *     reads (GET) and {@code coordination.k8s.io} requests are never refused, whatever it says
   */
  public WriteFence(BiPredicate<String, String> leaderOnly) {
    this(leaderOnly, System::nanoTime);
  }

  /**
   * A fence over some writes, with its own clock.
   *
   * @param leaderOnly as for {@link #WriteFence(BiPredicate)}
   * @param nanoTime the monotonic clock, {@code System::nanoTime} outside tests
   */
  public WriteFence(BiPredicate<String, String> leaderOnly, LongSupplier nanoTime) {
    this.leaderOnly = leaderOnly;
    this.nanoTime = nanoTime;
  }

  /**
   * The writes in flight across a process pause: after a long GC, a stopped process or SIGSTOP,
   * those are the requests that may reach the API server late. A request already in the socket when
   * the process froze is not stopped by any check in the process; it is in flight, as a request
   * delayed by the network is, and only the API server's optimistic concurrency ({@code
   * resourceVersion}) arbitrates it (docs/reliability.md). The pause lies somewhere in {@code
   * [from, to]}: a write counts when it was let through by {@code to} and not answered by {@code
   * from}, which errs towards naming a write too many.
   *
   * @param from a {@link System#nanoTime()} reading taken before the pause began
   * @param to a reading no earlier than its start
   * @return {@code "<METHOD> <path>"} of each such write among the last {@value #REMEMBERED},
   *     oldest first
   */
  public synchronized List<String> inFlightAcross(long from, long to) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < REMEMBERED; i++) {
      Sent s = recent[(next + i) % REMEMBERED];
      if (s != null && s.allowedAt - to <= 0 && (s.answeredAt == 0 || s.answeredAt - from > 0)) {
        out.add(s.what);
      }
    }
    return out;
  }

  private synchronized void sent(String what) {
    recent[next] = new Sent(what, nanoTime.getAsLong());
    next = (next + 1) % REMEMBERED;
  }

  private synchronized void answered(HttpRequest request) {
    if (request == null) {
      return;
    }
    String what = request.method() + " " + request.uri().getPath();
    long now = nanoTime.getAsLong();
    for (int i = 0; i < REMEMBERED; i++) {
      Sent s = recent[(next + i) % REMEMBERED];
      if (s != null && s.answeredAt == 0 && s.what.equals(what)) {
        s.answeredAt = now;
        return;
      }
    }
  }

  private static boolean isWrite(String method, String path) {
    return !"GET".equals(method) && !path.startsWith("/apis/coordination.k8s.io/");
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
    if ("GET".equals(method)
        || path.startsWith("/apis/coordination.k8s.io/")
        || !leaderOnly.test(method, path)) {
      return false;
    }
    return !allowed.getAsBoolean();
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    String path = request.uri().getPath();
    if (refuses(request.method(), path)) {
      throw new KubernetesClientException(
          "refused: this process does not certainly hold the leader Lease ("
              + request.method()
              + " "
              + path
              + " not sent)");
    }
    if (isWrite(request.method(), path)) {
      sent(request.method() + " " + path);
    }
  }

  @Override
  public void after(
      HttpRequest request,
      HttpResponse<?> response,
      AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    answered(request);
  }

  @Override
  public void afterConnectionFailure(HttpRequest request, Throwable failure) {
    answered(request);
  }
}
