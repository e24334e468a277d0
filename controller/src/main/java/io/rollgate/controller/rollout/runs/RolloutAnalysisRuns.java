package io.rollgate.controller.rollout.runs;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.analysis.AnalysisReferences;
import io.rollgate.analysis.AnalysisSpecException;
import io.rollgate.analysis.AnalysisTemplates;
import io.rollgate.analysis.RunFactory;
import io.rollgate.analysis.RunHistory;
import io.rollgate.analysis.RunType;
import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.BlueGreenStatus;
import io.rollgate.api.BlueGreenStrategy;
import io.rollgate.api.CanaryStatus;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.Labels;
import io.rollgate.api.PauseCondition;
import io.rollgate.api.PauseReason;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutAnalysis;
import io.rollgate.api.RolloutAnalysisBackground;
import io.rollgate.api.RolloutAnalysisRunStatus;
import io.rollgate.api.RolloutStatus;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.model.BlueGreenReplicas;
import io.rollgate.controller.rollout.pass.RollbackWindow;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.controller.rollout.services.Services;
import io.rollgate.controller.rollout.status.PauseConditions;
import io.rollgate.kube.KubeApiException;
import io.rollgate.validation.FieldError;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AnalysisRuns a Rollout creates and reacts to (docs/compatibility.md §9.8): inline canary
 * {@code analysis} steps, background analysis ({@code spec.strategy.canary.analysis}) and
 * blue-green {@code prePromotionAnalysis} / {@code postPromotionAnalysis}.
 *
 * <p>One pass, per strategy: find the current runs (named in the stored status), decide for each
 * kind whether it stays, is replaced by a new run or is dropped; create what is missing; react to
 * the phases (Inconclusive pauses with {@code InconclusiveAnalysisRun}, Failed/Error aborts with
 * Argo's message); terminate every other unfinished run with {@code {"spec":{"terminate":true}}};
 * delete history beyond the limits. While the Rollout is aborted, fully promoted, fully promoted on
 * request, fast-rolled-back or on its first deploy, no run is created and every unfinished one is
 * terminated. The run references, their phase-change events and the pause/abort intents are written
 * with the pass's status.
 */
public final class RolloutAnalysisRuns {

  private static final Logger LOG = LoggerFactory.getLogger(RolloutAnalysisRuns.class);
  private static final int MAX_NAME_ATTEMPTS = 100;

  private final RolloutCache cache;
  private final KubeApi api;

  /**
   * Creates the Rollout's AnalysisRun step.
   *
   * @param cache the informer caches (templates, owned runs)
   * @param api the API facade (run creation and patches)
   */
  public RolloutAnalysisRuns(RolloutCache cache, KubeApi api) {
    this.cache = cache;
    this.api = api;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Validation (docs/compatibility.md §2.3 items 2-5)

  /**
   * Checks that every analysis of the Rollout resolves into a run: templates exist (recursively),
   * flatten, and the arguments resolve.
   *
   * @param rollout the Rollout
   * @return the problems, first one first; empty when every analysis is usable
   */
  public List<FieldError> validate(Rollout rollout) {
    return AnalysisReferences.validate(rollout, lookup(rollout.getMetadata().getNamespace()));
  }

  private AnalysisTemplates.Lookup lookup(String namespace) {
    return new AnalysisTemplates.Lookup() {
      @Override
      public io.rollgate.api.AnalysisTemplateSpec namespaced(String name) {
        return cache.analysisTemplate(namespace, name);
      }

      @Override
      public io.rollgate.api.AnalysisTemplateSpec cluster(String name) {
        return cache.clusterAnalysisTemplate(name);
      }
    };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Canary

  /**
   * docs/compatibility.md §5.1 item 9: step and background runs of a canary Rollout.
   *
   * @param pass the pass, ReplicaSets classified
   * @return a Future completing when runs were created, terminated and pruned; fails on an API
   *     error
   */
  public Future<Void> reconcileCanary(RolloutPass pass) {
    RolloutPass.AnalysisRuns st = pass.analysis;
    st.reconciled = true;
    List<AnalysisRun> all = owned(pass);
    CanaryStatus oldCanary = pass.old.getCanary();
    AnalysisRun curStep =
        byName(all, oldCanary == null ? null : oldCanary.getCurrentStepAnalysisRunStatus());
    AnalysisRun curBackground =
        byName(all, oldCanary == null ? null : oldCanary.getCurrentBackgroundAnalysisRunStatus());
    if (cancelAll(pass)) {
      st.step = curStep;
      st.background = curBackground;
      return terminateAll(pass, all).compose(v -> deleteHistory(pass, all));
    }
    CanaryStrategy canary = pass.rollout.getSpec().getStrategy().getCanary();
    Future<Void> chain = Future.succeededFuture();
    // Step run.
    List<CanaryStep> steps = pass.steps();
    Integer idx = pass.old.getCurrentStepIndex();
    int index = idx == null ? 0 : idx;
    CanaryStep step = index < steps.size() ? steps.get(index) : null;
    if (curStep != null
        && !(String.valueOf(index).equals(label(curStep, Labels.STEP_INDEX))
            && ofNewRS(pass, curStep))) {
      curStep = null; // promoted or skipped past it: replaced (and terminated below)
    }
    if (step == null || step.getAnalysis() == null) {
      st.step = null;
    } else if (hasAnyPause(pass.old)) {
      st.step = curStep;
    } else if (needsNew(pass, curStep)) {
      chain =
          chain.compose(
              v ->
                  create(pass, step.getAnalysis(), RunType.STEP, index)
                      .onSuccess(r -> st.step = r)
                      .mapEmpty());
    } else {
      st.step = curStep;
    }
    // Background run.
    RolloutAnalysisBackground background = canary.getAnalysis();
    if (curBackground != null && !ofNewRS(pass, curBackground)) {
      curBackground = null;
    }
    String oldStable = pass.old.getStableRS();
    String oldCurrent = pass.old.getCurrentPodHash();
    int startingStep =
        background == null || background.getStartingStep() == null
            ? 0
            : background.getStartingStep();
    if (background == null
        || background.getTemplates() == null
        || background.getTemplates().isEmpty()) {
      st.background = null;
    } else if (oldStable == null
        || oldStable.isEmpty()
        || oldCurrent == null
        || oldCurrent.isEmpty()
        || oldStable.equals(oldCurrent)
        || (!steps.isEmpty() && index < startingStep)) {
      st.background = null;
    } else if (PauseConditions.has(pass.old, PauseReason.INCONCLUSIVE_ANALYSIS_RUN)) {
      st.background = curBackground;
    } else if (needsNew(pass, curBackground)) {
      chain =
          chain.compose(
              v ->
                  create(pass, background, RunType.BACKGROUND, null)
                      .onSuccess(r -> st.background = r)
                      .mapEmpty());
    } else {
      st.background = curBackground;
    }
    return chain
        .onSuccess(
            v -> {
              react(pass, RunType.STEP, st.step);
              react(pass, RunType.BACKGROUND, st.background);
            })
        .compose(v -> terminateOthers(pass, all, st.step, st.background))
        .compose(v -> deleteHistory(pass, all, st.step, st.background));
  }

  /**
   * Whether the current analysis step's run succeeded (docs/compatibility.md §5.2: the step then
   * completes).
   *
   * @param pass the pass
   * @return true when this pass's step run is Successful
   */
  public static boolean stepSucceeded(RolloutPass pass) {
    return pass.analysis.reconciled && AnalysisPhase.SUCCESSFUL.equals(phase(pass.analysis.step));
  }

  /**
   * Writes the canary run references ({@code status.canary.currentStepAnalysisRunStatus}, {@code
   * currentBackgroundAnalysisRunStatus}) and queues the phase-change events. No-op when the
   * analysis stage did not run this pass.
   *
   * @param pass the pass
   * @param status the status being written
   */
  public static void applyCanaryStatus(RolloutPass pass, RolloutStatus status) {
    RolloutPass.AnalysisRuns st = pass.analysis;
    if (!st.reconciled) {
      return;
    }
    CanaryStatus old = pass.old.getCanary();
    CanaryStatus c = status.getCanary() == null ? new CanaryStatus() : status.getCanary();
    c.setCurrentStepAnalysisRunStatus(
        reference(
            pass,
            RunType.STEP,
            old == null ? null : old.getCurrentStepAnalysisRunStatus(),
            st.step));
    c.setCurrentBackgroundAnalysisRunStatus(
        reference(
            pass,
            RunType.BACKGROUND,
            old == null ? null : old.getCurrentBackgroundAnalysisRunStatus(),
            st.background));
    status.setCanary(c);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Blue-green

  /**
   * docs/compatibility.md §7.1 item 5: pre- and post-promotion runs of a blue-green Rollout, after
   * the active Service was reconciled.
   *
   * @param pass the pass (Services loaded, new ReplicaSet sized)
   * @return a Future completing when runs were created, terminated and pruned; fails on an API
   *     error
   */
  public Future<Void> reconcileBlueGreen(RolloutPass pass) {
    RolloutPass.AnalysisRuns st = pass.analysis;
    st.reconciled = true;
    List<AnalysisRun> all = owned(pass);
    BlueGreenStatus oldBg = pass.old.getBlueGreen();
    AnalysisRun curPre =
        byName(all, oldBg == null ? null : oldBg.getPrePromotionAnalysisRunStatus());
    AnalysisRun curPost =
        byName(all, oldBg == null ? null : oldBg.getPostPromotionAnalysisRunStatus());
    if (cancelAll(pass)) {
      st.pre = curPre;
      st.post = curPost;
      return terminateAll(pass, all).compose(v -> deleteHistory(pass, all));
    }
    if (curPre != null && !ofNewRS(pass, curPre)) {
      curPre = null;
    }
    if (curPost != null && !ofNewRS(pass, curPost)) {
      curPost = null;
    }
    BlueGreenStrategy bg = pass.rollout.getSpec().getStrategy().getBlueGreen();
    String active = Services.selectedHash(pass.activeService);
    boolean inconclusivePause =
        PauseConditions.has(pass.old, PauseReason.INCONCLUSIVE_ANALYSIS_RUN);
    boolean retry = pass.old.getAbortedAt() != null;
    Future<Void> chain = Future.succeededFuture();
    RolloutAnalysis preSpec = bg.getPrePromotionAnalysis();
    if (preSpec == null || preSpec.getTemplates() == null || preSpec.getTemplates().isEmpty()) {
      st.pre = null;
    } else if (pass.podHash.equals(active) || inconclusivePause) {
      st.pre = curPre;
    } else if (!BlueGreenReplicas.readyForPause(
        pass.newDesired, RolloutPass.spec(pass.newRS), RolloutPass.available(pass.newRS))) {
      st.pre = retry ? null : curPre;
    } else if (needsNew(pass, curPre)) {
      chain =
          chain.compose(
              v ->
                  create(pass, preSpec, RunType.PRE_PROMOTION, null)
                      .onSuccess(r -> st.pre = r)
                      .mapEmpty());
    } else {
      st.pre = curPre;
    }
    RolloutAnalysis postSpec = bg.getPostPromotionAnalysis();
    if (postSpec == null || postSpec.getTemplates() == null || postSpec.getTemplates().isEmpty()) {
      st.post = null;
    } else if (!pass.podHash.equals(active)) {
      st.post = retry ? null : curPost;
    } else if (inconclusivePause) {
      st.post = curPost;
    } else if (curPost == null && RollbackWindow.fastRollback(pass, pass.old.getStableRS())) {
      st.post =
          null; // docs/compatibility.md §7.5: a fast rollback is promoted without post-promotion
      // analysis
    } else if (curPost == null && Boolean.FALSE.equals(pass.targetsVerified)) {
      st.post =
          null; // docs/traffic-routers.md "AWS ALB": not before the active target groups have the
      // endpoints
    } else if (needsNew(pass, curPost)) {
      chain =
          chain.compose(
              v ->
                  create(pass, postSpec, RunType.POST_PROMOTION, null)
                      .onSuccess(r -> st.post = r)
                      .mapEmpty());
    } else {
      st.post = curPost;
    }
    return chain
        .onSuccess(
            v -> {
              react(pass, RunType.PRE_PROMOTION, st.pre);
              react(pass, RunType.POST_PROMOTION, st.post);
            })
        .compose(v -> terminateOthers(pass, all, st.pre, st.post))
        .compose(v -> deleteHistory(pass, all, st.pre, st.post));
  }

  /**
   * Writes the blue-green run references ({@code status.blueGreen.prePromotionAnalysisRunStatus},
   * {@code postPromotionAnalysisRunStatus}) and queues the phase-change events. No-op when the
   * analysis stage did not run this pass.
   *
   * @param pass the pass
   * @param bg the blue-green status being written
   */
  public static void applyBlueGreenStatus(RolloutPass pass, BlueGreenStatus bg) {
    RolloutPass.AnalysisRuns st = pass.analysis;
    if (!st.reconciled) {
      return;
    }
    BlueGreenStatus old = pass.old.getBlueGreen();
    bg.setPrePromotionAnalysisRunStatus(
        reference(
            pass,
            RunType.PRE_PROMOTION,
            old == null ? null : old.getPrePromotionAnalysisRunStatus(),
            st.pre));
    bg.setPostPromotionAnalysisRunStatus(
        reference(
            pass,
            RunType.POST_PROMOTION,
            old == null ? null : old.getPostPromotionAnalysisRunStatus(),
            st.post));
  }

  /**
   * docs/compatibility.md §7.6: with {@code postPromotionAnalysis} and no explicit {@code
   * scaleDownDelaySeconds}, previous ReplicaSets keep their pods until the post-promotion run of
   * the new ReplicaSet is Successful.
   *
   * @param pass the pass
   * @return whether the scale-down of previous ReplicaSets waits this pass
   */
  public static boolean holdsScaleDownForPostPromotion(RolloutPass pass) {
    BlueGreenStrategy bg = pass.rollout.getSpec().getStrategy().getBlueGreen();
    if (bg == null
        || bg.getPostPromotionAnalysis() == null
        || bg.getScaleDownDelaySeconds() != null) {
      return false;
    }
    if (pass.podHash.equals(pass.old.getStableRS()) || pass.aborted()) {
      return false;
    }
    BlueGreenStatus old = pass.old.getBlueGreen();
    RolloutAnalysisRunStatus post = old == null ? null : old.getPostPromotionAnalysisRunStatus();
    return post == null || !AnalysisPhase.SUCCESSFUL.equals(post.getStatus());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Decisions

  /**
   * No run is created, and every unfinished one is terminated, when the Rollout is aborted, already
   * fully promoted (the new ReplicaSet is the stable one, which also covers a fast rollback),
   * promoted with {@code promoteFull}, rolled back within {@code rollbackWindow}, or on its first
   * deploy (no stable ReplicaSet).
   */
  private static boolean cancelAll(RolloutPass pass) {
    String stable = pass.old.getStableRS();
    return pass.aborted()
        || stable == null
        || stable.isEmpty()
        || stable.equals(pass.podHash)
        || Boolean.TRUE.equals(pass.old.getPromoteFull())
        || RollbackWindow.within(pass);
  }

  /**
   * docs/compatibility.md §9.8: a new run is needed when there is none, when the user promoted past
   * an Inconclusive run ({@code controllerPause} without CanaryPauseStep/BlueGreenPause
   * conditions), or right after a retry of an aborted Rollout ({@code abortedAt} still set in the
   * stored status).
   */
  private static boolean needsNew(RolloutPass pass, AnalysisRun current) {
    if (current == null) {
      return true;
    }
    if (pass.old.getAbortedAt() != null) {
      return true;
    }
    return Boolean.TRUE.equals(pass.old.getControllerPause())
        && !PauseConditions.has(pass.old, PauseReason.CANARY_PAUSE_STEP)
        && !PauseConditions.has(pass.old, PauseReason.BLUE_GREEN_PAUSE)
        && AnalysisPhase.INCONCLUSIVE.equals(phase(current));
  }

  /**
   * Inconclusive pauses the Rollout; Failed and Error abort it with Argo's message
   * (docs/compatibility.md §9.8, §7.7).
   */
  private static void react(RolloutPass pass, RunType type, AnalysisRun run) {
    String phase = phase(run);
    if (AnalysisPhase.INCONCLUSIVE.equals(phase)) {
      if (!PauseConditions.has(pass.old, PauseReason.INCONCLUSIVE_ANALYSIS_RUN)) {
        LOG.info(
            "{} {} run {} is Inconclusive: pausing",
            pass.ctx,
            type.label(),
            run.getMetadata().getName());
      }
      pass.addPause.add(PauseReason.INCONCLUSIVE_ANALYSIS_RUN);
    } else if (AnalysisPhase.FAILED.equals(phase) || AnalysisPhase.ERROR.equals(phase)) {
      if (!pass.addAbort) {
        pass.addAbort = true;
        pass.abortMessage = type.abortMessage(phase, run.getStatus().getMessage());
        LOG.info(
            "{} {} run {} is {}: aborting ({})",
            pass.ctx,
            type.label(),
            run.getMetadata().getName(),
            phase,
            pass.abortMessage);
      }
    }
  }

  private static boolean hasAnyPause(RolloutStatus status) {
    List<PauseCondition> c = status.getPauseConditions();
    return c != null && !c.isEmpty();
  }

  private static boolean ofNewRS(RolloutPass pass, AnalysisRun run) {
    return pass.podHash.equals(label(run, Labels.POD_TEMPLATE_HASH));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Status references and events

  private static RolloutAnalysisRunStatus reference(
      RolloutPass pass, RunType type, RolloutAnalysisRunStatus previous, AnalysisRun run) {
    if (run == null) {
      return null;
    }
    String phase = phase(run);
    String name = run.getMetadata().getName();
    if (phase != null && !phase.isEmpty()) {
      boolean changed =
          previous == null
              || (name.equals(previous.getName()) && !phase.equals(previous.getStatus()));
      if (changed) {
        String message =
            type.eventMessage(name, phase, previous == null ? null : previous.getStatus());
        if (AnalysisPhase.FAILED.equals(phase) || AnalysisPhase.ERROR.equals(phase)) {
          pass.warning("AnalysisRun" + phase, message);
        } else {
          pass.event("AnalysisRun" + phase, message);
        }
      }
    }
    RolloutAnalysisRunStatus s = new RolloutAnalysisRunStatus();
    s.setName(name);
    s.setStatus(phase == null ? "" : phase);
    String message = run.getStatus() == null ? null : run.getStatus().getMessage();
    s.setMessage(message == null || message.isEmpty() ? null : message);
    return s;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Writes

  private List<AnalysisRun> owned(RolloutPass pass) {
    List<AnalysisRun> runs = new ArrayList<>(cache.ownedAnalysisRuns(pass.rollout));
    runs.removeIf(r -> r.getMetadata().getDeletionTimestamp() != null);
    return runs;
  }

  private static AnalysisRun byName(List<AnalysisRun> runs, RolloutAnalysisRunStatus ref) {
    if (ref == null || ref.getName() == null) {
      return null;
    }
    for (AnalysisRun r : runs) {
      if (ref.getName().equals(r.getMetadata().getName())) {
        return r;
      }
    }
    return null;
  }

  /**
   * Creates the run, or reuses an unfinished identical one of ours found under the same name; any
   * other run of that name makes the next attempt use {@code <name>.1}, {@code <name>.2}, ...
   */
  private Future<AnalysisRun> create(
      RolloutPass pass, RolloutAnalysis analysis, RunType type, Integer stepIndex) {
    AnalysisRun run;
    try {
      run =
          RunFactory.build(
              pass.rollout,
              analysis,
              type,
              stepIndex,
              pass.podHash,
              pass.old.getStableRS(),
              pass.revision(),
              lookup(pass.namespace()));
    } catch (AnalysisSpecException e) {
      return Future.failedFuture(
          new IllegalStateException(
              "cannot build " + type.label() + " AnalysisRun: " + e.getMessage(), e));
    }
    return attempt(pass, run, run.getMetadata().getName(), 0);
  }

  private Future<AnalysisRun> attempt(
      RolloutPass pass, AnalysisRun run, String baseName, int attempt) {
    String name = RunFactory.collisionName(baseName, attempt);
    run.getMetadata().setName(name);
    return api.create(run)
        .map(
            created -> {
              cache.wrote(created);
              LOG.info(
                  "{} created AnalysisRun {} ({})",
                  pass.ctx,
                  name,
                  label(created, Labels.ROLLOUT_TYPE));
              return created;
            })
        .recover(
            err -> {
              if (!(err instanceof KubeApiException k && k.code() == 409)
                  || attempt >= MAX_NAME_ATTEMPTS) {
                return Future.failedFuture(err);
              }
              return api.get(AnalysisRun.class, pass.namespace(), name)
                  .compose(
                      existing -> {
                        if (existing != null
                            && !Boolean.TRUE.equals(
                                existing.getSpec() == null
                                    ? null
                                    : existing.getSpec().getTerminate())
                            && RunFactory.reusable(
                                existing, run, pass.rollout.getMetadata().getUid())) {
                          cache.wrote(existing);
                          LOG.info("{} reusing AnalysisRun {}", pass.ctx, name);
                          return Future.succeededFuture(existing);
                        }
                        return attempt(pass, run, baseName, attempt + 1);
                      });
            });
  }

  private Future<Void> terminateAll(RolloutPass pass, List<AnalysisRun> runs) {
    return terminate(pass, runs);
  }

  private Future<Void> terminateOthers(
      RolloutPass pass, List<AnalysisRun> all, AnalysisRun... current) {
    Set<String> keep = names(current);
    List<AnalysisRun> others = new ArrayList<>();
    for (AnalysisRun r : all) {
      if (!keep.contains(r.getMetadata().getName())) {
        others.add(r);
      }
    }
    return terminate(pass, others);
  }

  /**
   * Merge patch {@code {"spec":{"terminate":true}}} on each unfinished run not yet told to
   * terminate.
   */
  private Future<Void> terminate(RolloutPass pass, List<AnalysisRun> runs) {
    List<Future<Void>> writes = new ArrayList<>();
    for (AnalysisRun r : runs) {
      boolean done = AnalysisPhase.isCompleted(phase(r));
      boolean terminating = r.getSpec() != null && Boolean.TRUE.equals(r.getSpec().getTerminate());
      if (done || terminating) {
        continue;
      }
      String name = r.getMetadata().getName();
      LOG.info("{} terminating AnalysisRun {}", pass.ctx, name);
      writes.add(
          api.patch(
                  AnalysisRun.class,
                  pass.namespace(),
                  name,
                  null,
                  "{\"spec\":{\"terminate\":true}}")
              .onSuccess(cache::wrote)
              .<Void>mapEmpty()
              .recover(
                  err ->
                      KubeApiException.isNotFound(err)
                          ? Future.succeededFuture()
                          : Future.failedFuture(err)));
    }
    return Future.all(writes).mapEmpty();
  }

  private Future<Void> deleteHistory(
      RolloutPass pass, List<AnalysisRun> all, AnalysisRun... current) {
    Set<String> keep = names(current);
    RolloutStatus old = pass.old;
    // References kept in the status stay, even while cancelled (blue-green keeps its pre/post
    // runs).
    if (old.getCanary() != null) {
      addName(keep, old.getCanary().getCurrentStepAnalysisRunStatus());
      addName(keep, old.getCanary().getCurrentBackgroundAnalysisRunStatus());
    }
    if (old.getBlueGreen() != null) {
      addName(keep, old.getBlueGreen().getPrePromotionAnalysisRunStatus());
      addName(keep, old.getBlueGreen().getPostPromotionAnalysisRunStatus());
    }
    List<AnalysisRun> nonCurrent = new ArrayList<>();
    for (AnalysisRun r : all) {
      if (!keep.contains(r.getMetadata().getName())) {
        nonCurrent.add(r);
      }
    }
    Set<String> liveHashes = new HashSet<>();
    for (ReplicaSet rs : pass.allRSs) {
      if (rs.getMetadata().getDeletionTimestamp() == null && RolloutPass.hashOf(rs) != null) {
        liveHashes.add(RolloutPass.hashOf(rs));
      }
    }
    var limits = pass.rollout.getSpec().getAnalysis();
    int ok =
        limits == null || limits.getSuccessfulRunHistoryLimit() == null
            ? 5
            : limits.getSuccessfulRunHistoryLimit();
    int bad =
        limits == null || limits.getUnsuccessfulRunHistoryLimit() == null
            ? 5
            : limits.getUnsuccessfulRunHistoryLimit();
    List<Future<Void>> deletes = new ArrayList<>();
    for (AnalysisRun r : RunHistory.toDelete(nonCurrent, liveHashes, ok, bad)) {
      String name = r.getMetadata().getName();
      LOG.info("{} deleting AnalysisRun {} (history)", pass.ctx, name);
      deletes.add(
          api.delete(AnalysisRun.class, pass.namespace(), name)
              .onSuccess(v -> cache.forget("AnalysisRun", pass.namespace(), name)));
    }
    return Future.all(deletes).mapEmpty();
  }

  private static Set<String> names(AnalysisRun... runs) {
    Set<String> s = new HashSet<>();
    for (AnalysisRun r : runs) {
      if (r != null) {
        s.add(r.getMetadata().getName());
      }
    }
    return s;
  }

  private static void addName(Set<String> names, RolloutAnalysisRunStatus ref) {
    if (ref != null && ref.getName() != null) {
      names.add(ref.getName());
    }
  }

  /**
   * The phase of a run.
   *
   * @param run the run, may be null
   * @return {@code status.phase}, or null for a missing run or status
   */
  public static String phase(AnalysisRun run) {
    return run == null || run.getStatus() == null ? null : run.getStatus().getPhase();
  }

  private static String label(AnalysisRun run, String key) {
    Map<String, String> l = run.getMetadata().getLabels();
    return l == null ? null : l.get(key);
  }

  static boolean sameRun(RolloutAnalysisRunStatus ref, AnalysisRun run) {
    return ref != null && run != null && Objects.equals(ref.getName(), run.getMetadata().getName());
  }
}
