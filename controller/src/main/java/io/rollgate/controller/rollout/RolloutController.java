package io.rollgate.controller.rollout;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisTemplate;
import io.rollgate.api.ClusterAnalysisTemplate;
import io.rollgate.api.Labels;
import io.rollgate.api.Rollout;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.options.ControllerOptions;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.runs.RolloutExperiments;
import io.rollgate.controller.runtime.EnqueueHandler;
import io.rollgate.controller.runtime.Informers;
import io.rollgate.controller.runtime.WorkQueue;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
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
  private Informers informers;
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
    informers = new Informers(vertx, api.client(), options.namespace(), options.resync());
    watchKinds(instanceSelector());
    RolloutCache cache = cache();
    queue =
        WorkQueue.withDefaultBackoff(
            vertx,
            "Rollout",
            reconciler(cache),
            options.rolloutThreads(),
            Duration.ofSeconds(120),
            clock);
    enqueueOnEvents(cache);
    informers.lost().onFailure(lost::tryFail);
    return informers.start().onSuccess(v -> logSynced());
  }

  private String instanceSelector() {
    return options.instanceId() == null || options.instanceId().isEmpty()
        ? "!" + Labels.CONTROLLER_INSTANCE_ID
        : Labels.CONTROLLER_INSTANCE_ID + "=" + options.instanceId();
  }

  /** Creates the informers (not started); Rollouts, AnalysisRuns and Experiments by instance id. */
  private void watchKinds(String instanceSelector) {
    rolloutInformer = informers.watch("rollouts", Rollout.class, instanceSelector, Map.of());
    rsInformer =
        informers.watch(
            "replicasets",
            ReplicaSet.class,
            Labels.POD_TEMPLATE_HASH,
            Map.of(RolloutCache.BY_OWNER, RolloutCache::controllerOwnerUid));
    serviceInformer =
        informers.watch(
            "services",
            Service.class,
            null,
            Map.of(RolloutCache.BY_MANAGED_BY, RolloutCache::managedByRollout));
    deploymentInformer = informers.watch("deployments", Deployment.class);
    experimentInformer =
        informers.add(
            "experiments",
            RolloutExperiments.informer(
                api.client(), options, instanceSelector, options.resync().toMillis()));
    runInformer =
        informers.watch(
            "analysisruns",
            AnalysisRun.class,
            instanceSelector,
            Map.of(RolloutCache.BY_OWNER, RolloutCache::controllerOwnerUidOf));
    templateInformer = informers.watch("analysistemplates", AnalysisTemplate.class);
    // With --namespaced only a Role is granted: a cluster-scoped kind cannot be read, so it is not
    // watched.
    clusterTemplateInformer =
        options.clusterTemplates()
            ? informers.watchClusterScoped(
                "clusteranalysistemplates", ClusterAnalysisTemplate.class)
            : null;
  }

  private RolloutCache cache() {
    return new RolloutCache(rolloutInformer, rsInformer, serviceInformer, clock)
        .withDeployments(deploymentInformer)
        .withAnalysis(runInformer, templateInformer, clusterTemplateInformer)
        .withExperiments(experimentInformer);
  }

  private void logSynced() {
    LOG.info(
        "informers synced rollouts={} replicasets={} services={}",
        rolloutInformer.getStore().list().size(),
        rsInformer.getStore().list().size(),
        serviceInformer.getStore().list().size());
  }

  private RolloutReconciler reconciler(RolloutCache cache) {
    // --aws-verify-target-group (docs/traffic-routers.md "AWS ALB"): the ALB router reads the
    // weights back from AWS.
    io.rollgate.controller.aws.LoadBalancerProvider albTargetGroups =
        options.awsVerifyTargetGroup()
            ? new io.rollgate.controller.aws.ElbV2LoadBalancerProvider(
                new io.rollgate.controller.analysis.provider.common.MetricHttpClient(vertx))
            : null;
    return plugins == null
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
  }

  /**
   * Registers the handlers: each event only enqueues the Rollouts it concerns (see the class
   * comment), after the cache has forgotten a deleted object.
   */
  private void enqueueOnEvents(RolloutCache cache) {
    // Reconciling a deleted Rollout releases the Services it managed.
    rolloutInformer.addEventHandler(
        EnqueueHandler.self(queue, forget(cache, "Rollout")).alsoOnDelete());
    rsInformer.addEventHandler(
        EnqueueHandler.controllerOwner(queue, "Rollout", forget(cache, "ReplicaSet")));
    serviceInformer.addEventHandler(
        EnqueueHandler.<Service>mapped(
                queue, svc -> referencing(cache, svc), forget(cache, "Service"))
            .updatesWhen((before, after) -> true)
            .alsoBeforeWhen(
                (before, after) ->
                    !RolloutCache.managedByRollout(before)
                        .equals(RolloutCache.managedByRollout(after))));
    // Only a new generation (template, selector, replicas) matters to the Rollouts referencing it.
    deploymentInformer.addEventHandler(
        EnqueueHandler.<Deployment>mapped(
                queue, d -> referencing(cache, d), forget(cache, "Deployment"))
            .updatesWhen(
                (before, after) ->
                    !Objects.equals(
                        before.getMetadata().getGeneration(),
                        after.getMetadata().getGeneration())));
    // A run's phase change drives the Rollout (step completion, pause, abort); template changes
    // need no pass.
    runInformer.addEventHandler(
        EnqueueHandler.controllerOwner(queue, "Rollout", forget(cache, "AnalysisRun")));
    // An Experiment's phase change drives its Rollout's experiment step (docs/compatibility.md
    // §12.2).
    experimentInformer.addEventHandler(
        RolloutExperiments.ownerHandler(cache, key -> queue.add(key, "watch")));
  }

  private static BiConsumer<String, String> forget(RolloutCache cache, String kind) {
    return (namespace, name) -> cache.forget(kind, namespace, name);
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

  /**
   * Stops the informers and drains the queue.
   *
   * @return a Future completing when no reconcile is in flight
   */
  public Future<Void> stop() {
    if (informers != null) {
      informers.stop();
    }
    return queue == null ? Future.succeededFuture() : queue.shutdown();
  }

  private static List<String> referencing(RolloutCache cache, Service svc) {
    List<String> keys = new ArrayList<>();
    for (Rollout r :
        cache.rolloutsReferencing(svc.getMetadata().getNamespace(), svc.getMetadata().getName())) {
      keys.add(key(r));
    }
    keys.addAll(RolloutCache.managedByRollout(svc));
    return keys;
  }

  private static List<String> referencing(RolloutCache cache, Deployment d) {
    List<String> keys = new ArrayList<>();
    for (Rollout r :
        cache.rolloutsReferencingDeployment(
            d.getMetadata().getNamespace(), d.getMetadata().getName())) {
      keys.add(key(r));
    }
    return keys;
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
