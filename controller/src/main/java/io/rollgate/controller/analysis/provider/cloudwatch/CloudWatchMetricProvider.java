package io.rollgate.controller.analysis.provider.cloudwatch;

import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.rollgate.controller.analysis.provider.common.ProviderConfigs;
import io.rollgate.controller.aws.VertxSdkHttpClient;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.services.cloudwatch.CloudWatchAsyncClient;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataRequest;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;

/**
 * Argo's CloudWatch provider ({@code metrics[].provider.cloudWatch}, docs/compatibility.md §9.7;
 * docs/metric-providers.md): one {@code GetMetricData} call with the metric's {@code metricDataQueries} over the last
 * {@code interval} (default 5m), answering one entry per query id (see {@link CloudWatchQueries#value}) for the
 * conditions, for example {@code all(result[0].Values, {# <= 0.01})}.
 *
 * <p>AWS access: the AWS SDK for Java v2 with its default chains: region from {@code AWS_REGION} or the profile,
 * credentials from the environment, web identity (IRSA), the profile or the instance profile, and the endpoint from
 * {@code AWS_ENDPOINT_URL_CLOUDWATCH} / {@code AWS_ENDPOINT_URL} when set. Requests travel over the controller's
 * Vert.x HTTP client ({@link VertxSdkHttpClient}). The SDK resolves region and credentials synchronously (files,
 * instance metadata, STS), so the client is built and each call is started on the named worker pool
 * {@code rollgate-aws-sdk}; the event loop only waits for the answer.
 *
 * <p>Timeouts: 10 seconds per HTTP attempt, 30 seconds per call including the SDK's retries. Any failure (no region,
 * no credentials, an unreachable endpoint, a rejected query) is an Error measurement with the SDK's message.
 */
public final class CloudWatchMetricProvider implements MetricProvider {

  /** Worker pool that builds the SDK client and starts calls (the SDK's region and credentials chains block). */
  public static final String WORKER_POOL = "rollgate-aws-sdk";

  static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(10);
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

  private final Vertx vertx;
  private final MetricHttpClient http;
  private final WorkerExecutor worker;
  private final AtomicReference<Future<CloudWatchAsyncClient>> client = new AtomicReference<>();

  /**
   * Creates the provider; the SDK client is built on the first measurement.
   *
   * @param http the shared metric HTTP client (its Vert.x instance runs the worker pool)
   */
  public CloudWatchMetricProvider(MetricHttpClient http) {
    this.http = http;
    this.vertx = http.vertx();
    this.worker = vertx.createSharedWorkerExecutor(WORKER_POOL, 2);
  }

  @Override
  public String type() {
    return "cloudWatch";
  }

  @Override
  public Future<ProviderResult> run(MeasurementContext ctx) {
    GetMetricDataRequest request;
    try {
      request = CloudWatchQueries.request(ProviderConfigs.of(ctx.metric(), type()), ctx.now());
    } catch (MetricProviderException e) {
      return Future.failedFuture(e);
    }
    Context context = vertx.getOrCreateContext();
    return client()
        .compose(c -> worker.executeBlocking(() -> c.getMetricData(request), false))
        .compose(started -> Future.fromCompletionStage(started, context))
        .timeout(CALL_TIMEOUT.toMillis() + 5_000, TimeUnit.MILLISECONDS)
        .recover(e -> Future.failedFuture(new MetricProviderException(message(e), e)))
        .map(CloudWatchMetricProvider::toResult);
  }

  private Future<CloudWatchAsyncClient> client() {
    Future<CloudWatchAsyncClient> current = client.get();
    if (current != null && !current.failed()) {
      return current;
    }
    Future<CloudWatchAsyncClient> built =
        worker.executeBlocking(
            () -> CloudWatchAsyncClient.builder()
                .httpClient(new VertxSdkHttpClient(http, ATTEMPT_TIMEOUT))
                .overrideConfiguration(o -> o.apiCallTimeout(CALL_TIMEOUT))
                .build(),
            false);
    return client.compareAndSet(current, built) ? built : client.get();
  }

  private static ProviderResult toResult(GetMetricDataResponse response) {
    return new ProviderResult.Value(
        CloudWatchQueries.value(response), CloudWatchQueries.text(response), CloudWatchQueries.metadata(response));
  }

  private static String message(Throwable e) {
    Throwable t = e;
    while ((t instanceof CompletionException || t instanceof java.util.concurrent.ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof java.util.concurrent.TimeoutException || t instanceof io.vertx.core.VertxException
        && t.getMessage() != null && t.getMessage().startsWith("Timeout")) {
      return "CloudWatch GetMetricData: no answer within " + (CALL_TIMEOUT.toSeconds() + 5) + "s";
    }
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
  }
}
