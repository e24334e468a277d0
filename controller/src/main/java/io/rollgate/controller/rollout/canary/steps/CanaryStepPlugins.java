package io.rollgate.controller.rollout.canary.steps;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.PluginStep;
import io.rollgate.api.RolloutPhase;
import io.rollgate.api.StepPluginStatus;
import io.rollgate.controller.plugin.StepOperation;
import io.rollgate.controller.plugin.StepPlugins;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.defaults.GoDurations;
import io.rollgate.plugin.PluginEntry;
import io.rollgate.plugin.sdk.StepContext;
import io.rollgate.plugin.sdk.StepPhase;
import io.rollgate.plugin.sdk.StepResult;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Canary {@code plugin} steps (docs/compatibility.md §10.3-10.6): runs the current plugin step,
 * aborts executed plugin steps in reverse order when the Rollout is aborted, terminates the running
 * one on a full promotion, and clears the leftovers of an aborted attempt on retry. The outcome is
 * {@code status.canary.stepPluginStatuses}, kept in the pass until the status sync writes it.
 *
 * <p>Waiting is a requeue: a {@code Running} or {@code Error} step asks for the Rollout to be
 * reconciled again at {@code updatedAt + backoff + 5s}; no thread ever waits. A call that fails
 * (the plugin is not registered, not running, timed out) is a handled error: a Warning {@code
 * ReconciliationError} event, a requeue in 30 s, and the current step does not complete in that
 * pass.
 */
public final class CanaryStepPlugins {

  private static final Logger LOG = LoggerFactory.getLogger(CanaryStepPlugins.class);

  /**
   * Backoff after a plugin error, and after a {@code Running} answer without (or with a short)
   * requeue.
   */
  static final Duration DEFAULT_BACKOFF = Duration.ofSeconds(30);

  /** A {@code requeueAfter} must exceed this to be honoured (docs/compatibility.md §10.4). */
  static final Duration MIN_REQUEUE = Duration.ofSeconds(10);

  /** Added to {@code updatedAt + backoff} before the Rollout is reconciled again. */
  static final Duration REQUEUE_SLACK = Duration.ofSeconds(5);

  /** Requeue after a handled error. */
  static final Duration HANDLED_ERROR_REQUEUE = Duration.ofSeconds(30);

  private final StepPlugins plugins;
  private final StepConfigCheck configCheck;

  /**
   * Creates the step-plugin part of the canary reconciler.
   *
   * @param plugins how plugins are reached
   * @param configCheck the check of a step's {@code plugin.config} against the registration's
   *     {@code configSchema}
   */
  public CanaryStepPlugins(StepPlugins plugins, StepConfigCheck configCheck) {
    this.plugins = plugins;
    this.configCheck = configCheck;
  }

  /**
   * Reconciles the plugin steps of the pass (docs/compatibility.md §5.1 item 12). Never fails:
   * handled errors are recorded in the pass ({@link RolloutPass#stepPluginError}, an event and a
   * requeue).
   *
   * @param pass the pass; its {@code stepPluginStatuses} is set to the list to write
   * @return a Future completing when every call of this pass answered
   */
  public Future<Void> reconcile(RolloutPass pass) {
    pass.stepPluginStatuses = new ArrayList<>(stored(pass));
    try {
      if (Boolean.TRUE.equals(pass.old.getAbort()) && !pass.removeAbort) {
        return abort(pass);
      }
      if (pass.aborted()) {
        return Future
            .succeededFuture(); // aborted in this very pass: Abort calls start with the next one
      }
      if (Boolean.TRUE.equals(pass.old.getPromoteFull()) || fullyPromoted(pass)) {
        return terminate(pass);
      }
      retryCleanup(pass);
      // A step that failed in this pass aborts the Rollout: the executed steps are aborted in the
      // same pass, so the status that first shows the Rollout Degraded already lists their Abort
      // operations.
      return run(pass)
          .compose(
              v -> pass.addAbort && !pass.removeAbort ? abort(pass) : Future.succeededFuture());
    } catch (RuntimeException e) {
      handledError(pass, e);
      return Future.succeededFuture();
    }
  }

