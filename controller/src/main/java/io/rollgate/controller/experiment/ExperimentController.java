package io.rollgate.controller.experiment;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisTemplate;
import io.rollgate.api.ClusterAnalysisTemplate;
import io.rollgate.api.Experiment;
import io.rollgate.api.Labels;
import io.rollgate.controller.ControllerOptions;
import io.rollgate.controller.WorkQueue;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wiring for Experiments (argo-spec.md 12.1): informers on Experiments, on the ReplicaSets and AnalysisRuns they
 * control and on the analysis templates feed {@code namespace/name} keys into a {@link WorkQueue} in front of the
 * {@link ExperimentReconciler} ({@code --experiment-threads} concurrent reconciles). A ReplicaSet or AnalysisRun event
 * enqueues the Experiment that controls it. Like the Rollout and AnalysisRun informers, the Experiment and
 * AnalysisRun informers honour the controller instance id label, and with {@code --namespaced} every informer is
 * scoped to the one namespace (ClusterAnalysisTemplates are then not watched).
 */
public final class ExperimentController {

  private static final Logger LOG = LoggerFactory.getLogger(ExperimentController.class);

  private final Vertx vertx;
  private final KubeApi api;
  private final EventRecorder events;
  private final ControllerOptions options;
  private final Clock clock;
  private final Promise<Void> lost = Promise.promise();
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
  private SharedIndexInformer<Experiment> experimentInformer;
  private WorkQueue queue;
  private volatile boolean stopping;

  /**
   * Creates the controller (nothing runs until {@link #start()}).
   *
   * @param vertx the Vert.x instance
   * @param api the API facade
   * @param events the event recorder
   * @param options the process settings
   * @param clock the clock
   */
  public ExperimentController(Vertx vertx, KubeApi api, EventRecorder events, ControllerOptions options, Clock clock) {
    this.vertx = vertx;
    this.api = api;
    this.events = events;
    this.options = options;
    this.clock = clock;
  }

  /**
   * Starts the informers and the queue.
   *
   * @return a Future completing once every cache is synced, failing when an informer cannot list (for example the
   *     Experiment CRD is not installed or RBAC does not allow it)
   */
  public Future<Void> start() {
    KubernetesClient client = api.client();
    long resync = options.resync().toMillis();
    String instanceSelector =
        options.instanceId() == null || options.instanceId().isEmpty()
            ? "!" + Labels.CONTROLLER_INSTANCE_ID
            : Labels.CONTROLLER_INSTANCE_ID + "=" + options.instanceId();
    String ns = options.namespace();
    experimentInformer =
        (ns == null ? client.resources(Experiment.class).inAnyNamespace() : client.resources(Experiment.class).inNamespace(ns))
            .withLabelSelector(instanceSelector)
            .runnableInformer(resync);
    SharedIndexInformer<ReplicaSet> rsInformer =
        (ns == null ? client.apps().replicaSets().inAnyNamespace() : client.apps().replicaSets().inNamespace(ns))
            .withLabelSelector(Labels.POD_TEMPLATE_HASH)
            .withIndexers(Map.of(ExperimentCache.BY_OWNER, ExperimentCache::experimentOwnerUid))
            .runnableInformer(resync);
    SharedIndexInformer<AnalysisRun> runInformer =
        (ns == null ? client.resources(AnalysisRun.class).inAnyNamespace() : client.resources(AnalysisRun.class).inNamespace(ns))
            .withLabelSelector(instanceSelector)
            .withIndexers(Map.of(ExperimentCache.BY_OWNER, ExperimentCache::experimentOwnerUid))
            .runnableInformer(resync);
    SharedIndexInformer<AnalysisTemplate> templateInformer =
        (ns == null
                ? client.resources(AnalysisTemplate.class).inAnyNamespace()
                : client.resources(AnalysisTemplate.class).inNamespace(ns))
            .runnableInformer(resync);
    SharedIndexInformer<ClusterAnalysisTemplate> clusterTemplateInformer =
        options.clusterTemplates() ? client.resources(ClusterAnalysisTemplate.class).runnableInformer(resync) : null;
    ExperimentCache cache =
        new ExperimentCache(experimentInformer, rsInformer, runInformer, templateInformer, clusterTemplateInformer, clock);
    ExperimentReconciler reconciler = new ExperimentReconciler(cache, api, events, clock);
    queue =
        new WorkQueue(
            vertx,
            "Experiment",
            reconciler,
            options.experimentThreads(),
            Duration.ofMillis(5),
            Duration.ofSeconds(10),
            Duration.ofSeconds(120),
            clock);
    experimentInformer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Experiment ex) {
            queue.add(key(ex), "watch");
          }

