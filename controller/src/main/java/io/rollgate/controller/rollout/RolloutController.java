package io.rollgate.controller.rollout;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisTemplate;
import io.rollgate.api.ClusterAnalysisTemplate;
import io.rollgate.api.Labels;
import io.rollgate.api.Rollout;
import io.rollgate.controller.ControllerOptions;
import io.rollgate.controller.WorkQueue;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.kube.TrimmedItemStore;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.runs.RolloutExperiments;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wiring for Rollouts: informers on Rollouts, ReplicaSets, Services, Deployments and AnalysisRuns
 * feed {@code namespace/name} keys into a {@link WorkQueue} in front of the {@link
 * RolloutReconciler}. Handlers only enqueue: a ReplicaSet event enqueues its owning Rollout; a
 * Service event enqueues the Rollouts that name it and the Rollout named in its {@code
 * managed-by-rollouts} annotation (so a Service left behind by a deleted Rollout is released); a
 * deleted Rollout is enqueued once more for the same reason; a Deployment add, delete or new
 * generation enqueues the Rollouts whose {@code spec.workloadRef} names it; an AnalysisRun event
 * enqueues the Rollout that controls it. AnalysisTemplates and ClusterAnalysisTemplates are cached
 * without handlers (a template change needs no pass of its own).
 *
 * <p>The Rollout informer honours the controller instance id: with an id it selects {@code
 * argo-rollouts.argoproj.io/controller-instance-id=<id>}, without one only Rollouts lacking that
 * label.
 */
public final class RolloutController {

  private static final Logger LOG = LoggerFactory.getLogger(RolloutController.class);

  private final Vertx vertx;
  private final KubeApi api;
  private final EventRecorder events;
  private final ControllerOptions options;
  private final Clock clock;
  private final io.rollgate.controller.plugin.PluginHost plugins;
  private SharedIndexInformer<Rollout> rolloutInformer;
  private SharedIndexInformer<ReplicaSet> rsInformer;
  private SharedIndexInformer<Service> serviceInformer;
  private SharedIndexInformer<Deployment> deploymentInformer;
  private SharedIndexInformer<AnalysisRun> runInformer;
  private SharedIndexInformer<AnalysisTemplate> templateInformer;
  private SharedIndexInformer<ClusterAnalysisTemplate> clusterTemplateInformer;
  private SharedIndexInformer<io.rollgate.api.Experiment> experimentInformer;
  private WorkQueue queue;
  private volatile boolean stopping;
  private final io.vertx.core.Promise<Void> lost = io.vertx.core.Promise.promise();

  /**
   * Creates the controller (nothing runs until {@link #start()}).
   *
   * @param vertx the Vert.x instance
   * @param api the API facade
   * @param events the event recorder
   * @param options the process settings
   * @param clock the clock
   */
  public RolloutController(
      Vertx vertx, KubeApi api, EventRecorder events, ControllerOptions options, Clock clock) {
    this(vertx, api, events, options, clock, null);
  }

  /**
   * Creates the controller with a plugin host (nothing runs until {@link #start()}).
   *
   * @param vertx the Vert.x instance
   * @param api the API facade
   * @param events the event recorder
   * @param options the process settings
   * @param clock the clock
   * @param plugins the plugin host (step plugins and {@code trafficRouting.plugins} routers), or
   *     null
   */
  public RolloutController(
      Vertx vertx,
      KubeApi api,
      EventRecorder events,
      ControllerOptions options,
      Clock clock,
      io.rollgate.controller.plugin.PluginHost plugins) {
    this.plugins = plugins;
    this.vertx = vertx;
    this.api = api;
    this.events = events;
    this.options = options;
    this.clock = clock;
  }

