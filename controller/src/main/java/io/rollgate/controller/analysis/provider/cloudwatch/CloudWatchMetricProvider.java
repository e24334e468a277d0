package io.rollgate.controller.analysis.provider.cloudwatch;

import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.rollgate.controller.analysis.provider.common.ProviderConfigs;
import io.rollgate.controller.aws.AwsSdkClient;
import io.vertx.core.Future;
import software.amazon.awssdk.services.cloudwatch.CloudWatchAsyncClient;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataRequest;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;

/**
 * Argo's CloudWatch provider ({@code metrics[].provider.cloudWatch}, docs/compatibility.md §9.7;
 * docs/metric-providers.md): one {@code GetMetricData} call with the metric's {@code
 * metricDataQueries} over the last {@code interval} (default 5m), answering one entry per query id
 * (see {@link CloudWatchQueries#value}) for the conditions, for example {@code
 * all(result[0].Values, {# <= 0.01})}.
 *
 * <p>AWS access: the AWS SDK for Java v2 with its default chains: region from {@code AWS_REGION} or
 * the profile, credentials from the environment, web identity (IRSA), the profile or the instance
 * profile, and the endpoint from {@code AWS_ENDPOINT_URL_CLOUDWATCH} / {@code AWS_ENDPOINT_URL}
 * when set. Requests travel over the controller's Vert.x HTTP client, with the worker pool and
 * timeouts of {@link AwsSdkClient} (the SDK resolves region and credentials synchronously).
 *
 * <p>Timeouts: 10 seconds per HTTP attempt, 30 seconds per call including the SDK's retries. Any
 * failure (no region, no credentials, an unreachable endpoint, a rejected query) is an Error
 * measurement with the SDK's message.
 */
public final class CloudWatchMetricProvider implements MetricProvider {

  private final AwsSdkClient<CloudWatchAsyncClient> client;

  /**
   * Creates the provider; the SDK client is built on the first measurement.
   *
   * @param http the shared metric HTTP client (its Vert.x instance runs the worker pool)
   */
  public CloudWatchMetricProvider(MetricHttpClient http) {
    this.client = new AwsSdkClient<>(http, CloudWatchAsyncClient::builder, b -> {});
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
    return client
        .call(c -> c.getMetricData(request))
        .recover(e -> Future.failedFuture(new MetricProviderException(message(e), e)))
        .map(CloudWatchMetricProvider::toResult);
  }

  private static ProviderResult toResult(GetMetricDataResponse response) {
    return new ProviderResult.Value(
        CloudWatchQueries.value(response),
        CloudWatchQueries.text(response),
        CloudWatchQueries.metadata(response));
  }

  private static String message(Throwable e) {
    String m = AwsSdkClient.message(e);
    return AwsSdkClient.timedOut(e) ? "CloudWatch GetMetricData: " + m : m;
  }
}
