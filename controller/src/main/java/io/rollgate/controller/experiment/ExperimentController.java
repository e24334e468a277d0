package io.rollgate.controller.experiment;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisTemplate;
import io.rollgate.api.ClusterAnalysisTemplate;
import io.rollgate.api.Experiment;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.options.ControllerOptions;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.runtime.EnqueueHandler;
import io.rollgate.controller.runtime.WorkQueue;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wiring for Experiments (docs/compatibility.md §12.1): the process's informers on Experiments, on
 * ReplicaSets and AnalysisRuns (indexed by controller owner) and on the analysis templates, shared
 * with the Rollout controller that owns them, feed {@code namespace/name} keys into a {@link
 * WorkQueue} in front of the {@link ExperimentReconciler} ({@code --experiment-threads} concurrent
 * reconciles). A ReplicaSet or AnalysisRun event enqueues the Experiment that controls it. The
 * Experiment and AnalysisRun informers honour the controller instance id label, and with {@code
 * --namespaced} every informer is scoped to the one namespace (ClusterAnalysisTemplates are then
 * not watched).
 */
public final class ExperimentController {

  private static final Logger LOG = LoggerFactory.getLogger(ExperimentController.class);

  private final Vertx vertx;
  private final KubeApi api;
  private final EventRecorder events;
  private final ControllerOptions options;
  private final Clock clock;
  private SharedIndexInformer<Experiment> experimentInformer;
  private WorkQueue queue;

  /**
   * Creates the controller (nothing runs until {@link #start()}).
   *
   * @param vertx the Vert.x instance
   * @param api the API facade
   * @param events the event recorder
   * @param options the process settings
   * @param clock the clock
   */
  public ExperimentController(
      Vertx vertx, KubeApi api, EventRecorder events, ControllerOptions options, Clock clock) {
    this.vertx = vertx;
    this.api = api;
    this.events = events;
    this.options = options;
    this.clock = clock;
  }

  /**
   * Starts the queue on the process's shared informers. The informers are created, started and
   * stopped by the Rollout controller (one watch per kind and process); this controller only adds
   * its handlers. Each informer must carry the {@link RolloutCache#BY_OWNER} index (controller
   * owner uid) except the template informers.
   *
   * @param experimentInformer Experiments (namespace scope and instance-id selector of the process)
   * @param rsInformer ReplicaSets with a {@code rollouts-pod-template-hash} label
   * @param runInformer AnalysisRuns (instance-id selector)
   * @param templateInformer AnalysisTemplates
   * @param clusterTemplateInformer ClusterAnalysisTemplates, or null when not watched ({@code
   *     --namespaced})
   * @param synced completes once those informers' caches are synced
   * @return a Future completing once the caches are synced, failing when an informer could not list
   */
  public Future<Void> start(
      SharedIndexInformer<Experiment> experimentInformer,
      SharedIndexInformer<ReplicaSet> rsInformer,
      SharedIndexInformer<AnalysisRun> runInformer,
      SharedIndexInformer<AnalysisTemplate> templateInformer,
      SharedIndexInformer<ClusterAnalysisTemplate> clusterTemplateInformer,
      Future<Void> synced) {
    this.experimentInformer = experimentInformer;
    ExperimentCache cache =
        new ExperimentCache(
            experimentInformer,
            rsInformer,
            runInformer,
            templateInformer,
            clusterTemplateInformer,
            clock);
    ExperimentReconciler reconciler = new ExperimentReconciler(cache, api, events, clock);
    queue =
        WorkQueue.withDefaultBackoff(
            vertx,
            "Experiment",
            reconciler,
            options.experimentThreads(),
            Duration.ofSeconds(120),
            clock);
    experimentInformer.addEventHandler(
        EnqueueHandler.self(queue, (ns, name) -> cache.forget("Experiment", ns, name)));
    rsInformer.addEventHandler(
        EnqueueHandler.controllerOwner(
            queue, "Experiment", (ns, name) -> cache.forget("ReplicaSet", ns, name)));
    runInformer.addEventHandler(
        EnqueueHandler.controllerOwner(
            queue, "Experiment", (ns, name) -> cache.forget("AnalysisRun", ns, name)));
    return synced.onSuccess(
        v ->
            LOG.info(
                "informer synced experiments={}", experimentInformer.getStore().list().size()));
  }

  /**
   * Returns the work queue, for the process wiring (hold until elected, metrics); null before
   * {@link #start()}.
   *
   * @return the queue
   */
  public WorkQueue queue() {
    return queue;
  }

  /**
   * Returns the Experiments in the informer cache (a snapshot), for the per-Experiment metrics.
   *
   * @return the cached Experiments; empty before {@link #start()}
   */
  public List<Experiment> cachedExperiments() {
    return experimentInformer == null ? List.of() : experimentInformer.getStore().list();
  }

  /**
   * Drains the queue (the informers are stopped by their owner, the Rollout controller).
   *
   * @return a Future completing when no reconcile is in flight
   */
  public Future<Void> stop() {
    return queue == null ? Future.succeededFuture() : queue.shutdown();
  }
}
