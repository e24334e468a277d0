package io.rollgate.controller.rollout.canary;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Annotations;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.ModelJson;
import io.rollgate.api.PauseReason;
import io.rollgate.api.RolloutStatus;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.canary.steps.CanarySnapshot;
import io.rollgate.controller.rollout.canary.steps.CanarySnapshots;
import io.rollgate.controller.rollout.canary.steps.CanaryStepDecision;
import io.rollgate.controller.rollout.canary.steps.CanaryStepPlan;
import io.rollgate.controller.rollout.canary.steps.CanaryStepPlugins;
import io.rollgate.controller.rollout.model.PodTemplateHash;
import io.rollgate.controller.rollout.pass.PauseBookkeeping;
import io.rollgate.controller.rollout.pass.RollbackWindow;
import io.rollgate.controller.rollout.pass.RolloutConditions;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.controller.rollout.pass.SharedSteps;
import io.rollgate.controller.rollout.replicasets.EphemeralMetadata;
import io.rollgate.controller.rollout.replicasets.PodRestarts;
import io.rollgate.controller.rollout.replicasets.ReplicaSetWrites;
import io.rollgate.controller.rollout.replicasets.Selectors;
import io.rollgate.controller.rollout.runs.RolloutAnalysisRuns;
import io.rollgate.controller.rollout.runs.RolloutExperiments;
import io.rollgate.controller.rollout.services.Services;
import io.rollgate.controller.rollout.status.PauseConditions;
import io.rollgate.controller.rollout.status.Phase;
import io.rollgate.controller.rollout.trafficrouting.CanaryServices;
import io.rollgate.controller.rollout.trafficrouting.TrafficRouted;
import io.rollgate.controller.rollout.trafficrouting.TrafficRoutedScaling;
import io.rollgate.controller.rollout.trafficrouting.TrafficRouting;
import io.rollgate.controller.runtime.ReconcileOutcome;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The canary strategy without traffic routing (docs/compatibility.md §5): replica-ratio steps,
 * pauses, promotion, abort and the status Argo Rollouts writes for them.
 *
 * <p>One pass, in order: keep revisions in sync; reset the steps when the template or the steps
 * changed; pod restarts ({@code spec.restartAt}; a pass that evicted pods ends there); ephemeral
 * metadata (canaryMetadata / stableMetadata); clean up old ReplicaSets beyond {@code
 * revisionHistoryLimit}; scale at most one category of ReplicaSets (stable, then new, then the
 * others); pause-step bookkeeping; plugin steps (run, abort, terminate; {@link CanaryStepPlugins});
 * status sync (full promotion, abort, step advance, conditions, phase).
 */
public final class CanaryReconciler {

  private static final Logger LOG = LoggerFactory.getLogger(CanaryReconciler.class);

  private final SharedSteps base;
  private final RolloutCache cache;
  private final PodRestarts restarts;
  private final EphemeralMetadata ephemeral;
  private final RolloutAnalysisRuns analysis;
  private final RolloutExperiments experiments;
  private final ReplicaSetWrites writes;
  private final CanaryServices services;
  private final TrafficRouting traffic;
  private final TrafficRoutedScaling trafficScaling;
  private final CanaryStepPlugins stepPlugins;
  private final io.rollgate.controller.traffic.TrafficRouters routers;

  /**
   * Creates the canary reconciler over the collaborators of the Rollout reconciler.
   *
   * @param base the steps shared with the top-level reconcile (invalid spec, revisions, new
   *     ReplicaSet, status write)
   * @param cache the informer caches
   * @param events the event recorder
   * @param restarts the pod restart step ({@code spec.restartAt})
   * @param ephemeral the ephemeral metadata step (canaryMetadata / stableMetadata)
   * @param analysis the AnalysisRun step
   * @param experiments the Experiment step
   * @param writes the ReplicaSet writer
   * @param services the Service step
   * @param routers the traffic routers
   * @param stepPlugins the plugin steps
   */
  public CanaryReconciler(
      SharedSteps base,
      RolloutCache cache,
      EventRecorder events,
      PodRestarts restarts,
      EphemeralMetadata ephemeral,
      RolloutAnalysisRuns analysis,
      RolloutExperiments experiments,
      ReplicaSetWrites writes,
      Services services,
      io.rollgate.controller.traffic.TrafficRouters routers,
      CanaryStepPlugins stepPlugins) {
    this.base = base;
    this.cache = cache;
    this.restarts = restarts;
    this.ephemeral = ephemeral;
    this.analysis = analysis;
    this.experiments = experiments;
    this.writes = writes;
    this.routers = routers;
    this.services = new CanaryServices(services, cache);
    this.traffic = new TrafficRouting(routers, this.services, events);
    this.trafficScaling = new TrafficRoutedScaling(writes, cache, routers.targetGroupVerifier());
    this.stepPlugins = stepPlugins;
  }

