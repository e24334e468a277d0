package io.rollgate.controller.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Experiment;
import io.rollgate.api.Rollout;
import io.rollgate.kube.ApiCallMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Owns every meter of the controller and renders the {@code /metrics} exposition (Prometheus text
 * format).
 *
 * <p>Names and labels follow Argo Rollouts' controller (docs/compatibility.md §14) where one
 * exists, so that its Grafana dashboard keeps working: per-Rollout gauges ({@code rollout_info},
 * {@code rollout_info_replicas_*}, {@code rollout_phase}) are computed from the informer cache at
 * scrape time ({@link RolloutSeries}); {@code rollout_reconcile} (histogram, seconds, buckets
 * 0.01/0.15/0.25/0.5/1), {@code rollout_reconcile_error} and {@code rollout_events_total} carry
 * {@code namespace} and {@code name} and are dropped when their Rollout leaves the cache ({@link
 * #sweep()}, also run at every scrape). Deviations: {@code controller_clientset_k8s_request_total}
 * is labelled {@code kind} (the resource), {@code verb} and {@code status_code} only (no per-object
 * {@code namespace}/{@code name}, which is unbounded); JVM memory is under Micrometer's standard
 * names ({@code jvm_memory_used_bytes{area="heap"}}), as a JVM has no {@code go_memstats_*}.
 * Rollgate's own meters are prefixed {@code rollgate_}.
 */
public final class ControllerMetrics implements AutoCloseable, ApiCallMetrics {

  /** Bucket bounds of {@code rollout_reconcile}, in seconds (Argo's). */
  public static final double[] ROLLOUT_RECONCILE_BUCKETS = {0.01, 0.15, 0.25, 0.5, 1};

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final String version;
  private final Timer throttle;
  private final AtomicInteger leader = new AtomicInteger();
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final RolloutStats perRollout = new RolloutStats();
  private final RolloutStats perExperiment = RolloutStats.experiments();
  private volatile Supplier<? extends Collection<Experiment>> experiments;
  private volatile Supplier<? extends Collection<Rollout>> rollouts;
  private volatile Supplier<? extends Collection<AnalysisRun>> analysisRuns;

  /**
   * Creates the registry with the JVM and process binders.
   *
   * @param version the controller version, the {@code version} label of {@code
   *     argo_rollouts_controller_info}
   */
  public ControllerMetrics(String version) {
    this.version = version;
    new JvmMemoryMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    closeables.add(gc);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    throttle =
        Timer.builder("rollgate.kube.api.throttle")
            .description("Time API calls waited for the client-side rate limiter (--qps/--burst).")
            .serviceLevelObjectives(
                Duration.ofMillis(1),
                Duration.ofMillis(10),
                Duration.ofMillis(100),
                Duration.ofSeconds(1),
                Duration.ofSeconds(10))
            .register(registry);
    Gauge.builder("rollgate.leader", leader, AtomicInteger::get)
        .description(
            "1 while this process holds the leader Lease (or runs without leader election), else 0.")
        .register(registry);
  }

  /**
   * Returns the registry, for components that bind their own standard meters.
   *
   * @return the Micrometer registry
   */
  public MeterRegistry registry() {
    return registry;
  }

  /**
   * Sets the source of the per-Rollout series: the Rollouts in the informer cache.
   *
   * @param cache returns the cached Rollouts; called at every scrape and sweep, from a worker
   *     thread
   */
  public void watchRollouts(Supplier<? extends Collection<Rollout>> cache) {
    this.rollouts = cache;
  }

  /**
   * Sets the source of the per-AnalysisRun series ({@code analysis_run_info}, {@code
   * analysis_run_metric_phase}, ...): the AnalysisRuns in the informer cache.
   *
   * @param cache returns the cached AnalysisRuns; called at every scrape, from a worker thread
   */
  public void watchAnalysisRuns(Supplier<? extends Collection<AnalysisRun>> cache) {
    this.analysisRuns = cache;
  }

  /**
   * Sets the source of the per-Experiment series ({@code experiment_info}, {@code
   * experiment_phase}) and of the sweep that drops the {@code experiment_reconcile} series of
   * deleted Experiments: the Experiments in the informer cache.
   *
   * @param cache returns the cached Experiments; called at every scrape and sweep, from a worker
   *     thread
   */
  public void watchExperiments(Supplier<? extends Collection<Experiment>> cache) {
    this.experiments = cache;
  }

  /**
   * Registers the gauges of one work queue: {@code rollgate_workqueue_depth{queue}} and {@code
   * rollgate_workqueue_in_flight{queue}}.
   *
   * @param queue the queue name (the kind it reconciles, for example {@code Rollout})
   * @param depth keys waiting to run
   * @param inFlight runs in flight
   */
  public void workQueue(String queue, IntSupplier depth, IntSupplier inFlight) {
    Gauge.builder("rollgate.workqueue.depth", depth::getAsInt)
        .description("Keys waiting in the work queue.")
        .tag("queue", queue)
        .register(registry);
    Gauge.builder("rollgate.workqueue.in.flight", inFlight::getAsInt)
        .description("Reconciles in flight.")
        .tag("queue", queue)
        .register(registry);
  }

  /**
   * Records one reconcile run.
   *
   * @param kind the kind reconciled ({@code Rollout}, ...)
   * @param namespace the object's namespace
   * @param name the object's name
   * @param nanos the run's duration, in nanoseconds
   * @param failed whether the run failed (and will be retried)
   */
  public void reconciled(String kind, String namespace, String name, long nanos, boolean failed) {
    Timer.builder("rollgate.reconcile")
        .description("Reconcile duration per work queue.")
        .tag("queue", kind)
        .tag("result", failed ? "error" : "success")
        .serviceLevelObjectives(
            Duration.ofMillis(10),
            Duration.ofMillis(50),
            Duration.ofMillis(100),
            Duration.ofMillis(250),
            Duration.ofMillis(500),
            Duration.ofSeconds(1),
            Duration.ofSeconds(5),
            Duration.ofSeconds(30))
        .register(registry)
        .record(nanos, TimeUnit.NANOSECONDS);
    if ("Rollout".equals(kind)) {
      perRollout.reconciled(namespace, name, nanos / 1e9, failed);
    } else if ("Experiment".equals(kind)) {
      perExperiment.reconciled(namespace, name, nanos / 1e9, failed);
    }
  }

  /**
   * Counts one Kubernetes Event recorded on a Rollout ({@code rollout_events_total}); events on
   * other kinds are not counted, as in Argo.
   *
   * @param kind the involved object's kind
   * @param namespace its namespace
   * @param name its name
   * @param type {@code Normal} or {@code Warning}
   * @param reason the event reason (docs/compatibility.md §13.1)
   */
  public void event(String kind, String namespace, String name, String type, String reason) {
    if ("Rollout".equals(kind)) {
      perRollout.event(namespace, name, type, reason);
    }
  }

  /**
   * Counts one Event that was recorded but not written ({@code
   * rollgate_events_dropped_total{cause}}).
   *
   * @param cause why: {@code queue} (too many Event writes waiting)
   */
  public void eventDropped(String cause) {
    Counter.builder("rollgate.events.dropped")
        .description("Events recorded but not written to the API server, by cause.")
        .tag("cause", cause)
        .register(registry)
        .increment();
  }

  /**
   * Counts the notifications sent and given up on for one Event ({@code notification_send_success}
   * and {@code notification_send_error}, labelled {@code namespace, name, type, reason} as in Argo
   * Rollouts) and records how long handling it took ({@code notification_send}, seconds).
   * docs/notifications.md.
   *
   * @param namespace the involved object's namespace
   * @param name its name
   * @param type {@code Normal} or {@code Warning}
   * @param reason the Event reason
   * @param sent notifications delivered
   * @param failed notifications that failed after their retries
   * @param nanos how long the Event's notifications took, in nanoseconds
   */
  public void notified(
      String namespace, String name, String type, String reason, int sent, int failed, long nanos) {
    perRollout.notified(namespace, name, type, reason, sent, failed);
    perRollout.notifyDuration(namespace, name, nanos / 1e9);
  }

  /**
   * Counts one API-server request ({@code
   * controller_clientset_k8s_request_total{kind,verb,status_code}}).
   *
   * @param verb {@code get}, {@code create}, {@code patch}, {@code delete}, ...
   * @param resource the resource, for example {@code replicasets} or {@code rollouts/status}
   * @param statusCode the HTTP status, or {@code error} when no response arrived (timeout,
   *     connection failure)
   */
  @Override
  public void apiRequest(String verb, String resource, String statusCode) {
    Counter.builder("controller_clientset_k8s_request")
        .description("Number of kubernetes requests executed during application reconciliation.")
        .tags("kind", resource, "verb", verb, "status_code", statusCode)
        .register(registry)
        .increment();
  }

  /**
   * Records one plugin call: {@code rollgate_plugin_calls_total{plugin,kind,call,outcome}} and
   * {@code rollgate_plugin_call_duration_seconds{plugin,kind,call}} (docs/plugins.md, "Security and
   * audit").
   *
   * @param plugin the plugin name, {@code <org>/<name>}
   * @param kind {@code step} or {@code trafficrouter}
   * @param call the protocol path, for example {@code step/run}
   * @param outcome {@code success}, {@code plugin_error}, {@code unavailable}, {@code
   *     transport_error}, {@code timeout} or {@code bad_answer}
   * @param nanos the call's duration, in nanoseconds
   */
  public void pluginCall(String plugin, String kind, String call, String outcome, long nanos) {
    Counter.builder("rollgate.plugin.calls")
        .description("Plugin calls by outcome.")
        .tags("plugin", plugin, "kind", kind, "call", call, "outcome", outcome)
        .register(registry)
        .increment();
    Timer.builder("rollgate.plugin.call.duration")
        .description("Duration of plugin calls, including a lazy start of the plugin.")
        .tags("plugin", plugin, "kind", kind, "call", call)
        .serviceLevelObjectives(
            Duration.ofMillis(10),
            Duration.ofMillis(50),
            Duration.ofMillis(250),
            Duration.ofSeconds(1),
            Duration.ofSeconds(5),
            Duration.ofSeconds(30))
        .register(registry)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Records the time one API call waited for the rate limiter ({@code
   * rollgate_kube_api_throttle_seconds}).
   *
   * @param nanos the wait, in nanoseconds (0 when a token was available)
   */
  @Override
  public void throttled(long nanos) {
    throttle.record(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Sets {@code rollgate_leader}.
   *
   * @param leading whether this process may reconcile
   */
  public void leader(boolean leading) {
    leader.set(leading ? 1 : 0);
  }

  /**
   * Drops the per-Rollout and per-Experiment series of objects that are no longer in the caches.
   * Does nothing for a kind until {@link #watchRollouts(Supplier)} or {@link
   * #watchExperiments(Supplier)} was called.
   *
   * @return the number of Rollouts and Experiments whose series were dropped
   */
  public int sweep() {
    int dropped = 0;
    Supplier<? extends Collection<Rollout>> source = rollouts;
    if (source != null) {
      Set<String> live = new HashSet<>();
      for (Rollout r : source.get()) {
        live.add(r.getMetadata().getNamespace() + "/" + r.getMetadata().getName());
      }
      dropped += perRollout.retainOnly(live);
    }
    Supplier<? extends Collection<Experiment>> exps = experiments;
    if (exps != null) {
      Set<String> live = new HashSet<>();
      for (Experiment e : exps.get()) {
        live.add(e.getMetadata().getNamespace() + "/" + e.getMetadata().getName());
      }
      dropped += perExperiment.retainOnly(live);
    }
    return dropped;
  }

  /**
   * Renders the whole exposition: the registry's meters, then the per-Rollout gauges from the cache
   * and {@code argo_rollouts_controller_info}. Blocking (walks the cache): call it from a worker
   * thread.
   *
   * @return the Prometheus text format 0.0.4
   */
  public String scrape() {
    sweep();
    StringBuilder out = new StringBuilder(registry.scrape());
    if (out.length() > 0 && out.charAt(out.length() - 1) != '\n') {
      out.append('\n');
    }
    Supplier<? extends Collection<Rollout>> source = rollouts;
    RolloutSeries.write(out, source == null ? List.of() : source.get());
    perRollout.write(out);
    Supplier<? extends Collection<AnalysisRun>> runs = analysisRuns;
    AnalysisRunSeries.write(out, runs == null ? List.of() : runs.get());
    Supplier<? extends Collection<Experiment>> exps = experiments;
    ExperimentSeries.write(out, exps == null ? List.of() : exps.get());
    perExperiment.write(out);
    RolloutSeries.constant(
        out, "argo_rollouts_controller_info", "Running Argo-rollouts version.", "version", version);
    return out.toString();
  }

  /** Releases the binders that hold resources (GC notification listeners). */
  @Override
  public void close() {
    for (AutoCloseable c : closeables) {
      try {
        c.close();
      } catch (Exception ignored) {
        // nothing to do at shutdown
      }
    }
    registry.close();
  }
}
