package io.rollgate.controller.aws;

import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.core.client.builder.SdkAsyncClientBuilder;
import software.amazon.awssdk.core.client.builder.SdkClientBuilder;

/**
 * One AWS SDK for Java v2 async client as the controller uses it (docs/metric-providers.md,
 * CloudWatch; docs/traffic-routers.md, AWS ALB): requests travel over the controller's Vert.x HTTP
 * client ({@link VertxSdkHttpClient}), 10 seconds per HTTP attempt and 30 seconds per call
 * including the SDK's retries. The SDK resolves region and credentials synchronously (files,
 * instance metadata, STS), so the client is built, on the first call, and each call is started on
 * the worker pool {@value #WORKER_POOL}; the caller's context only waits for the answer. A client
 * that failed to build is built again by the next call.
 *
 * @param <C> the SDK's async client type
 */
public final class AwsSdkClient<C> {

  /**
   * Worker pool that builds the SDK clients and starts calls (a deviation from the event-loop-only
   * rule).
   */
  public static final String WORKER_POOL = "rollgate-aws-sdk";

  static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(10);
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

  /** The caller's own bound: the SDK's call timeout plus 5 seconds. */
  static final Duration WAIT_TIMEOUT = CALL_TIMEOUT.plusSeconds(5);

  private final Vertx vertx;
  private final WorkerExecutor worker;
  private final Supplier<C> build;
  private final AtomicReference<Future<C>> client = new AtomicReference<>();

  /**
   * Creates the client holder; nothing is built until the first call.
   *
   * @param http the controller's outbound HTTP client (its Vert.x instance runs the worker pool)
   * @param builder a new SDK client builder, for example {@code CloudWatchAsyncClient::builder}
   * @param configure applied after the transport and timeouts (tests: region, credentials,
   *     endpoint)
   * @param <B> the SDK's builder type
   */
  public <B extends SdkAsyncClientBuilder<B, C> & SdkClientBuilder<B, C>> AwsSdkClient(
      MetricHttpClient http, Supplier<B> builder, Consumer<B> configure) {
    this.vertx = http.vertx();
    this.worker = vertx.createSharedWorkerExecutor(WORKER_POOL, 2);
    this.build =
        () -> {
          B b =
              builder
                  .get()
                  .httpClient(new VertxSdkHttpClient(http, ATTEMPT_TIMEOUT))
                  .overrideConfiguration(o -> o.apiCallTimeout(CALL_TIMEOUT));
          configure.accept(b);
          return b.build();
        };
  }

  /**
   * Starts one SDK call on the worker pool and completes on the caller's context.
   *
   * @param start starts the call on the client
   * @param <T> the response type
   * @return the response; failed with the SDK's failure (see {@link #message}) or a timeout after
   *     {@link #WAIT_TIMEOUT}
   */
  public <T> Future<T> call(Function<C, CompletableFuture<T>> start) {
    Context context = vertx.getOrCreateContext();
    return client()
        .compose(c -> worker.executeBlocking(() -> start.apply(c), false))
        .compose(started -> Future.fromCompletionStage(started, context))
        .timeout(WAIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
  }

  private Future<C> client() {
    Future<C> current = client.get();
    if (current != null && !current.failed()) {
      return current;
    }
    Future<C> built = worker.executeBlocking(build::get, false);
    return client.compareAndSet(current, built) ? built : client.get();
  }

  /**
   * Whether a failure of {@link #call} is the caller's timeout.
   *
   * @param e the failure
   * @return true when no answer came within {@link #WAIT_TIMEOUT}
   */
  public static boolean timedOut(Throwable e) {
    Throwable t = unwrap(e);
    return t instanceof TimeoutException
        || t instanceof io.vertx.core.VertxException
            && t.getMessage() != null
            && t.getMessage().startsWith("Timeout");
  }

  /**
   * The message of a failure of {@link #call}, without the wrapping of futures.
   *
   * @param e the failure
   * @return {@code no answer within 35s} for a timeout, else its message, or the exception's class
   *     name when it has none
   */
  public static String message(Throwable e) {
    if (timedOut(e)) {
      return "no answer within " + WAIT_TIMEOUT.toSeconds() + "s";
    }
    Throwable t = unwrap(e);
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
  }

  private static Throwable unwrap(Throwable e) {
    Throwable t = e;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