  /**
   * Whether the plugin step at {@code index} is complete (Argo's {@code isStepPluginCompleted}):
   * never in a pass that met a handled error; otherwise when its {@code Run} is disabled, {@code
   * Successful} or {@code Failed}, or still {@code Running} but already terminated or aborted.
   *
   * @param pass the pass, after {@link #reconcile}
   * @param index the step index
   * @param step the plugin step
   * @return whether the step may advance
   */
  static boolean completed(RolloutPass pass, int index, PluginStep step) {
    if (pass.stepPluginError != null) {
      return false;
    }
    List<StepPluginStatus> list =
        pass.stepPluginStatuses != null ? pass.stepPluginStatuses : stored(pass);
    StepPluginStatus run = find(list, index, step.getName(), StepOperation.RUN);
    if (run == null) {
      return false;
    }
    if (Boolean.TRUE.equals(run.getDisabled())) {
      return true;
    }
    String phase = run.getPhase();
    if (StepPhase.Successful.name().equals(phase) || StepPhase.Failed.name().equals(phase)) {
      return true;
    }
    return StepPhase.Running.name().equals(phase)
        && (find(list, index, step.getName(), StepOperation.TERMINATE) != null
            || find(list, index, step.getName(), StepOperation.ABORT) != null);
  }

  /**
   * What holds the current plugin step, for {@code status.message} (docs/plugins.md, "A plugin that
   * is not one"): the handled error of this pass (the call could not be made or timed out), else
   * the current step's {@code Run} in phase {@code Error} as Argo's {@code StepPluginTransition}
   * event words it, with the plugin's message.
   *
   * @param pass the pass, after {@link #reconcile}
   * @return the text, or null when the current step is not a plugin step held by an error
   */
  public static String blockedBy(RolloutPass pass) {
    if (pass.stepPluginError != null) {
      return pass.stepPluginError;
    }
    Optional<Current> current = current(pass);
    if (current.isEmpty()) {
      return null;
    }
    int index = current.get().index();
    String name = current.get().step().getName();
    List<StepPluginStatus> list =
        pass.stepPluginStatuses != null ? pass.stepPluginStatuses : stored(pass);
    StepPluginStatus run = find(list, index, name, StepOperation.RUN);
    if (run == null || !StepPhase.Error.name().equals(run.getPhase())) {
      return null;
    }
    String text = transitioned(name, index, StepPhase.Error.name());
    return run.getMessage() == null || run.getMessage().isEmpty()
        ? text
        : text + ": " + run.getMessage();
  }

  /** The current step of the pass when it is a plugin step, with its index. */
  private record Current(int index, PluginStep step) {}

  private static Optional<Current> current(RolloutPass pass) {
    Integer idx = pass.old.getCurrentStepIndex();
    int index = idx == null ? 0 : idx;
    List<CanaryStep> steps = pass.steps();
    if (index >= steps.size() || steps.get(index).getPlugin() == null) {
      return Optional.empty();
    }
    return Optional.of(new Current(index, steps.get(index).getPlugin()));
  }