  /**
   * Runs the canary part of one pass (docs/compatibility.md §5.1).
   *
   * @param pass the pass, with its ReplicaSets read
   * @return a Future completing with the outcome of the pass, or failing with an API error (a 409
   *     when the Rollout changed meanwhile)
   */
  public Future<ReconcileOutcome> reconcile(RolloutPass pass) {
    List<io.rollgate.validation.FieldError> errors = services.validate(pass);
    if (!errors.isEmpty()) {
      return base.invalidSpec(pass, errors);
    }
    return base.syncRevisions(pass)
        .compose(v -> stepsOrTemplateChanged(pass) ? resetSteps(pass) : progress(pass));
  }

  private Future<ReconcileOutcome> progress(RolloutPass pass) {
    if (scalingEvent(pass)) {
      return syncReplicasOnly(pass);
    }
    return restarts
        .reconcile(pass)
        .compose(
            evicted ->
                evicted
                    ? Future.succeededFuture(ReconcileOutcome.requeueAfter(pass.requeue))
                    : afterRestarts(pass));
  }

  /** docs/compatibility.md §5.1 items 3-13, in a pass that evicted no pod. */
  private Future<ReconcileOutcome> afterRestarts(RolloutPass pass) {
    return ephemeral
        .sync(pass, false)
        .compose(v -> cleanupOldReplicaSets(pass))
        .compose(v -> services.reconcile(pass))
        .compose(v -> traffic.reconcile(pass))
        .compose(v -> analysis.reconcileCanary(pass))
        .compose(v -> experiments.reconcile(pass))
        .compose(
            v ->
                // docs/compatibility.md §5.1 item 9: an inconclusive run paused the rollout;
                // straight to status sync.
                pass.addPause.contains(PauseReason.INCONCLUSIVE_ANALYSIS_RUN)
                        || pass.addPause.contains(PauseReason.INCONCLUSIVE_EXPERIMENT)
                    ? Future.succeededFuture(true)
                    : scaleReplicaSets(pass, true))
        .compose(
            scaled -> {
              if (scaled) {
                return syncStatus(pass, false);
              }
              // docs/compatibility.md §5.1 items 11-12: a pause step ends the pass; otherwise
              // plugin steps, then status sync.
              if (reconcilePauseStep(pass)) {
                return syncStatus(pass, true);
              }
              return stepPlugins.reconcile(pass).compose(v -> syncStatus(pass, true));
            });
  }