  /**
   * Starts the informers and the queue.
   *
   * @return a Future completing once both caches are synced, failing when an informer cannot list
   *     (for example the Rollout CRD is not installed)
   */
  public Future<Void> start() {
    KubernetesClient client = api.client();
    long resyncMillis = options.resync().toMillis();
    String instanceSelector =
        options.instanceId() == null || options.instanceId().isEmpty()
            ? "!" + Labels.CONTROLLER_INSTANCE_ID
            : Labels.CONTROLLER_INSTANCE_ID + "=" + options.instanceId();
    var rolloutOp =
        options.namespace() == null
            ? client.resources(Rollout.class).inAnyNamespace()
            : client.resources(Rollout.class).inNamespace(options.namespace());
    rolloutInformer =
        TrimmedItemStore.trim(
            rolloutOp.withLabelSelector(instanceSelector).runnableInformer(resyncMillis));
    var rsOp =
        options.namespace() == null
            ? client.apps().replicaSets().inAnyNamespace()
            : client.apps().replicaSets().inNamespace(options.namespace());
    rsInformer =
        TrimmedItemStore.trim(
            rsOp.withLabelSelector(Labels.POD_TEMPLATE_HASH)
                .withIndexers(Map.of(RolloutCache.BY_OWNER, RolloutCache::controllerOwnerUid))
                .runnableInformer(resyncMillis));
    var svcOp =
        options.namespace() == null
            ? client.services().inAnyNamespace()
            : client.services().inNamespace(options.namespace());
    serviceInformer =
        TrimmedItemStore.trim(
            svcOp
                .withIndexers(Map.of(RolloutCache.BY_MANAGED_BY, RolloutCache::managedByRollout))
                .runnableInformer(resyncMillis));
    var deploymentOp =
        options.namespace() == null
            ? client.apps().deployments().inAnyNamespace()
            : client.apps().deployments().inNamespace(options.namespace());
    deploymentInformer = TrimmedItemStore.trim(deploymentOp.runnableInformer(resyncMillis));
    var runOp =
        options.namespace() == null
            ? client.resources(AnalysisRun.class).inAnyNamespace()
            : client.resources(AnalysisRun.class).inNamespace(options.namespace());
    runInformer =
        TrimmedItemStore.trim(
            runOp
                .withLabelSelector(instanceSelector)
                .withIndexers(Map.of(RolloutCache.BY_OWNER, RolloutCache::controllerOwnerUidOf))
                .runnableInformer(resyncMillis));
    var templateOp =
        options.namespace() == null
            ? client.resources(AnalysisTemplate.class).inAnyNamespace()
            : client.resources(AnalysisTemplate.class).inNamespace(options.namespace());
    templateInformer = TrimmedItemStore.trim(templateOp.runnableInformer(resyncMillis));
    // With --namespaced only a Role is granted: a cluster-scoped kind cannot be read, so it is not
    // watched.
    clusterTemplateInformer =
        options.clusterTemplates()
            ? TrimmedItemStore.trim(
                client.resources(ClusterAnalysisTemplate.class).runnableInformer(resyncMillis))
            : null;
    experimentInformer =
        RolloutExperiments.informer(client, options, instanceSelector, resyncMillis);
    RolloutCache cache =
        new RolloutCache(rolloutInformer, rsInformer, serviceInformer, clock)
            .withDeployments(deploymentInformer)
            .withAnalysis(runInformer, templateInformer, clusterTemplateInformer)
            .withExperiments(experimentInformer);
    // --aws-verify-target-group (docs/traffic-routers.md "AWS ALB"): the ALB router reads the
    // weights back from AWS.
    io.rollgate.controller.aws.LoadBalancerProvider albTargetGroups =
        options.awsVerifyTargetGroup()
            ? new io.rollgate.controller.aws.ElbV2LoadBalancerProvider(
                new io.rollgate.controller.analysis.provider.common.MetricHttpClient(vertx))
            : null;
    RolloutReconciler reconciler =
        plugins == null
            ? new RolloutReconciler(
                cache, api, events, clock, null, null, options.routerApiVersions(), albTargetGroups)
            : new RolloutReconciler(
                cache,
                api,
                events,
                clock,
                plugins.stepPlugins(),
                plugins::router,
                options.routerApiVersions(),
                albTargetGroups);
    queue =
        new WorkQueue(
            vertx,
            "Rollout",
            reconciler,
            options.rolloutThreads(),
            Duration.ofMillis(5),
            Duration.ofSeconds(10),
            Duration.ofSeconds(120),
            clock);
    rolloutInformer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Rollout r) {
            queue.add(key(r), "watch");
          }