          @Override
          public void onUpdate(Experiment before, Experiment after) {
            boolean resync =
                Objects.equals(before.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion());
            queue.add(key(after), resync ? "resync" : "watch");
          }

          @Override
          public void onDelete(Experiment ex, boolean unknownFinalState) {
            cache.forget("Experiment", ex.getMetadata().getNamespace(), ex.getMetadata().getName());
          }
        });
    rsInformer.addEventHandler(ownerHandler(cache, "ReplicaSet"));
    runInformer.addEventHandler(ownerHandler(cache, "AnalysisRun"));
    List<Future<Void>> synced = new ArrayList<>();
    synced.add(start(experimentInformer, "experiments"));
    synced.add(start(rsInformer, "replicasets"));
    synced.add(start(runInformer, "analysisruns"));
    synced.add(start(templateInformer, "analysistemplates"));
    if (clusterTemplateInformer != null) {
      synced.add(start(clusterTemplateInformer, "clusteranalysistemplates"));
    }
    return Future.all(synced)
        .onSuccess(v -> LOG.info("informer synced experiments={}", experimentInformer.getStore().list().size()))
        .mapEmpty();
  }

  private <T extends HasMetadata> ResourceEventHandler<T> ownerHandler(ExperimentCache cache, String kind) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        enqueueOwner(obj);
      }

      @Override
      public void onUpdate(T before, T after) {
        if (!Objects.equals(before.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion())) {
          enqueueOwner(after);
        }
      }

      @Override
      public void onDelete(T obj, boolean unknownFinalState) {
        cache.forget(kind, obj.getMetadata().getNamespace(), obj.getMetadata().getName());
        enqueueOwner(obj);
      }
    };
  }

  private void enqueueOwner(HasMetadata obj) {
    List<OwnerReference> refs = obj.getMetadata().getOwnerReferences();
    if (refs == null) {
      return;
    }
    for (OwnerReference ref : refs) {
      if (Boolean.TRUE.equals(ref.getController()) && "Experiment".equals(ref.getKind())) {
        queue.add(obj.getMetadata().getNamespace() + "/" + ref.getName(), "watch");
      }
    }
  }

  private Future<Void> start(SharedIndexInformer<?> informer, String what) {
    informers.add(informer);
    informer
        .stopped()
        .whenComplete(
            (v, err) -> {
              if (!stopping) {
                lost.tryFail(
                    new IllegalStateException(
                        "informer for " + what + " stopped: " + (err == null ? "no error given" : err.getMessage()), err));
              }
            });
    return Future.fromCompletionStage(informer.start(), vertx.getOrCreateContext());
  }

  /**
   * Fails when an informer stopped on its own (its watch could not be re-established).
   *
   * @return a Future failing with the informer's error; never completes successfully
   */
  public Future<Void> lost() {
    return lost.future();
  }

  /**
   * Returns the work queue, for the process wiring (hold until elected, metrics); null before {@link #start()}.
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
   * Stops the informers and drains the queue.
   *
   * @return a Future completing when no reconcile is in flight
   */
  public Future<Void> stop() {
    stopping = true;
    informers.forEach(SharedIndexInformer::stop);
    return queue == null ? Future.succeededFuture() : queue.shutdown();
  }

  private static String key(HasMetadata obj) {
    return obj.getMetadata().getNamespace() + "/" + obj.getMetadata().getName();
  }
}