  private CanaryStrategy canary(RolloutPass pass) {
    return pass.rollout.getSpec().getStrategy().getCanary();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Template / steps change

  private boolean stepsOrTemplateChanged(RolloutPass pass) {
    pass.stepsHash = stepsHash(pass);
    String oldStepHash = pass.old.getCurrentStepHash();
    String oldPodHash = pass.old.getCurrentPodHash();
    return oldStepHash == null
        || oldStepHash.isEmpty()
        || !oldStepHash.equals(pass.stepsHash)
        || (oldPodHash != null && !oldPodHash.isEmpty() && !oldPodHash.equals(pass.podHash));
  }

  private String stepsHash(RolloutPass pass) {
    try {
      // Go encodes absent steps as null and an empty list as []: hash exactly what the spec holds.
      return PodTemplateHash.stepsHash(
          ModelJson.mapper().writeValueAsBytes(canary(pass).getSteps()));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize spec.strategy.canary.steps", e);
    }
  }

  /**
   * docs/compatibility.md §5.3 item 2: a new template or new steps restart the steps (or skip them
   * on a return to stable).
   */
  private Future<ReconcileOutcome> resetSteps(RolloutPass pass) {
    RolloutStatus status = baseStatus(pass);
    pass.clearPauses = true;
    pass.removeAbort = true;
    status.setPromoteFull(null);
    if (status.getCanary() != null) {
      status.getCanary().setCurrentStepAnalysisRunStatus(null);
      status.getCanary().setCurrentBackgroundAnalysisRunStatus(null);
      status.getCanary().setStepPluginStatuses(null);
    }
    int steps = pass.steps().size();
    if (steps == 0) {
      status.setCurrentStepIndex(null);
    } else if (pass.podHash.equals(pass.old.getStableRS())) {
      status.setCurrentStepIndex(steps);
      pass.event("SkipSteps", "Rollback to stable ReplicaSets");
    } else if (RolloutPass.spec(pass.newRS) > 0 && RollbackWindow.within(pass)) {
      status.setCurrentStepIndex(steps);
      pass.event("SkipSteps", "Rollback to active ReplicaSets within RollbackWindow");
    } else {
      status.setCurrentStepIndex(0);
    }
    LOG.info(
        "{} template or steps changed: podHash={} stepHash={} currentStepIndex={}",
        pass.ctx,
        pass.podHash,
        pass.stepsHash,
        status.getCurrentStepIndex());
    return finish(pass, status, false);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Revision history

  private Future<Void> cleanupOldReplicaSets(RolloutPass pass) {
    return writes.cleanupOldReplicaSets(pass, java.util.Set.of());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Scaling

  /**
   * docs/compatibility.md §4 item 7: {@code spec.replicas} changed (HPA, {@code kubectl scale})
   * since the new or the stable ReplicaSet (whichever has pods) was last scaled, as its {@code
   * desired-replicas} annotation tells.
   */
  private static boolean scalingEvent(RolloutPass pass) {
    String want = String.valueOf(pass.replicas);
    for (ReplicaSet rs : new ReplicaSet[] {pass.newRS, pass.stableRS}) {
      if (rs != null && RolloutPass.spec(rs) > 0 && rs.getMetadata().getAnnotations() != null) {
        String desired =
            rs.getMetadata().getAnnotations().get(io.rollgate.api.Annotations.DESIRED_REPLICAS);
        if (desired != null && !desired.equals(want)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * A scaling event: only the replica counts follow the new {@code spec.replicas} (also while
   * paused, manually or at a step); steps, pauses and promotion are left as they are. ReplicaSets
   * whose count is already right only get their {@code desired-replicas} annotation updated, which
   * ends the event.
   */
  private Future<ReconcileOutcome> syncReplicasOnly(RolloutPass pass) {
    LOG.info("{} scaling event: spec.replicas={}", pass.ctx, pass.replicas);
    return scaleReplicaSets(pass, false)
        .compose(
            scaled -> {
              if (scaled) {
                return Future.succeededFuture();
              }
              Future<Void> chain = Future.succeededFuture();
              for (ReplicaSet rs : new ReplicaSet[] {pass.stableRS, pass.newRS}) {
                boolean duplicate = rs == pass.newRS && pass.stableRS == pass.newRS;
                if (rs != null && !duplicate) {
                  chain = chain.compose(v -> writes.stampDesiredReplicas(pass, rs));
                }
              }
              return chain;
            })
        .compose(v -> syncStatus(pass, false));
  }

  /**
   * docs/compatibility.md §5.1 item 10: scale stable, then new, then the others; stop after the
   * first that changed.
   */
  private Future<Boolean> scaleReplicaSets(RolloutPass pass, boolean honourPause) {
    if (honourPause
        && (Boolean.TRUE.equals(pass.rollout.getSpec().getPaused())
            || PauseConditions.has(pass.old, PauseReason.INCONCLUSIVE_ANALYSIS_RUN))) {
      return Future.succeededFuture(false);
    }
    if (TrafficRouted.enabled(pass)) {
      return trafficScaling.scale(pass);
    }
    CanaryStepPlan.Replicas plan = CanaryStepDecision.decide(CanarySnapshots.of(pass)).replicas();
    if (pass.stableRS != null
        && pass.stableRS != pass.newRS
        && plan.stable() != RolloutPass.spec(pass.stableRS)) {
      return writes.scale(pass, pass.stableRS, plan.stable()).map(true);
    }
    if (plan.canary() != RolloutPass.spec(pass.newRS)) {
      return writes.scale(pass, pass.newRS, plan.canary()).map(true);
    }
    for (ReplicaSet rs : pass.otherRSs) {
      Integer target = plan.others().get(rs.getMetadata().getName());
      if (target != null && target != RolloutPass.spec(rs)) {
        return writes.scale(pass, rs, target).map(true);
      }
    }
    return writes.syncReplicaSetSpec(pass, pass.newRS).map(false);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Pause step

  /**
   * Pause-step bookkeeping (docs/compatibility.md §5.2).
   *
   * @return whether the current step is a pause step still being reconciled (the pass then skips
   *     plugin steps)
   */
  private boolean reconcilePauseStep(RolloutPass pass) {
    CanaryStepPlan.Pause pause = CanaryStepDecision.decide(CanarySnapshots.of(pass)).pause();
    if (!pause.holding()) {
      return false;
    }
    if (pause.addPauseCondition()) {
      pass.addPause.add(PauseReason.CANARY_PAUSE_STEP);
      LOG.info(
          "{} pausing at step {} ({})",
          pass.ctx,
          pass.old.getCurrentStepIndex(),
          stepString(currentStep(pass)));
    }
    if (pause.requeueAfter() != null) {
      pass.requeueAfter(pause.requeueAfter());
    }
    return true;
  }

  private CanaryStep currentStep(RolloutPass pass) {
    List<CanaryStep> steps = pass.steps();
    Integer index = pass.old.getCurrentStepIndex();
    int i = index == null ? 0 : index;
    return i < steps.size() ? steps.get(i) : null;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Status sync

  /**
   * The status fields every pass recomputes from the ReplicaSets (docs/compatibility.md §5.3 item
   * 1).
   */
  private RolloutStatus baseStatus(RolloutPass pass) {
    RolloutStatus s = RolloutPass.copy(pass.old);
    s.setCurrentPodHash(pass.podHash);
    s.setCurrentStepHash(pass.stepsHash);
    int replicas = 0;
    int ready = 0;
    int available = 0;
    for (ReplicaSet rs : pass.allRSs) {
      replicas += RolloutPass.current(rs);
      ready += RolloutPass.ready(rs);
      available += RolloutPass.available(rs);
    }
    s.setReplicas(replicas);
    s.setUpdatedReplicas(RolloutPass.current(pass.newRS));
    s.setReadyReplicas(ready);
    s.setAvailableReplicas(available);
    s.setHPAReplicas(replicas);
    s.setSelector(Selectors.format(pass.rollout.getSpec().getSelector()));
    if (Boolean.TRUE.equals(s.getPromoteFull()) && pass.podHash.equals(s.getStableRS())) {
      s.setPromoteFull(null);
    }
    if (pass.stepPluginStatuses != null) {
      if (s.getCanary() == null && !pass.stepPluginStatuses.isEmpty()) {
        s.setCanary(new io.rollgate.api.CanaryStatus());
      }
      if (s.getCanary() != null) {
        s.getCanary()
            .setStepPluginStatuses(
                pass.stepPluginStatuses.isEmpty() ? null : List.copyOf(pass.stepPluginStatuses));
      }
    }
    if (pass.trafficReconciled || !TrafficRouted.enabled(pass)) {
      // docs/compatibility.md §5.6: the weights the traffic step decided; none without a router.
      io.rollgate.api.TrafficWeights w = pass.trafficReconciled ? pass.trafficWeights : null;
      if (w != null && s.getCanary() == null) {
        s.setCanary(new io.rollgate.api.CanaryStatus());
      }
      if (s.getCanary() != null) {
        s.getCanary().setWeights(w);
      }
      CanaryStrategy canary = TrafficRouted.canary(pass);
      if (w != null
          && canary.getTrafficRouting() != null
          && canary.getTrafficRouting().getAlb() != null) {
        var v = pass.albVerification;
        if (v != null && v.writeStatus()) {
          // docs/traffic-routers.md "AWS ALB": what the target-group verification found (cleared
          // without the flag).
          s.setAlb(v.alb());
          s.setAlbs(v.albs());
        } else if (v == null && !routers.verifiesAlbTargetGroups()) {
          // Without target-group verification Argo clears status.alb/albs (they hold AWS ARNs only
          // verification reads).
          s.setAlb(null);
          s.setAlbs(null);
        }
      }
    }
    return s;
  }

  private Future<ReconcileOutcome> syncStatus(RolloutPass pass, boolean mayAdvance) {
    RolloutStatus status = baseStatus(pass);
    RolloutAnalysisRuns.applyCanaryStatus(pass, status);
    RolloutExperiments.applyCanaryStatus(pass, status);
    List<CanaryStep> steps = pass.steps();
    boolean paused = Boolean.TRUE.equals(pass.rollout.getSpec().getPaused());
    // Nothing to abort once the new ReplicaSet is the stable one.
    if (Boolean.TRUE.equals(pass.old.getAbort()) && pass.podHash.equals(pass.old.getStableRS())) {
      pass.removeAbort = true;
    }
    boolean promoteFull = Boolean.TRUE.equals(status.getPromoteFull());
    if (promoteFull) {
      pass.clearPauses = true;
      pass.removeAbort = true;
    }
    RollbackWindow.skipRemainingSteps(pass, status);
    CanaryStepPlan plan = CanaryStepDecision.decide(CanarySnapshots.of(pass));
    String promoteReason = shouldFullPromote(pass, status, promoteFull);
    if (promoteReason != null) {
      pass.clearPauses = true;
      pass.removeAbort = true;
      status.setPromoteFull(null);
      status.setCurrentStepIndex(steps.isEmpty() ? null : steps.size());
      status.setStableRS(pass.podHash);
      CanaryServices.onPromotion(pass, status, "Initial deploy".equals(promoteReason));
      if (status.getCanary() != null) {
        status.getCanary().setCurrentStepAnalysisRunStatus(null);
      }
      LOG.info(
          "{} promoted revision {} ({}) to stable: {}",
          pass.ctx,
          pass.revision(),
          pass.podHash,
          promoteReason);
      pass.event(
          "RolloutCompleted",
          "Rollout completed update to revision "
              + pass.revision()
              + " ("
              + pass.podHash
              + "): "
              + promoteReason);
    } else if (pass.aborted()) {
      status.setCurrentStepIndex(plan.nextStepIndex());
    } else if (mayAdvance && !paused && !steps.isEmpty()) {
      advanceStep(pass, status, plan);
    }
    return finish(pass, status, mayAdvance);
  }

  /**
   * docs/compatibility.md §5.10; returns the promotion reason, or null when the new ReplicaSet is
   * not promoted this pass.
   */
  private String shouldFullPromote(RolloutPass pass, RolloutStatus status, boolean promoteFull) {
    String stable = pass.old.getStableRS();
    if (stable == null || stable.isEmpty()) {
      return "Initial deploy";
    }
    if (stable.equals(pass.podHash)) {
      return null;
    }
    if (pass.aborted() && !promoteFull) {
      return null;
    }
    if (RolloutPass.available(pass.newRS) < pass.replicas) {
      return null;
    }
    if (promoteFull) {
      return "Full promotion requested";
    }
    if (RollbackWindow.within(pass)) {
      return "Rollback within window";
    }
    List<CanaryStep> steps = pass.steps();
    Integer index = status.getCurrentStepIndex();
    if (steps.isEmpty() || (index != null && index >= steps.size())) {
      return "Completed all " + steps.size() + " canary steps";
    }
    return null;
  }

  /**
   * Applies a completed step of the plan: the next index, the pause condition to drop, the event.
   */
  private void advanceStep(RolloutPass pass, RolloutStatus status, CanaryStepPlan plan) {
    Integer idx = status.getCurrentStepIndex();
    int index = idx == null ? 0 : idx;
    if (index >= pass.steps().size() || !plan.stepCompleted()) {
      return;
    }
    status.setCurrentStepIndex(plan.nextStepIndex());
    if (status.getCanary() != null) {
      status.getCanary().setCurrentStepAnalysisRunStatus(null);
    }
    pass.removePause.add(PauseReason.CANARY_PAUSE_STEP);
    LOG.info(
        "{} step {}/{} completed ({})",
        pass.ctx,
        plan.nextStepIndex(),
        pass.steps().size(),
        plan.step().description());
    plan.events().forEach(e -> pass.event(e.reason(), e.message()));
  }

  /** Step description used in {@code RolloutStepCompleted} events (Argo's wording). */
  static String stepString(CanaryStep step) {
    return CanarySnapshot.Step.describe(step);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Persist: pause/abort bookkeeping, conditions, phase

  private Future<ReconcileOutcome> finish(
      RolloutPass pass, RolloutStatus status, boolean evaluateDeadline) {
    applyPauseAndAbort(pass, status);
    boolean progressed = applyConditions(pass, status, evaluateDeadline);
    if (pass.addAbort) {
      // progressDeadlineAbort fired in this pass: bookkeeping again so the abort lands in this
      // write.
      applyPauseAndAbort(pass, status);
      applyConditions(pass, status, false);
    }
    status.setObservedGeneration(String.valueOf(pass.rollout.getMetadata().getGeneration()));
    if (pass.restartedAt != null) {
      status.setRestartedAt(pass.restartedAt);
    }
    Phase.apply(pass.rollout, status, pass.replicas, CanaryStepPlugins.blockedBy(pass));
    if (!progressed) {
      LOG.debug("{} no progress this pass", pass.ctx);
    }
    return base.persistAndFinish(pass, status);
  }

  /** docs/compatibility.md §3.4. */
  private void applyPauseAndAbort(RolloutPass pass, RolloutStatus status) {
    PauseBookkeeping.apply(pass, status);
  }

  /**
   * Sets Progressing, Available, Paused, Completed and Healthy (docs/compatibility.md §3.2, §3.5)
   * with the canary predicates.
   *
   * @return whether progress was observed in this pass
   */
  private boolean applyConditions(
      RolloutPass pass, RolloutStatus status, boolean evaluateDeadline) {
    boolean progress = progressed(pass.old, status);
    CanaryStep step = currentStep(pass);
    boolean waitingStep =
        step != null
            && (step.getPause() != null
                || step.getAnalysis() != null
                || step.getExperiment() != null);
    RolloutConditions.apply(
        pass,
        status,
        new RolloutConditions.Facts(
            progress,
            healthy(pass, status),
            RolloutConditions.nz(status.getAvailableReplicas()) >= pass.replicas,
            evaluateDeadline,
            (waitingStep && !pass.podHash.equals(status.getStableRS()))
                || awaitingScaleDown(pass)));
    return progress;
  }

  /**
   * Whether an older ReplicaSet (neither new nor stable) still waits for its {@code
   * scale-down-deadline}: no progress timeout then, as Argo ({@code
   * isWaitingForReplicaSetScaleDown}); the Rollout is done updating, only the delayed scale-down is
   * left.
   */
  private static boolean awaitingScaleDown(RolloutPass pass) {
    for (ReplicaSet rs : pass.otherRSs) {
      Map<String, String> a = rs.getMetadata().getAnnotations();
      if (a != null && a.containsKey(Annotations.SCALE_DOWN_DEADLINE)) {
        return true;
      }
    }
    return false;
  }

  /**
   * docs/compatibility.md §3.5: progress = any of these counters or markers moved since the stored
   * status.
   */
  private static boolean progressed(RolloutStatus old, RolloutStatus now) {
    return RolloutConditions.replicasProgressed(old, now)
        || !Objects.equals(old.getCurrentStepIndex(), now.getCurrentStepIndex())
        || !Objects.equals(old.getCurrentStepHash(), now.getCurrentStepHash());
  }

  /** Argo's RolloutHealthy predicate for canary (docs/compatibility.md §3.2). */
  private static boolean healthy(RolloutPass pass, RolloutStatus s) {
    int r = pass.replicas;
    String oldGen = pass.old.getObservedGeneration();
    boolean genObserved =
        oldGen != null && oldGen.equals(String.valueOf(pass.rollout.getMetadata().getGeneration()));
    List<CanaryStep> steps = pass.steps();
    boolean stepsDone =
        steps.isEmpty()
            || (s.getCurrentStepIndex() != null && s.getCurrentStepIndex() == steps.size());
    return RolloutConditions.nz(s.getUpdatedReplicas()) == r
        && RolloutConditions.nz(s.getAvailableReplicas()) == r
        && genObserved
        && stepsDone
        && pass.podHash.equals(s.getStableRS())
        && RolloutConditions.nz(s.getReplicas()) == r;
  }
}
