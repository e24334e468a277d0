package io.rollgate.controller.analysis;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rollgate.api.AnalysisRun;
import io.rollgate.controller.analysis.provider.MetricProviders;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.options.ControllerOptions;
import io.rollgate.controller.runtime.EnqueueHandler;
import io.rollgate.controller.runtime.WorkQueue;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wiring for AnalysisRuns: the process's AnalysisRun informer (owned by the Rollout controller,
 * which watches the same objects, and honouring the controller instance id label) feeds {@code
 * namespace/name} keys into a {@link WorkQueue} in front of the {@link AnalysisRunReconciler}
 * ({@code --analysis-threads} concurrent runs).
 */
public final class AnalysisRunController {

  /** Bound of one metric provider call. */
  public static final Duration MEASUREMENT_TIMEOUT = Duration.ofMinutes(2);

  private static final Logger LOG = LoggerFactory.getLogger(AnalysisRunController.class);

  private final Vertx vertx;
  private final KubeApi api;
  private final EventRecorder events;
  private final MetricProviders providers;
  private final ControllerOptions options;
  private final Clock clock;
  private SharedIndexInformer<AnalysisRun> informer;
  private WorkQueue queue;

  /**
   * Creates the controller (nothing runs until {@link #start}).
   *
   * @param vertx the Vert.x instance
   * @param api the API facade
   * @param events the event recorder
   * @param providers the metric providers
   * @param options the process settings
   * @param clock the clock
   */
  public AnalysisRunController(
      Vertx vertx,
      KubeApi api,
      EventRecorder events,
      MetricProviders providers,
      ControllerOptions options,
      Clock clock) {
    this.vertx = vertx;
    this.api = api;
    this.events = events;
    this.providers = providers;
    this.options = options;
    this.clock = clock;
  }

  /**
   * Starts the queue on the process's AnalysisRun informer. The informer is shared with the Rollout
   * controller (one watch on AnalysisRuns per process), which creates, starts and stops it; this
   * controller only adds its handler.
   *
   * @param runs the AnalysisRun informer, created with this process's namespace and instance-id
   *     selector
   * @param runsSynced completes once that informer's cache is synced
   * @return a Future completing once the cache is synced, failing when the informer cannot list
   *     (for example the AnalysisRun CRD is not installed)
   */
  public Future<Void> start(SharedIndexInformer<AnalysisRun> runs, Future<Void> runsSynced) {
    informer = runs;
    AnalysisRunCache cache = new AnalysisRunCache(informer, clock);
    AnalysisRunReconciler reconciler =
        new AnalysisRunReconciler(cache, api, events, providers, clock, MEASUREMENT_TIMEOUT);
    queue =
        WorkQueue.withDefaultBackoff(
            vertx,
            "AnalysisRun",
            reconciler,
            options.analysisThreads(),
            MEASUREMENT_TIMEOUT.plusSeconds(30),
            clock);
    informer.addEventHandler(EnqueueHandler.self(queue, cache::forget));
    return runsSynced.onSuccess(
        v -> LOG.info("informer synced analysisruns={}", informer.getStore().list().size()));
  }

  /**
   * Returns the work queue, for the process wiring (hold until elected, metrics); null before
   * {@link #start}.
   *
   * @return the queue
   */
  public WorkQueue queue() {
    return queue;
  }

  /**
   * Drains the queue (the informer is stopped by its owner, the Rollout controller).
   *
   * @return a Future completing when no reconcile is in flight
   */
  public Future<Void> stop() {
    return queue == null ? Future.succeededFuture() : queue.shutdown();
  }
}
