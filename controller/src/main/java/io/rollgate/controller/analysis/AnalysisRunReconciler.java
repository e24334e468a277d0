package io.rollgate.controller.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Secret;
import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisRunStatus;
import io.rollgate.api.Measurement;
import io.rollgate.api.Metric;
import io.rollgate.api.MetricResult;
import io.rollgate.api.ModelJson;
import io.rollgate.api.RunSummary;
import io.rollgate.api.SecretKeyRef;
import io.rollgate.controller.analysis.model.Arguments;
import io.rollgate.controller.analysis.model.Arguments.ArgumentException;
import io.rollgate.controller.analysis.model.Assessment;
import io.rollgate.controller.analysis.model.MeasurementSchedule;
import io.rollgate.controller.analysis.model.MetricNameRules;
import io.rollgate.controller.analysis.model.MetricRules;
import io.rollgate.controller.analysis.model.MetricValidator;
import io.rollgate.controller.analysis.model.Results;
import io.rollgate.controller.analysis.model.Times;
import io.rollgate.controller.analysis.model.Ttl;
import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.MetricProviders;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.kube.StatusPatch;
import io.rollgate.controller.runtime.ReconcileContext;
import io.rollgate.controller.runtime.ReconcileOutcome;
import io.rollgate.controller.runtime.Reconciler;
import io.rollgate.controller.runtime.Reconciles;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one AnalysisRun (docs/compatibility.md §9.2 to 9.5): validates it, takes the
 * measurements that are due through the metric providers, assesses metrics and run, and writes the
 * status; a completed run is only deleted when its {@code ttlStrategy} expires.
 *
 * <p>One pass reads as:
 *
 * <ol>
 *   <li>resolve arguments (Secrets as placeholders) and validate: problems end the run in phase
 *       Error;
 *   <li>pick the due measurements ({@link MeasurementSchedule#due}) and run them
 *       <b>concurrently</b>: each provider call is an asynchronous Future bounded by a timeout, so
 *       a slow provider never holds a thread; Secret-backed arguments are read now and masked as
 *       {@code *****} in every message;
 *   <li>apply the results to the metric results (counters), assess metrics and run, set {@code
 *       startedAt}, {@code completedAt} and the summaries;
 *   <li>let providers garbage-collect what old measurements left behind, then trim each history to
 *       its limit;
 *   <li>write {@code status} with one JSON merge patch carrying the resourceVersion read
 *       (AnalysisRuns have no status subresource; a 409 re-queues the key and never overwrites
 *       newer data), then record the events ({@code Metric<Phase>}, {@code AnalysisRun<Phase>});
 *   <li>requeue at the earliest due time (initial delay, {@code resumeAt}, interval); waiting is
 *       always a timer.
 * </ol>
 *
 * <p>Restarts: everything is read back from the stored status. A measurement left Running (for
 * example a Job with its {@code job-name} metadata) is resumed, not started again; a measurement
 * whose result was not yet written when the process stopped is simply taken again, and providers
 * with side effects make that idempotent (the Job provider names its Jobs deterministically and
 * adopts an existing one).
 */
public final class AnalysisRunReconciler implements Reconciler {

  private static final Logger LOG = LoggerFactory.getLogger(AnalysisRunReconciler.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private final AnalysisRunCache cache;
  private final StatusPatch<AnalysisRun> statusPatch;
  private final KubeApi api;
  private final EventRecorder events;
  private final MetricProviders providers;
  private final Clock clock;
  private final Duration measurementTimeout;

  /**
   * Creates the reconciler.
   *
   * @param cache the AnalysisRun cache
   * @param api the API facade
   * @param events the event recorder
   * @param providers the registered metric providers
   * @param clock the clock every time decision uses
   * @param measurementTimeout bound of one provider call; a call still pending then becomes an
   *     Error measurement
   */
  AnalysisRunReconciler(
      AnalysisRunCache cache,
      KubeApi api,
      EventRecorder events,
      MetricProviders providers,
      Clock clock,
      Duration measurementTimeout) {
    this.cache = cache;
    this.statusPatch = new StatusPatch<>(api, AnalysisRun.class, null, cache::wrote);
    this.api = api;
    this.events = events;
    this.providers = providers;
    this.clock = clock;
    this.measurementTimeout = measurementTimeout;
  }

  @Override
  public Future<ReconcileOutcome> reconcile(ReconcileContext ctx) {
    return Reconciles.guarded(ctx, () -> reconcileSafely(ctx));
  }

  private Future<ReconcileOutcome> reconcileSafely(ReconcileContext ctx) {
    AnalysisRun run = cache.get(ctx.namespace(), ctx.name());
    if (run == null) {
      LOG.debug("{} not found", ctx);
      return Future.succeededFuture(ReconcileOutcome.done());
    }
    if (run.getMetadata().getDeletionTimestamp() != null || run.getSpec() == null) {
      return Future.succeededFuture(ReconcileOutcome.done());
    }
    if (run.getStatus() != null && AnalysisPhase.isCompleted(run.getStatus().getPhase())) {
      return garbageCollectRun(ctx, run);
    }
    Pass pass = new Pass(ctx, ModelJson.deepCopy(run), clock.instant());
    return measureAndAssess(pass);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Completed runs: ttlStrategy

  private Future<ReconcileOutcome> garbageCollectRun(ReconcileContext ctx, AnalysisRun run) {
    Optional<Instant> expiry = Ttl.expiry(run);
    if (expiry.isEmpty()) {
      return Future.succeededFuture(ReconcileOutcome.done());
    }
    Instant now = clock.instant();
    if (!now.isAfter(expiry.get())) {
      return Future.succeededFuture(
          ReconcileOutcome.requeueAfter(Duration.between(now, expiry.get()).plusMillis(1)));
    }
    LOG.info(
        "{} deleting completed run: ttlStrategy expired at {}", ctx, Times.format(expiry.get()));
    return api.delete(AnalysisRun.class, ctx.namespace(), ctx.name())
        .onSuccess(v -> cache.forget(ctx.namespace(), ctx.name()))
        .map(v -> ReconcileOutcome.done());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Running runs

  /** State of one pass over a run that is not completed. */
  private static final class Pass {
    final ReconcileContext ctx;
    final AnalysisRun run;
    final Instant now;
    final AnalysisRunStatus status;
    final List<Runnable> events = new ArrayList<>();

    Pass(ReconcileContext ctx, AnalysisRun run, Instant now) {
      this.ctx = ctx;
      this.run = run;
      this.now = now;
      this.status =
          run.getStatus() == null ? new AnalysisRunStatus() : ModelJson.deepCopy(run.getStatus());
    }
  }

  private Future<ReconcileOutcome> measureAndAssess(Pass pass) {
    AnalysisRunStatus status = pass.status;
    if (status.getMetricResults() == null) {
      status.setMetricResults(new ArrayList<>());
    }
    if (status.getStartedAt() == null) {
      status.setStartedAt(Times.format(pass.now));
    }
    List<Metric> metrics;
    try {
      metrics =
          Arguments.substitute(
              pass.run.getSpec().getMetrics() == null ? List.of() : pass.run.getSpec().getMetrics(),
              Arguments.values(pass.run.getSpec().getArgs(), null));
    } catch (ArgumentException e) {
      return fail(pass, "Unable to resolve metric arguments: " + e.getMessage());
    }
    Optional<String> invalid = MetricValidator.validate(metrics);
    if (invalid.isPresent()) {
      return fail(pass, "Analysis spec invalid: " + invalid.get());
    }
    Set<String> dryRun;
    Map<String, Integer> retention;
    try {
      dryRun = MetricNameRules.dryRunMetrics(pass.run.getSpec().getDryRun(), metrics);
      retention =
          MetricNameRules.retentionLimits(pass.run.getSpec().getMeasurementRetention(), metrics);
    } catch (MetricNameRules.RuleException e) {
      return fail(pass, "Analysis spec invalid: " + e.getMessage());
    }
    boolean terminating = MeasurementSchedule.terminating(pass.run.getSpec(), status);
    List<MeasurementSchedule.Task> tasks =
        MeasurementSchedule.due(status, metrics, terminating, pass.now);
    List<Future<MeasurementOutcome>> calls = new ArrayList<>();
    for (MeasurementSchedule.Task task : tasks) {
      calls.add(take(pass, task, terminating));
    }
    return Future.join(calls)
        .transform(
            done -> {
              for (Future<MeasurementOutcome> call : calls) {
                apply(pass, call.result(), dryRun);
              }
              assess(pass, metrics, dryRun, terminating);
              return trimHistory(pass, metrics, retention);
            })
        .compose(v -> persist(pass))
        .map(v -> nextOutcome(pass, metrics));
  }

  /** Ends the run in phase Error (invalid spec, unresolvable arguments). */
  private Future<ReconcileOutcome> fail(Pass pass, String message) {
    LOG.info("{} run error: {}", pass.ctx, message);
    complete(pass, AnalysisPhase.ERROR, message);
    return persist(pass).map(v -> ReconcileOutcome.done());
  }

  private void complete(Pass pass, String phase, String message) {
    AnalysisRunStatus status = pass.status;
    status.setPhase(phase);
    status.setMessage(emptyToNull(message));
    status.setCompletedAt(Times.format(pass.now));
    boolean warning = AnalysisPhase.FAILED.equals(phase) || AnalysisPhase.ERROR.equals(phase);
    String reason = "AnalysisRun" + phase;
    String text = "Analysis Completed. Result: " + phase;
    pass.events.add(() -> record(pass.run, warning, reason, text));
  }

  private void record(AnalysisRun run, boolean warning, String reason, String message) {
    if (warning) {
      events.warning(run, reason, message);
    } else {
      events.normal(run, reason, message);
    }
  }

  /**
   * Takes, resumes or terminates one measurement. Never fails: every problem becomes an Error
   * measurement.
   */
  private Future<MeasurementOutcome> take(
      Pass pass, MeasurementSchedule.Task task, boolean terminating) {
    Metric metric = task.metric();
    Measurement incomplete = task.incomplete();
    Set<String> secrets = new HashSet<>();
    Future<ProviderResult> call;
    try {
      List<String> types = MetricRules.providerTypes(metric);
      Optional<MetricProvider> provider = providers.get(types.get(0));
      if (provider.isEmpty()) {
        call =
            Future.failedFuture(
                new IllegalStateException(
                    "metric provider \""
                        + types.get(0)
                        + "\" is not supported (supported: "
                        + String.join(", ", new java.util.TreeSet<>(providers.types()))
                        + ")"));
      } else {
        call =
            readSecrets(pass)
                .compose(
                    secretArgs -> {
                      secrets.addAll(secretArgs.values());
                      Metric resolved = resolveWithSecrets(pass, metric.getName(), secretArgs);
                      MeasurementContext mctx =
                          new MeasurementContext(pass.run, resolved, clock.instant(), secrets);
                      return invoke(provider.get(), mctx, incomplete, terminating);
                    });
      }
    } catch (RuntimeException e) {
      call = Future.failedFuture(e);
    }
    return call.timeout(measurementTimeout.toMillis(), TimeUnit.MILLISECONDS)
        .transform(
            ar ->
                Future.succeededFuture(
                    toMeasurement(
                        pass,
                        metric,
                        incomplete,
                        terminating,
                        secrets,
                        ar.succeeded() ? ar.result() : null,
                        ar.cause())));
  }

  private static Future<ProviderResult> invoke(
      MetricProvider provider,
      MeasurementContext mctx,
      Measurement incomplete,
      boolean terminating) {
    try {
      if (incomplete == null) {
        return provider.run(mctx);
      }
      Measurement running = ModelJson.deepCopy(incomplete);
      return terminating ? provider.terminate(mctx, running) : provider.resume(mctx, running);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  /** Reads every Secret-backed argument value, keyed by argument name. */
  private Future<Map<String, String>> readSecrets(Pass pass) {
    List<io.rollgate.api.Argument> args = pass.run.getSpec().getArgs();
    Map<String, String> values = new HashMap<>();
    List<Future<Void>> reads = new ArrayList<>();
    if (args != null) {
      for (io.rollgate.api.Argument arg : args) {
        if (arg.getValue() != null
            || arg.getValueFrom() == null
            || arg.getValueFrom().getSecretKeyRef() == null) {
          continue;
        }
        SecretKeyRef ref = arg.getValueFrom().getSecretKeyRef();
        reads.add(
            api.getSecret(pass.run.getMetadata().getNamespace(), ref.getName())
                .compose(
                    secret -> {
                      String value = secretValue(secret, ref);
                      if (value == null) {
                        return Future.failedFuture(
                            new IllegalStateException(
                                secret == null
                                    ? "secret \"" + ref.getName() + "\" not found"
                                    : "key '"
                                        + ref.getKey()
                                        + "' does not exist in secret '"
                                        + ref.getName()
                                        + "'"));
                      }
                      values.put(arg.getName(), value);
                      return Future.<Void>succeededFuture();
                    }));
      }
    }
    return Future.all(reads).map(v -> values);
  }

  private static String secretValue(Secret secret, SecretKeyRef ref) {
    if (secret == null) {
      return null;
    }
    if (secret.getData() != null && secret.getData().get(ref.getKey()) != null) {
      return new String(
          Base64.getDecoder().decode(secret.getData().get(ref.getKey())), StandardCharsets.UTF_8);
    }
    if (secret.getStringData() != null) {
      return secret.getStringData().get(ref.getKey());
    }
    return null;
  }

  /** The metric with every argument substituted, Secret values included. */
  private static Metric resolveWithSecrets(
      Pass pass, String metricName, Map<String, String> secretArgs) {
    Map<String, String> values;
    try {
      values = Arguments.values(pass.run.getSpec().getArgs(), null);
    } catch (ArgumentException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    values.putAll(secretArgs);
    for (Metric m : pass.run.getSpec().getMetrics()) {
      if (metricName.equals(m.getName())) {
        try {
          return Arguments.substitute(m, values);
        } catch (ArgumentException e) {
          throw new IllegalStateException(e.getMessage(), e);
        }
      }
    }
    throw new IllegalStateException("metric " + metricName + " not found");
  }

  /** Turns a provider outcome into the measurement to store, and logs it. */
  private MeasurementOutcome toMeasurement(
      Pass pass,
      Metric metric,
      Measurement incomplete,
      boolean terminating,
      Set<String> secrets,
      ProviderResult result,
      Throwable error) {
    MeasurementOutcome outcome =
        MeasurementOutcome.of(
            metric,
            incomplete,
            incomplete != null && terminating,
            secrets,
            result,
            error == null ? null : errorMessage(error),
            pass.now,
            clock);
    Measurement m = outcome.measurement();
    LOG.info(
        "{} metric={} measurement {}{}{}",
        pass.ctx,
        metric.getName(),
        m.getPhase(),
        m.getValue() == null ? "" : " value=" + m.getValue(),
        m.getMessage() == null ? "" : " message=" + m.getMessage());
    return outcome;
  }

  private String errorMessage(Throwable error) {
    if (error instanceof java.util.concurrent.TimeoutException) {
      return "measurement timed out after " + measurementTimeout.toSeconds() + "s";
    }
    String message = error.getMessage();
    return message == null || message.isEmpty() ? error.getClass().getSimpleName() : message;
  }

  /** Stores a measurement in its metric result and updates the counters. */
  private static void apply(Pass pass, MeasurementOutcome taken, Set<String> dryRun) {
    MetricResult result = Results.get(pass.status, taken.metric());
    if (result == null) {
      result = new MetricResult();
      result.setName(taken.metric());
      result.setPhase(AnalysisPhase.RUNNING);
      result.setDryRun(dryRun.contains(taken.metric()) ? Boolean.TRUE : null);
      pass.status.getMetricResults().add(result);
    }
    List<Measurement> measurements =
        result.getMeasurements() == null
            ? new ArrayList<>()
            : new ArrayList<>(result.getMeasurements());
    if (taken.replacesLast() && !measurements.isEmpty()) {
      measurements.set(measurements.size() - 1, taken.measurement());
    } else {
      measurements.add(taken.measurement());
    }
    result.setMeasurements(measurements);
    if (AnalysisPhase.isCompleted(taken.measurement().getPhase())) {
      Assessment.count(result, taken.measurement().getPhase());
    }
    if (!taken.resultMetadata().isEmpty()) {
      Map<String, String> md =
          result.getMetadata() == null
              ? new LinkedHashMap<>()
              : new LinkedHashMap<>(result.getMetadata());
      md.putAll(taken.resultMetadata());
      result.setMetadata(md);
    }
  }

  private void assess(Pass pass, List<Metric> metrics, Set<String> dryRun, boolean terminating) {
    AnalysisRunStatus status = pass.status;
    Assessment.RunVerdict verdict =
        Assessment.assessRun(
            status,
            metrics,
            dryRun,
            terminating,
            Boolean.TRUE.equals(pass.run.getSpec().getTerminate()));
    for (Assessment.Transition t : verdict.transitions()) {
      LOG.info("{} metric={} phase {} -> {}", pass.ctx, t.metric(), t.from(), t.to());
      if (AnalysisPhase.isCompleted(t.to())) {
        boolean warning = AnalysisPhase.FAILED.equals(t.to()) || AnalysisPhase.ERROR.equals(t.to());
        String message = "Metric '" + t.metric() + "' Completed. Result: " + t.to();
        pass.events.add(() -> record(pass.run, warning, "Metric" + t.to(), message));
      }
    }
    status.setRunSummary(normalize(verdict.runSummary()));
    status.setDryRunSummary(
        verdict.dryRunSummary().getCount() == 0 ? null : normalize(verdict.dryRunSummary()));
    for (MetricResult r : status.getMetricResults()) {
      normalize(r);
    }
    if (!verdict.phase().equals(status.getPhase())) {
      LOG.info(
          "{} run phase {} -> {}{}",
          pass.ctx,
          status.getPhase(),
          verdict.phase(),
          verdict.message().isEmpty() ? "" : ": " + verdict.message());
      if (AnalysisPhase.isCompleted(verdict.phase())) {
        complete(pass, verdict.phase(), verdict.message());
      } else {
        status.setPhase(verdict.phase());
        status.setMessage(emptyToNull(verdict.message()));
      }
    }
  }

  /**
   * Lets providers clean up after old measurements, then keeps the newest {@code limit} of each
   * metric.
   */
  private Future<Void> trimHistory(
      Pass pass, List<Metric> metrics, Map<String, Integer> retention) {
    List<Future<Void>> cleanups = new ArrayList<>();
    for (MetricResult result : pass.status.getMetricResults()) {
      int limit = MetricNameRules.historyLimit(retention, result.getName());
      List<Measurement> measurements = result.getMeasurements();
      if (measurements == null || measurements.size() <= limit) {
        continue;
      }
      Metric metric =
          metrics.stream()
              .filter(m -> m.getName().equals(result.getName()))
              .findFirst()
              .orElse(null);
      if (metric == null) {
        continue;
      }
      Optional<MetricProvider> provider = providers.get(MetricRules.providerTypes(metric).get(0));
      Future<Void> gc =
          provider.isEmpty()
              ? Future.succeededFuture()
              : safely(
                  () ->
                      provider
                          .get()
                          .garbageCollect(
                              new MeasurementContext(pass.run, metric, pass.now, Set.of()), limit));
      cleanups.add(
          gc.timeout(measurementTimeout.toMillis(), TimeUnit.MILLISECONDS)
              .onSuccess(
                  v ->
                      result.setMeasurements(
                          new ArrayList<>(
                              measurements.subList(
                                  measurements.size() - limit, measurements.size()))))
              .recover(
                  err -> {
                    LOG.warn(
                        "{} metric={} garbage collection failed, history kept for now: {}",
                        pass.ctx,
                        result.getName(),
                        err.getMessage());
                    return Future.succeededFuture();
                  }));
    }
    return Future.join(cleanups).transform(ar -> Future.succeededFuture());
  }

  private static Future<Void> safely(java.util.function.Supplier<Future<Void>> call) {
    try {
      return call.get();
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  /**
   * Writes the status as a merge patch guarded by the resourceVersion read, then records the pass's
   * events.
   */
  private Future<Void> persist(Pass pass) {
    Optional<ObjectNode> patch = statusPatch.diff(pass.run, pass.run.getStatus(), pass.status);
    if (patch.isEmpty()) {
      LOG.debug("{} status unchanged", pass.ctx);
      pass.events.forEach(Runnable::run);
      return Future.succeededFuture();
    }
    return statusPatch
        .write(pass.run, patch.get())
        .onSuccess(updated -> pass.events.forEach(Runnable::run))
        .mapEmpty();
  }

  private ReconcileOutcome nextOutcome(Pass pass, List<Metric> metrics) {
    if (AnalysisPhase.isCompleted(pass.status.getPhase())) {
      // The write brings the run back through the informer; its TTL is handled there.
      return ReconcileOutcome.done();
    }
    if (MeasurementSchedule.terminating(pass.run.getSpec(), pass.status)
        && !MeasurementSchedule.terminating(pass.run.getSpec(), pass.run.getStatus())) {
      // A metric just failed: terminate the others now rather than at their next interval.
      return ReconcileOutcome.requeueAfter(Duration.ZERO);
    }
    Optional<Instant> next = MeasurementSchedule.nextPass(pass.status, metrics);
    if (next.isEmpty()) {
      return ReconcileOutcome.done();
    }
    Instant now = clock.instant();
    Duration delay = next.get().isAfter(now) ? Duration.between(now, next.get()) : Duration.ZERO;
    // Intervals are strict ("after lastFinishedAt + interval"): come back just past the due time.
    return ReconcileOutcome.requeueAfter(delay.plusMillis(5));
  }

  private static RunSummary normalize(RunSummary s) {
    s.setCount(zeroToNull(s.getCount()));
    s.setSuccessful(zeroToNull(s.getSuccessful()));
    s.setFailed(zeroToNull(s.getFailed()));
    s.setInconclusive(zeroToNull(s.getInconclusive()));
    s.setError(zeroToNull(s.getError()));
    return s;
  }

  /** Drops zero counters and empty texts, which Argo omits ({@code omitempty}). */
  private static void normalize(MetricResult r) {
    r.setCount(zeroToNull(r.getCount()));
    r.setSuccessful(zeroToNull(r.getSuccessful()));
    r.setFailed(zeroToNull(r.getFailed()));
    r.setInconclusive(zeroToNull(r.getInconclusive()));
    r.setError(zeroToNull(r.getError()));
    r.setConsecutiveError(zeroToNull(r.getConsecutiveError()));
    r.setConsecutiveSuccess(zeroToNull(r.getConsecutiveSuccess()));
    r.setMessage(emptyToNull(r.getMessage()));
  }

  private static Integer zeroToNull(Integer i) {
    return i == null || i == 0 ? null : i;
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