  /** Argo's {@code StepPluginTransition} wording for a Run that changed phase. */
  private static String transitioned(String name, int index, String phase) {
    return "Step plugin " + name + " (step " + (index + 1) + ") transitioned to " + phase;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Run (docs/compatibility.md §10.4)

  private Future<Void> run(RolloutPass pass) {
    Optional<Current> current = current(pass);
    if (current.isEmpty()) {
      return Future.succeededFuture();
    }
    int index = current.get().index();
    if (!RolloutPhase.PROGRESSING.equals(pass.old.getPhase())) {
      LOG.debug("{} plugin step {} waits: phase is {}", pass.ctx, index, pass.old.getPhase());
      return Future.succeededFuture();
    }
    PluginStep step = current.get().step();
    String name = step.getName();
    Optional<PluginEntry> entry = plugins.registration(name);
    if (entry.isEmpty()) {
      handledError(
          pass,
          new IllegalStateException(
              "step plugin " + name + " is not registered in " + registryName()));
      return Future.succeededFuture();
    }
    StepPluginStatus previous = find(pass.stepPluginStatuses, index, name, StepOperation.RUN);
    if (entry.get().disabled()) {
      if (previous == null || !Boolean.TRUE.equals(previous.getDisabled())) {
        StepPluginStatus disabled = new StepPluginStatus();
        disabled.setIndex(index);
        disabled.setName(name);
        disabled.setOperation(StepOperation.RUN.statusName());
        disabled.setDisabled(true);
        put(pass.stepPluginStatuses, disabled);
        LOG.info(
            "{} plugin step {} ({}) skipped: the plugin is disabled", pass.ctx, index + 1, name);
      }
      return Future.succeededFuture();
    }
    if (previous != null
        && (StepPhase.Successful.name().equals(previous.getPhase())
            || StepPhase.Failed.name().equals(previous.getPhase()))) {
      return Future.succeededFuture();
    }
    if (previous != null
        && !Boolean.TRUE.equals(previous.getDisabled())
        && nz(previous.getExecutions()) > 0) {
      Instant due = due(previous);
      if (due != null && due.isAfter(pass.now)) {
        pass.requeueAfter(Duration.between(pass.now, due).plus(REQUEUE_SLACK));
        return Future.succeededFuture();
      }
    }
    StepPluginStatus next = new StepPluginStatus();
    next.setIndex(index);
    next.setName(name);
    next.setOperation(StepOperation.RUN.statusName());
    boolean fresh = previous == null || Boolean.TRUE.equals(previous.getDisabled());
    if (fresh) {
      next.setStartedAt(pass.nowText);
      next.setPhase(StepPhase.Running.name());
      next.setExecutions(0);
    } else {
      next.setStartedAt(previous.getStartedAt());
      next.setPhase(previous.getPhase());
      next.setMessage(previous.getMessage());
      next.setExecutions(previous.getExecutions());
      next.setStatus(previous.getStatus());
    }
    String oldPhase = fresh ? "" : Objects.toString(previous.getPhase(), "");
    if (fresh && entry.get().configSchema() != null) {
      String field = "spec.strategy.canary.steps[" + index + "].plugin.config";
      Optional<String> mismatch =
          configCheck.check(entry.get().configSchema(), step.getConfig(), field);
      if (mismatch.isPresent()) {
        next.setUpdatedAt(pass.nowText);
        next.setPhase(StepPhase.Failed.name());
        next.setMessage(mismatch.get());
        next.setFinishedAt(pass.nowText);
        finishRun(pass, next, oldPhase, index, name);
        return Future.succeededFuture();
      }
    }
    StepContext context =
        new StepContext(name, index, step.getConfig(), fresh ? null : previous.getStatus());
    LOG.info(
        "{} plugin step {} ({}): run, execution {}",
        pass.ctx,
        index + 1,
        name,
        nz(next.getExecutions()) + 1);
    return call(name, StepOperation.RUN, pass, context)
        .map(
            result -> {
              next.setUpdatedAt(pass.nowText);
              next.setExecutions(nz(next.getExecutions()) + 1);
              next.setBackoff(null);
              if (isError(result)) {
                next.setPhase(StepPhase.Error.name());
                next.setMessage(result.error());
                next.setBackoff(GoDurations.format(DEFAULT_BACKOFF));
              } else {
                if (result.phase() != null) {
                  next.setPhase(result.phase().name());
                }
                next.setMessage(result.message());
                next.setStatus(result.status());
                if (result.phase() == StepPhase.Successful || result.phase() == StepPhase.Failed) {
                  next.setFinishedAt(pass.nowText);
                }
                if (StepPhase.Running.name().equals(next.getPhase())) {
                  next.setBackoff(GoDurations.format(runningBackoff(result.requeueAfterSeconds())));
                } else if (StepPhase.Error.name().equals(next.getPhase())) {
                  next.setBackoff(
                      GoDurations.format(DEFAULT_BACKOFF)); // retried like a plugin error
                }
              }
              finishRun(pass, next, oldPhase, index, name);
              return (Void) null;
            })
        .recover(
            err -> {
              handledError(pass, err);
              return Future.succeededFuture();
            });
  }

  private void finishRun(
      RolloutPass pass, StepPluginStatus next, String oldPhase, int index, String name) {
    put(pass.stepPluginStatuses, next);
    String phase = next.getPhase();
    LOG.info(
        "{} plugin step {} ({}) run: phase={} message={}",
        pass.ctx,
        index + 1,
        name,
        phase,
        next.getMessage());
    if (!phase.equals(oldPhase) && !StepPhase.Successful.name().equals(phase)) {
      transition(pass, phase, transitioned(name, index, phase));
    }
    if (StepPhase.Running.name().equals(phase) || StepPhase.Error.name().equals(phase)) {
      Duration backoff =
          next.getBackoff() == null
              ? DEFAULT_BACKOFF
              : GoDurations.parse(next.getBackoff()).orElse(DEFAULT_BACKOFF);
      pass.requeueAfter(backoff.plus(REQUEUE_SLACK));
    }
    if (StepPhase.Failed.name().equals(phase) && !pass.aborted()) {
      pass.addAbort = true;
      pass.abortMessage =
          "Step Plugin "
              + (index + 1)
              + " ("
              + name
              + ") failed: "
              + Objects.toString(next.getMessage(), "");
    }
  }

  /**
   * The wait before the next {@code run} of a {@code Running} step: {@code requeueAfter} when over
   * 10 s, else 30 s.
   */
  static Duration runningBackoff(Long requeueAfterSeconds) {
    if (requeueAfterSeconds != null
        && Duration.ofSeconds(requeueAfterSeconds).compareTo(MIN_REQUEUE) > 0) {
      return Duration.ofSeconds(requeueAfterSeconds);
    }
    return DEFAULT_BACKOFF;
  }

  private static Instant due(StepPluginStatus s) {
    if (s.getUpdatedAt() == null || s.getBackoff() == null) {
      return null;
    }
    Optional<Duration> backoff = GoDurations.parse(s.getBackoff());
    if (backoff.isEmpty()) {
      return null;
    }
    try {
      return Instant.parse(s.getUpdatedAt()).plus(backoff.get());
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Retry cleanup (docs/compatibility.md §10.6)

  private void retryCleanup(RolloutPass pass) {
    Integer idx = pass.old.getCurrentStepIndex();
    if ((idx != null && idx != 0) || pass.stepPluginStatuses.isEmpty() || pass.steps().isEmpty()) {
      return;
    }
    CanaryStep first = pass.steps().get(0);
    if (first.getPlugin() == null || completed(pass, 0, first.getPlugin())) {
      LOG.info(
          "{} clearing {} step plugin status(es) left from an aborted attempt",
          pass.ctx,
          pass.stepPluginStatuses.size());
      pass.stepPluginStatuses.clear();
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Abort and terminate (docs/compatibility.md §10.5)

  private Future<Void> abort(RolloutPass pass) {
    List<StepPluginStatus> runs = new ArrayList<>();
    List<StepPluginStatus> list = pass.stepPluginStatuses;
    for (int i = list.size() - 1; i >= 0; i--) {
      StepPluginStatus s = list.get(i);
      if (!StepOperation.RUN.statusName().equals(s.getOperation())
          || Boolean.TRUE.equals(s.getDisabled())) {
        continue;
      }
      boolean started =
          StepPhase.Running.name().equals(s.getPhase())
              || StepPhase.Successful.name().equals(s.getPhase());
      if (started
          && pluginStep(pass, s) != null
          && find(list, s.getIndex(), s.getName(), StepOperation.ABORT) == null) {
        runs.add(s);
      }
    }
    Future<Void> chain = Future.succeededFuture();
    for (StepPluginStatus run : runs) {
      chain = chain.compose(v -> once(pass, run, StepOperation.ABORT));
    }
    return chain;
  }

  private Future<Void> terminate(RolloutPass pass) {
    List<StepPluginStatus> list = pass.stepPluginStatuses;
    for (int i = list.size() - 1; i >= 0; i--) {
      StepPluginStatus s = list.get(i);
      if (StepOperation.TERMINATE.statusName().equals(s.getOperation())
          && StepPhase.Successful.name().equals(s.getPhase())) {
        return Future.succeededFuture();
      }
      if (StepOperation.RUN.statusName().equals(s.getOperation())
          && StepPhase.Running.name().equals(s.getPhase())
          && !Boolean.TRUE.equals(s.getDisabled())) {
        if (find(list, s.getIndex(), s.getName(), StepOperation.TERMINATE) != null
            || pluginStep(pass, s) == null) {
          return Future.succeededFuture();
        }
        return once(pass, s, StepOperation.TERMINATE);
      }
    }
    return Future.succeededFuture();
  }

  /** One {@code Abort} or {@code Terminate} call: synchronous, never retried once answered. */
  private Future<Void> once(RolloutPass pass, StepPluginStatus run, StepOperation op) {
    String name = run.getName();
    int index = run.getIndex();
    Optional<PluginEntry> entry = plugins.registration(name);
    if (entry.isEmpty()) {
      handledError(
          pass,
          new IllegalStateException(
              "step plugin " + name + " is not registered in " + registryName()));
      return Future.succeededFuture();
    }
    if (entry.get().disabled()) {
      LOG.info(
          "{} plugin step {} ({}): no {} call, the plugin is disabled",
          pass.ctx,
          index + 1,
          name,
          op.statusName());
      return Future.succeededFuture();
    }
    PluginStep step = pluginStep(pass, run);
    StepContext context = new StepContext(name, index, step.getConfig(), run.getStatus());
    LOG.info("{} plugin step {} ({}): {}", pass.ctx, index + 1, name, op.statusName());
    return call(name, op, pass, context)
        .map(
            result -> {
              StepPluginStatus s = new StepPluginStatus();
              s.setIndex(index);
              s.setName(name);
              s.setOperation(op.statusName());
              s.setStartedAt(pass.nowText);
              if (isError(result)) {
                s.setPhase(StepPhase.Error.name());
                s.setMessage(result.error());
              } else {
                StepPhase phase = result.phase() == null ? StepPhase.Successful : result.phase();
                // Abort and Terminate are synchronous: a step still running afterwards did not
                // stop.
                s.setPhase((phase == StepPhase.Running ? StepPhase.Failed : phase).name());
                s.setMessage(result.message());
                s.setStatus(result.status());
              }
              s.setFinishedAt(pass.nowText);
              put(pass.stepPluginStatuses, s);
              String verb = op == StepOperation.ABORT ? "aborted" : "terminated";
              LOG.info(
                  "{} plugin step {} ({}) {}: phase={} message={}",
                  pass.ctx,
                  index + 1,
                  name,
                  verb,
                  s.getPhase(),
                  s.getMessage());
              transition(
                  pass,
                  s.getPhase(),
                  "Step plugin "
                      + name
                      + " (step "
                      + (index + 1)
                      + ") "
                      + verb
                      + " ("
                      + s.getPhase()
                      + ")");
              return (Void) null;
            })
        .recover(
            err -> {
              handledError(pass, err);
              return Future.succeededFuture();
            });
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Helpers

  private Future<StepResult> call(
      String name, StepOperation op, RolloutPass pass, StepContext context) {
    try {
      Future<StepResult> f = plugins.call(name, op, pass.rollout, context);
      return f == null
          ? Future.failedFuture(new IllegalStateException("no answer from step plugin " + name))
          : f;
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  private static boolean isError(StepResult r) {
    return r == null || (r.error() != null && !r.error().isEmpty());
  }

  private static void transition(RolloutPass pass, String phase, String message) {
    if (StepPhase.Error.name().equals(phase) || StepPhase.Failed.name().equals(phase)) {
      pass.warning("StepPluginTransition", message);
    } else {
      pass.event("StepPluginTransition", message);
    }
  }

  /**
   * A handled error (docs/compatibility.md §10.4): Warning {@code ReconciliationError}, requeue in
   * 30 s, the pass goes on.
   */
  private static void handledError(RolloutPass pass, Throwable err) {
    String message = err.getMessage() == null ? err.toString() : err.getMessage();
    LOG.warn("{} step plugin: {}", pass.ctx, message);
    LOG.debug("{} step plugin error", pass.ctx, err);
    pass.stepPluginError = message;
    pass.warning("ReconciliationError", "Reconciliation failed with error: " + message);
    pass.requeueAfter(HANDLED_ERROR_REQUEUE);
  }

  private static boolean fullyPromoted(RolloutPass pass) {
    String stable = pass.old.getStableRS();
    return stable != null && !stable.isEmpty() && stable.equals(pass.podHash);
  }

  /** The step an entry belongs to, when it is still a plugin step of that name; else null. */
  private static PluginStep pluginStep(RolloutPass pass, StepPluginStatus s) {
    List<CanaryStep> steps = pass.steps();
    Integer i = s.getIndex();
    if (i == null || i < 0 || i >= steps.size()) {
      return null;
    }
    PluginStep p = steps.get(i).getPlugin();
    return p != null && Objects.equals(p.getName(), s.getName()) ? p : null;
  }

  private static List<StepPluginStatus> stored(RolloutPass pass) {
    var canary = pass.old.getCanary();
    return canary == null || canary.getStepPluginStatuses() == null
        ? List.of()
        : canary.getStepPluginStatuses();
  }

  private static StepPluginStatus find(
      List<StepPluginStatus> list, Integer index, String name, StepOperation op) {
    for (StepPluginStatus s : list) {
      if (Objects.equals(s.getIndex(), index)
          && Objects.equals(s.getName(), name)
          && op.statusName().equals(s.getOperation())) {
        return s;
      }
    }
    return null;
  }

  /**
   * Entries are unique by (index, name, operation): replace in place, else append
   * (docs/compatibility.md §10.3).
   */
  private static void put(List<StepPluginStatus> list, StepPluginStatus s) {
    for (int i = 0; i < list.size(); i++) {
      StepPluginStatus e = list.get(i);
      if (Objects.equals(e.getIndex(), s.getIndex())
          && Objects.equals(e.getName(), s.getName())
          && Objects.equals(e.getOperation(), s.getOperation())) {
        list.set(i, s);
        return;
      }
    }
    list.add(s);
  }

  private static int nz(Integer i) {
    return i == null ? 0 : i;
  }

  private static String registryName() {
    return io.rollgate.plugin.PluginRegistry.CONFIG_MAP_NAME;
  }

  /**
   * Checks a step's {@code plugin.config} against the JSON Schema of the plugin's registration
   * ({@code configSchema}, docs/plugins.md "Configuration schema").
   */
  @FunctionalInterface
  public interface StepConfigCheck {

    /**
     * Validates a configuration.
     *
     * @param schema the registration's JSON Schema
     * @param config the step's {@code plugin.config}, or null when absent
     * @param field the field path of the configuration, {@code
     *     spec.strategy.canary.steps[<i>].plugin.config}
     * @return the first problem as {@code <field path>: <reason>}, or empty when the config matches
     */
    Optional<String> check(JsonNode schema, JsonNode config, String field);
  }
}
