package io.rollgate.controller.analysis.provider;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.Measurement;
import io.vertx.core.Future;
import java.util.Map;

/**
 * One metric provider (Argo's {@code metric.provider.<type>}, docs/compatibility.md §9.7), called
 * by the AnalysisRun reconciler to take, resume, stop and clean up measurements.
 *
 * <p>Non-blocking: every method returns at once; I/O runs asynchronously and completes the returned
 * {@link Future}. A failed Future becomes an {@code Error} measurement whose message is the
 * exception's message (secret argument values masked by the reconciler). Implementations are
 * stateless between calls: whatever a later call needs (for example the name of a Job) goes into
 * the measurement's metadata through {@link ProviderResult.Running}, so that a restarted controller
 * can resume a measurement it did not start.
 *
 * <p>Metadata: entries of a result's {@code metadata} are stored on the {@link Measurement};
 * entries whose key starts with {@link #METRIC_RESULT_METADATA_PREFIX} are stored, without the
 * prefix, on the metric result instead (Argo's {@code GetMetadata}, for example {@code
 * metricResult.ResolvedPrometheusQuery}).
 */
public interface MetricProvider {

  /**
   * Key prefix of result metadata that belongs to {@code status.metricResults[].metadata}, not to
   * the measurement.
   */
  String METRIC_RESULT_METADATA_PREFIX = "metricResult.";

  /**
   * Names the provider as it appears under {@code metrics[].provider}.
   *
   * @return for example {@code "prometheus"}, {@code "web"}, {@code "job"}
   */
  String type();

  /**
   * Starts a new measurement.
   *
   * @param ctx the run, the metric (arguments already substituted) and the current time
   * @return completes with a {@link ProviderResult.Value} to be judged with the metric's
   *     conditions, a {@link ProviderResult.Verdict} decided by the provider, or {@link
   *     ProviderResult.Running} to be resumed later; fails with an exception whose message
   *     describes the error
   */
  Future<ProviderResult> run(MeasurementContext ctx);

  /**
   * Continues a measurement that an earlier call left {@link ProviderResult.Running}, once its
   * {@code resumeAt} has passed. The default starts a new measurement, which suits providers that
   * never answer Running.
   *
   * @param ctx the run, the metric (arguments substituted) and the current time
   * @param running the stored unfinished measurement, with the metadata the provider returned
   * @return as {@link #run(MeasurementContext)}
   */
  default Future<ProviderResult> resume(MeasurementContext ctx, Measurement running) {
    return run(ctx);
  }

  /**
   * Stops an unfinished measurement because the run is terminating ({@code spec.terminate} or a
   * failed metric). The default answers {@code Inconclusive} with message {@code Metric
   * Terminated}, keeping the measurement's metadata.
   *
   * @param ctx the run, the metric (arguments substituted) and the current time
   * @param running the stored unfinished measurement
   * @return completes with the final result of the measurement; fails if the provider could not
   *     stop it
   */
  default Future<ProviderResult> terminate(MeasurementContext ctx, Measurement running) {
    Map<String, String> metadata = running.getMetadata() == null ? Map.of() : running.getMetadata();
    return Future.succeededFuture(
        new ProviderResult.Verdict(AnalysisPhase.INCONCLUSIVE, "Metric Terminated", metadata));
  }

  /**
   * Deletes what the provider created for old measurements of this metric, keeping the newest
   * {@code keep}. Called before the reconciler trims the measurement history to the same limit. The
   * default does nothing.
   *
   * @param ctx the run, the metric (arguments substituted) and the current time
   * @param keep how many of the newest measurements' objects to keep (the retention limit, default
   *     10)
   * @return completes when done; a failure is logged and retried on a later pass, it never fails
   *     the run
   */
  default Future<Void> garbageCollect(MeasurementContext ctx, int keep) {
    return Future.succeededFuture();
  }
}