          @Override
          public void onUpdate(Rollout before, Rollout after) {
            boolean resync =
                Objects.equals(
                    before.getMetadata().getResourceVersion(),
                    after.getMetadata().getResourceVersion());
            queue.add(key(after), resync ? "resync" : "watch");
          }

          @Override
          public void onDelete(Rollout r, boolean unknownFinalState) {
            cache.forget("Rollout", r.getMetadata().getNamespace(), r.getMetadata().getName());
            // Reconciling a deleted Rollout releases the Services it managed.
            queue.add(key(r), "watch");
          }
        });
    rsInformer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(ReplicaSet rs) {
            enqueueOwner(rs);
          }

          @Override
          public void onUpdate(ReplicaSet before, ReplicaSet after) {
            if (!Objects.equals(
                before.getMetadata().getResourceVersion(),
                after.getMetadata().getResourceVersion())) {
              enqueueOwner(after);
            }
          }

          @Override
          public void onDelete(ReplicaSet rs, boolean unknownFinalState) {
            cache.forget("ReplicaSet", rs.getMetadata().getNamespace(), rs.getMetadata().getName());
            enqueueOwner(rs);
          }
        });
    serviceInformer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Service svc) {
            enqueueReferencing(cache, svc);
          }

          @Override
          public void onUpdate(Service before, Service after) {
            enqueueReferencing(cache, after);
            if (!RolloutCache.managedByRollout(before)
                .equals(RolloutCache.managedByRollout(after))) {
              enqueueReferencing(cache, before);
            }
          }

          @Override
          public void onDelete(Service svc, boolean unknownFinalState) {
            cache.forget("Service", svc.getMetadata().getNamespace(), svc.getMetadata().getName());
            enqueueReferencing(cache, svc);
          }
        });
    deploymentInformer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Deployment d) {
            enqueueReferencing(cache, d);
          }

          @Override
          public void onUpdate(Deployment before, Deployment after) {
            // Only a new generation (template, selector, replicas) matters to the Rollouts
            // referencing it.
            if (!Objects.equals(
                before.getMetadata().getGeneration(), after.getMetadata().getGeneration())) {
              enqueueReferencing(cache, after);
            }
          }

          @Override
          public void onDelete(Deployment d, boolean unknownFinalState) {
            cache.forget("Deployment", d.getMetadata().getNamespace(), d.getMetadata().getName());
            enqueueReferencing(cache, d);
          }
        });
    // A run's phase change drives the Rollout (step completion, pause, abort); template changes
    // need no pass.
    runInformer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(AnalysisRun run) {
            enqueueOwner(run);
          }

          @Override
          public void onUpdate(AnalysisRun before, AnalysisRun after) {
            if (!Objects.equals(
                before.getMetadata().getResourceVersion(),
                after.getMetadata().getResourceVersion())) {
              enqueueOwner(after);
            }
          }

          @Override
          public void onDelete(AnalysisRun run, boolean unknownFinalState) {
            cache.forget(
                "AnalysisRun", run.getMetadata().getNamespace(), run.getMetadata().getName());
            enqueueOwner(run);
          }
        });
    Future<Void> rolloutsSynced =
        Future.fromCompletionStage(rolloutInformer.start(), vertx.getOrCreateContext());
    Future<Void> rsSynced =
        Future.fromCompletionStage(rsInformer.start(), vertx.getOrCreateContext());
    watchForLoss(rolloutInformer, "rollouts");
    watchForLoss(rsInformer, "replicasets");
    Future<Void> svcSynced =
        Future.fromCompletionStage(serviceInformer.start(), vertx.getOrCreateContext());
    watchForLoss(serviceInformer, "services");
    Future<Void> deploymentsSynced =
        Future.fromCompletionStage(deploymentInformer.start(), vertx.getOrCreateContext());
    watchForLoss(deploymentInformer, "deployments");
    // An Experiment's phase change drives its Rollout's experiment step (docs/compatibility.md
    // §12.2).
    experimentInformer.addEventHandler(
        RolloutExperiments.ownerHandler(cache, key -> queue.add(key, "watch")));
    Future<Void> experimentsSynced =
        Future.fromCompletionStage(experimentInformer.start(), vertx.getOrCreateContext());
    watchForLoss(experimentInformer, "experiments");
    Future<Void> runsSynced =
        Future.fromCompletionStage(runInformer.start(), vertx.getOrCreateContext());
    watchForLoss(runInformer, "analysisruns");
    Future<Void> templatesSynced =
        Future.fromCompletionStage(templateInformer.start(), vertx.getOrCreateContext());
    watchForLoss(templateInformer, "analysistemplates");
    Future<Void> clusterTemplatesSynced = Future.succeededFuture();
    if (clusterTemplateInformer != null) {
      clusterTemplatesSynced =
          Future.fromCompletionStage(clusterTemplateInformer.start(), vertx.getOrCreateContext());
      watchForLoss(clusterTemplateInformer, "clusteranalysistemplates");
    }
    return Future.all(
            List.of(
                rolloutsSynced,
                rsSynced,
                svcSynced,
                deploymentsSynced,
                runsSynced,
                templatesSynced,
                clusterTemplatesSynced,
                experimentsSynced))
        .onSuccess(
            v ->
                LOG.info(
                    "informers synced rollouts={} replicasets={} services={}",
                    rolloutInformer.getStore().list().size(),
                    rsInformer.getStore().list().size(),
                    serviceInformer.getStore().list().size()))
        .mapEmpty();
  }

  /**
   * Fails when an informer stopped on its own (its watch could not be re-established): the caches
   * no longer follow the cluster, so the process must not keep reconciling from them.
   *
   * @return a Future failing with the informer's error; never completes successfully
   */
  public Future<Void> lost() {
    return lost.future();
  }

  private void watchForLoss(SharedIndexInformer<?> informer, String what) {
    informer
        .stopped()
        .whenComplete(
            (v, err) -> {
              if (!stopping) {
                lost.tryFail(
                    new IllegalStateException(
                        "informer for "
                            + what
                            + " stopped: "
                            + (err == null ? "no error given" : err.getMessage()),
                        err));
              }
            });
  }

  /**
   * Stops the informers and drains the queue.
   *
   * @return a Future completing when no reconcile is in flight
   */
  public Future<Void> stop() {
    stopping = true;
    if (rolloutInformer != null) {
      rolloutInformer.stop();
    }
    if (rsInformer != null) {
      rsInformer.stop();
    }
    if (serviceInformer != null) {
      serviceInformer.stop();
    }
    if (deploymentInformer != null) {
      deploymentInformer.stop();
    }
    SharedIndexInformer<?>[] others = {
      runInformer, templateInformer, clusterTemplateInformer, experimentInformer
    };
    for (SharedIndexInformer<?> i : others) {
      if (i != null) {
        i.stop();
      }
    }
    return queue == null ? Future.succeededFuture() : queue.shutdown();
  }

  private void enqueueOwner(AnalysisRun run) {
    if (run.getMetadata().getOwnerReferences() == null) {
      return;
    }
    for (OwnerReference ref : run.getMetadata().getOwnerReferences()) {
      if (Boolean.TRUE.equals(ref.getController()) && "Rollout".equals(ref.getKind())) {
        queue.add(run.getMetadata().getNamespace() + "/" + ref.getName(), "watch");
      }
    }
  }

  private void enqueueOwner(ReplicaSet rs) {
    if (rs.getMetadata().getOwnerReferences() == null) {
      return;
    }
    for (OwnerReference ref : rs.getMetadata().getOwnerReferences()) {
      if (Boolean.TRUE.equals(ref.getController()) && "Rollout".equals(ref.getKind())) {
        queue.add(rs.getMetadata().getNamespace() + "/" + ref.getName(), "watch");
      }
    }
  }

  private void enqueueReferencing(RolloutCache cache, Service svc) {
    String ns = svc.getMetadata().getNamespace();
    for (Rollout r : cache.rolloutsReferencing(ns, svc.getMetadata().getName())) {
      queue.add(key(r), "watch");
    }
    for (String managedBy : RolloutCache.managedByRollout(svc)) {
      queue.add(managedBy, "watch");
    }
  }

  private void enqueueReferencing(RolloutCache cache, Deployment d) {
    for (Rollout r :
        cache.rolloutsReferencingDeployment(
            d.getMetadata().getNamespace(), d.getMetadata().getName())) {
      queue.add(key(r), "watch");
    }
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
   * Queues every cached Rollout that has a step plugin or a traffic-router plugin (after a plugin
   * registry change: a Rollout waiting for a plugin that could not be fetched or started retries at
   * once). Safe from any thread.
   */
  public void requeueUsingPlugins() {
    if (queue == null) {
      return;
    }
    for (Rollout r : cachedRollouts()) {
      if (usesPlugins(r)) {
        queue.add(key(r), "plugin-registry");
      }
    }
  }

  /** Whether a Rollout has a step plugin or a traffic-router plugin. */
  static boolean usesPlugins(Rollout r) {
    var strategy = r.getSpec() == null ? null : r.getSpec().getStrategy();
    var canary = strategy == null ? null : strategy.getCanary();
    if (canary == null) {
      return false;
    }
    if (canary.getTrafficRouting() != null
        && canary.getTrafficRouting().getPlugins() != null
        && !canary.getTrafficRouting().getPlugins().isEmpty()) {
      return true;
    }
    return canary.getSteps() != null
        && canary.getSteps().stream().anyMatch(s -> s.getPlugin() != null);
  }

  /**
   * Returns the Rollouts in the informer cache (a snapshot), for the per-Rollout metrics.
   *
   * @return the cached Rollouts; empty before {@link #start()}
   */
  public java.util.List<Rollout> cachedRollouts() {
    return rolloutInformer == null ? java.util.List.of() : rolloutInformer.getStore().list();
  }

  /**
   * Returns the process's AnalysisRun informer (instance-id selector, indexed by {@link
   * RolloutCache#BY_OWNER}), shared with the AnalysisRun and Experiment controllers (one watch per
   * process). It is created by {@link #start()} and stopped by {@link #stop()}.
   *
   * @return the informer; null before {@link #start()}
   */
  public SharedIndexInformer<AnalysisRun> analysisRunInformer() {
    return runInformer;
  }

  /**
   * Returns the AnalysisRuns in the informer cache (a snapshot), for the per-run metrics.
   *
   * @return the cached AnalysisRuns; empty before {@link #start()}
   */
  public java.util.List<AnalysisRun> cachedAnalysisRuns() {
    return runInformer == null ? java.util.List.of() : runInformer.getStore().list();
  }

  /**
   * Returns the Experiment informer (instance-id selector, indexed by {@link
   * RolloutCache#BY_OWNER}), shared with the Experiment controller; null before {@link #start()}.
   *
   * @return the informer
   */
  public SharedIndexInformer<io.rollgate.api.Experiment> experimentInformer() {
    return experimentInformer;
  }

  /**
   * Returns the ReplicaSet informer ({@code rollouts-pod-template-hash} selector, indexed by {@link
   * RolloutCache#BY_OWNER}), shared with the Experiment controller; null before {@link #start()}.
   *
   * @return the informer
   */
  public SharedIndexInformer<ReplicaSet> replicaSetInformer() {
    return rsInformer;
  }

  /**
   * Returns the AnalysisTemplate informer, shared with the Experiment controller; null before
   * {@link #start()}.
   *
   * @return the informer
   */
  public SharedIndexInformer<AnalysisTemplate> analysisTemplateInformer() {
    return templateInformer;
  }

  /**
   * Returns the ClusterAnalysisTemplate informer, shared with the Experiment controller; null
   * before {@link #start()} and with {@code --namespaced}.
   *
   * @return the informer, or null
   */
  public SharedIndexInformer<ClusterAnalysisTemplate> clusterAnalysisTemplateInformer() {
    return clusterTemplateInformer;
  }

  private static String key(HasMetadata obj) {
    return obj.getMetadata().getNamespace() + "/" + obj.getMetadata().getName();
  }
}
