package io.rollgate.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.rollgate.controller.analysis.AnalysisRunController;
import io.rollgate.controller.analysis.HttpMetricProviders;
import io.rollgate.controller.analysis.TimeSeriesMetricProviders;
import io.rollgate.controller.analysis.provider.JobMetricProvider;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.MetricProviders;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.ProviderSecrets;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.experiment.ExperimentController;
import io.rollgate.controller.health.HealthServer;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.metrics.ControllerMetrics;
import io.rollgate.controller.metrics.MetricsServer;
import io.rollgate.controller.notify.NotificationConfigs;
import io.rollgate.controller.notify.Notifications;
import io.rollgate.controller.options.ControllerOptions;
import io.rollgate.controller.plugin.PluginHost;
import io.rollgate.controller.plugin.PluginRegistryWatch;
import io.rollgate.controller.rollout.RolloutController;
import io.rollgate.controller.runtime.WorkQueue;
import io.rollgate.kube.RequestBudgets;
import io.rollgate.kube.lease.LeaderElection;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the controller on one Vert.x context: the metrics and health servers, the API facade
 * (rate-limited), the event recorder, the per-kind controllers and leader election.
 *
 * <p>Start-up order: the servers listen first (so {@code /readyz} answers 503 while the caches
 * fill), then the informers start and the election campaigns at the same time. The work queue holds
 * its keys until both the caches have synced and this process is the leader: a standby keeps warm
 * caches but never reconciles. Losing the Lease fences every write at once, holds the queue, and
 * fails {@link #fatal()} so that the process exits and restarts clean.
 */
public final class ControllerVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ControllerVerticle.class);
  private static final long SWEEP_MILLIS = 60_000;

  private final ControllerOptions options;
  private final KubernetesClient client;
  private final Clock clock;
  private final ControllerMetrics metrics;
  private final Promise<Void> fatal = Promise.promise();
  private KubeApi api;
  private RolloutController rollouts;
  private AnalysisRunController analysisRuns;
  private ExperimentController experiments;
  private LeaderElection election;
  private MetricsServer metricsServer;
  private HealthServer healthServer;
  private PluginHost plugins;
  private PluginRegistryWatch pluginWatch;
  private NotificationConfigs notificationConfigs;
  private volatile boolean synced;
  private long sweepTimer = -1;
  private final io.rollgate.kube.lease.WriteFence fence;

  /**
   * Creates the verticle.
   *
   * @param options the process settings
   * @param client the fabric8 client, built on this verticle's Vert.x instance
   * @param clock the clock every time decision uses
   * @param metrics the meters (owned by the caller, which closes them)
   */
  public ControllerVerticle(
      ControllerOptions options, KubernetesClient client, Clock clock, ControllerMetrics metrics) {
    this(options, client, clock, metrics, null);
  }

  /**
   * Creates the verticle with the HTTP-level write fence installed in the client.
   *
   * @param options the process settings
   * @param client the fabric8 client, built on this verticle's Vert.x instance, with {@code fence}
   *     as an interceptor
   * @param clock the clock every time decision uses
   * @param metrics the meters (owned by the caller, which closes them)
   * @param fence the client's write fence, guarded by the leader Lease once the election starts;
   *     null when none
   */
  public ControllerVerticle(
      ControllerOptions options,
      KubernetesClient client,
      Clock clock,
      ControllerMetrics metrics,
      io.rollgate.kube.lease.WriteFence fence) {
    this.options = options;
    this.client = client;
    this.clock = clock;
    this.metrics = metrics;
    this.fence = fence;
  }

  @Override
  public Future<?> start() {
    metricsServer = new MetricsServer(vertx, metrics);
    healthServer =
        new HealthServer(
            vertx,
            context,
            () -> synced,
            () -> !fatal.future().failed(),
            () -> isLeader() ? "leader" : "standby");
    Future<Integer> metricsPort = metricsServer.listen(options.metricsPort());
    Future<Integer> healthzPort = healthServer.listen(options.healthzPort());
    return Future.all(metricsPort, healthzPort)
        .onSuccess(
            v ->
                LOG.info(
                    "listening metrics=:{}/metrics health=:{}/healthz,/readyz",
                    metricsPort.result(),
                    healthzPort.result()))
        .compose(v -> startController());
  }

  private Future<Void> startController() {
    RequestBudgets limiter = new RequestBudgets(options.qps(), options.burst(), System::nanoTime);
    api =
        new KubeApi(
            vertx, client, options.kubeApiThreads(), options.apiTimeout(), limiter, metrics);
    EventRecorder events = new EventRecorder(api, clock, metrics);
    plugins =
        new PluginHost(
            vertx,
            options.pluginDir(),
            options.pluginCallTimeout(),
            options.pluginHandshakeTimeout(),
            options.pluginNamespace() + "/" + io.rollgate.plugin.PluginRegistry.CONFIG_MAP_NAME,
            events,
            metrics,
            clock,
            io.rollgate.controller.plugin.PluginBridge.ofController(options.pluginBridge()));
    if (options.kubeconfig() != null) {
      plugins.processEnvironment(
          Map.of(
              "KUBECONFIG",
              java.nio.file.Path.of(options.kubeconfig()).toAbsolutePath().toString()));
    }
    pluginWatch = new PluginRegistryWatch(vertx, api, options.pluginNamespace(), plugins);
    Future<Void> pluginsRead = pluginWatch.start();
    rollouts = new RolloutController(vertx, api, events, options, clock, plugins);
    notificationConfigs =
        new NotificationConfigs(
            vertx, api, options.pluginNamespace(), options.selfServiceNotifications());
    Future<Void> notificationsRead = notificationConfigs.start();
    events.listen(
        new Notifications(
                plugins,
                notificationConfigs,
                ns ->
                    rollouts.analysisRunInformer() == null
                        ? List.of()
                        : rollouts
                            .analysisRunInformer()
                            .getIndexer()
                            .byIndex(Cache.NAMESPACE_INDEX, ns),
                metrics,
                () -> election != null && election.holdsLease())
            ::recorded);
    plugins.onRegistryChange(rollouts::requeueUsingPlugins);
    analysisRuns =
        new AnalysisRunController(
            vertx,
            api,
            events,
            metricProviders(vertx, api, clock, plugins, options.pluginNamespace()),
            options,
            clock);
    experiments = new ExperimentController(vertx, api, events, options, clock);
    Future<Void> rolloutsSynced = rollouts.start();
    Future<Void> experimentsSynced =
        experiments.start(
            rollouts.experimentInformer(),
            rollouts.replicaSetInformer(),
            rollouts.analysisRunInformer(),
            rollouts.analysisTemplateInformer(),
            rollouts.clusterAnalysisTemplateInformer(),
            rolloutsSynced);
    Future<Void> cachesSynced =
        Future.all(
                analysisRuns.start(rollouts.analysisRunInformer(), rolloutsSynced),
                experimentsSynced,
                pluginsRead,
                notificationsRead)
            .mapEmpty();
    // Same context as the queues and no yield since they were created: no run can have been
    // dispatched yet.
    WorkQueue queue = rollouts.queue();
    WorkQueue analysisQueue = analysisRuns.queue();
    WorkQueue experimentQueue = experiments.queue();
    queue.hold();
    analysisQueue.hold();
    experimentQueue.hold();
    queue.observe(
        (ctx, nanos, failed) ->
            metrics.reconciled(ctx.kind(), ctx.namespace(), ctx.name(), nanos, failed));
    metrics.workQueue("Rollout", queue::depth, queue::inFlight);
    metrics.workQueue("AnalysisRun", analysisQueue::depth, analysisQueue::inFlight);
    experimentQueue.observe(
        (ctx, nanos, failed) ->
            metrics.reconciled(ctx.kind(), ctx.namespace(), ctx.name(), nanos, failed));
    metrics.workQueue("Experiment", experimentQueue::depth, experimentQueue::inFlight);
    metrics.watchExperiments(experiments::cachedExperiments);
    metrics.watchRollouts(rollouts::cachedRollouts);
    metrics.watchAnalysisRuns(rollouts::cachedAnalysisRuns);
    rollouts.lost().onFailure(fatal::tryFail);
    election =
        options.leaderElection() == null
            ? LeaderElection.disabled(context)
            : LeaderElection.of(context, client, options.leaderElection());
    election.lost().onFailure(this::leadershipLost);
    // Every write first checks that the Lease is certainly still ours (docs/reliability.md): a
    // process frozen past its Lease sends nothing when it resumes, even before the elector notices
    // that it lost.
    LeaderElection elected = election;
    api.guardWrites(elected::holdsLease);
    if (fence != null) {
      fence.guard(elected::holdsLease);
    }
    plugins.guardCalls(elected::holdsLease);
    election.start();
    if (options.leaderElection() != null) {
      cachesSynced.onSuccess(
          v -> {
            if (!election.isLeader()) {
              LOG.info("standby: caches warm, waiting for the leader Lease");
            }
          });
    }
    Future.all(cachesSynced, election.elected())
        .onSuccess(
            v -> {
              if (fatal.future().failed()) {
                return;
              }
              metrics.leader(true);
              LOG.info("leading: reconciles started");
              queue.resume();
              analysisQueue.resume();
              experimentQueue.resume();
            });
    sweepTimer = vertx.setPeriodic(SWEEP_MILLIS, t -> vertx.executeBlocking(metrics::sweep, false));
    return cachesSynced.onSuccess(v -> synced = true);
  }

  /**
   * Builds the metric providers AnalysisRuns can use ({@code metrics[].provider.<type>}). This is
   * the one place where a provider is registered: add it to the list. A metric whose provider type
   * is not registered gets an Error measurement naming the type.
   *
   * @param vertx the Vert.x instance, for providers that make HTTP calls or set timers
   * @param api the API facade, for providers that create Kubernetes objects
   * @param clock the clock every time decision uses
   * @param plugins the plugin host, for {@code provider.plugin} metrics
   * @param controllerNamespace where provider credential Secrets are read (Datadog, New Relic,
   *     Wavefront, InfluxDB)
   * @return the registry
   */
  static MetricProviders metricProviders(
      Vertx vertx, KubeApi api, Clock clock, PluginHost plugins, String controllerNamespace) {
    List<MetricProvider> providers = new ArrayList<>();
    providers.add(new JobMetricProvider(api));
    providers.add(plugins.metricProvider());
    ProviderSecrets secrets = new ProviderSecrets(api::getSecret, controllerNamespace);
    // One HTTP client (one connection pool per Vert.x web client) for every provider that measures
    // over HTTP.
    MetricHttpClient http = new MetricHttpClient(vertx);
    providers.addAll(HttpMetricProviders.create(http, clock, System.getenv(), secrets));
    providers.addAll(TimeSeriesMetricProviders.create(http, api::getSecret, controllerNamespace));
    return MetricProviders.of(providers);
  }

  private void leadershipLost(Throwable err) {
    // Stop at once: nothing new starts, and whatever is in flight can no longer write.
    api.fence("not the leader");
    rollouts.queue().hold();
    if (analysisRuns != null && analysisRuns.queue() != null) {
      analysisRuns.queue().hold();
    }
    if (experiments != null && experiments.queue() != null) {
      experiments.queue().hold();
    }
    metrics.leader(false);
    fatal.tryFail(err);
  }

  private boolean isLeader() {
    return election != null && election.isLeader();
  }

  /**
   * Fails when the controller can no longer work: an informer stopped for good, or leadership was
   * lost. The process should then exit (non-zero) so that it is restarted clean.
   *
   * @return a Future that only ever fails
   */
  public Future<Void> fatal() {
    return fatal.future();
  }

  /**
   * Stops gracefully: stops taking keys, waits (bounded by the drain timeout) for the reconciles in
   * flight, fences writes, releases the Lease so that a standby takes over at once, and closes the
   * servers.
   *
   * @return a Future completing when stopped; never fails
   */
  public Future<Void> shutdown() {
    if (sweepTimer >= 0) {
      vertx.cancelTimer(sweepTimer);
    }
    Future<Void> drained =
        rollouts == null
            ? Future.succeededFuture()
            : Future.join(
                    rollouts.stop(),
                    analysisRuns == null ? Future.succeededFuture() : analysisRuns.stop(),
                    experiments == null ? Future.succeededFuture() : experiments.stop())
                .<Void>mapEmpty()
                .timeout(options.drainTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .onSuccess(v -> LOG.info("shutdown: reconciles drained"))
                .recover(
                    err -> {
                      LOG.warn(
                          "shutdown: reconciles still in flight after {}s, fencing writes",
                          options.drainTimeout().toSeconds());
                      return Future.succeededFuture();
                    });
    return drained
        .eventually(
            () -> {
              if (api != null) {
                api.fence("shutting down");
              }
              metrics.leader(false);
              return election == null ? Future.succeededFuture() : election.release();
            })
        .eventually(
            () -> {
              if (pluginWatch != null) {
                pluginWatch.stop();
              }
              if (notificationConfigs != null) {
                notificationConfigs.stop();
              }
              return plugins == null ? Future.succeededFuture() : plugins.close();
            })
        .eventually(() -> healthServer == null ? Future.succeededFuture() : healthServer.close())
        .eventually(() -> metricsServer == null ? Future.succeededFuture() : metricsServer.close())
        .eventually(() -> api == null ? Future.succeededFuture() : api.close())
        .recover(err -> Future.succeededFuture())
        .mapEmpty();
  }
}
