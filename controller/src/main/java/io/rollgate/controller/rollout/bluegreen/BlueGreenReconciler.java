package io.rollgate.controller.rollout.bluegreen;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Annotations;
import io.rollgate.api.BlueGreenStatus;
import io.rollgate.api.BlueGreenStrategy;
import io.rollgate.api.PauseCondition;
import io.rollgate.api.PauseReason;
import io.rollgate.api.RolloutStatus;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.model.BlueGreenReplicas;
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
import io.rollgate.controller.rollout.services.Services;
import io.rollgate.controller.rollout.status.PauseConditions;
import io.rollgate.controller.rollout.status.Phase;
import io.rollgate.controller.rollout.trafficrouting.TrafficRouting;
import io.rollgate.controller.runtime.ReconcileOutcome;
import io.rollgate.defaults.RolloutDefaults;
import io.rollgate.validation.FieldError;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blue-green strategy (docs/compatibility.md §7): the preview Service follows the new
 * ReplicaSet, the active Service is switched to it once it is saturated and the pause (if any) is
 * over, the new ReplicaSet is then marked stable and the previous active ReplicaSet is scaled down
 * after {@code scaleDownDelaySeconds}.
 *
 * <p>One pass, in order: validate the Service references; create the new ReplicaSet if missing (the
 * pass ends); keep revisions in sync; point the preview Service at the new ReplicaSet; on a
 * template change, reset and sync the status only. Otherwise: remove stale scale-down deadlines;
 * keep the active and stable ReplicaSets at full size; size the new ReplicaSet (with {@code
 * previewReplicaCount}, and the abort delay); scale down previous ReplicaSets; prune revision
 * history; blue-green pause; active Service switch; status sync (promotion, conditions, phase).
 */
public final class BlueGreenReconciler {

  private static final Logger LOG = LoggerFactory.getLogger(BlueGreenReconciler.class);

  private final SharedSteps base;
  private final RolloutCache cache;
  private final PodRestarts restarts;
  private final EphemeralMetadata ephemeral;
  private final RolloutAnalysisRuns analysis;
  private final io.rollgate.controller.traffic.TargetGroupVerifier targetGroupVerifier;
  private final ReplicaSetWrites writes;
  private final Services services;
  private final PromotionGate gate;

  /**
   * Creates the blue-green reconciler over the collaborators of the Rollout reconciler.
   *
   * @param base the steps shared with the top-level reconcile (invalid spec, revisions, new
   *     ReplicaSet, status write)
   * @param cache the informer caches
   * @param restarts the pod restart step ({@code spec.restartAt})
   * @param ephemeral the ephemeral metadata step (activeMetadata / previewMetadata)
   * @param analysis the AnalysisRun step
   * @param targetGroupVerifier the ALB target registration check ({@code
   *     --aws-verify-target-group}), or null when the flag is off
   * @param writes the ReplicaSet writer
   * @param services the Service step
   * @param gate the pre- and post-promotion analysis gate
   */
  public BlueGreenReconciler(
      SharedSteps base,
      RolloutCache cache,
      PodRestarts restarts,
      EphemeralMetadata ephemeral,
      RolloutAnalysisRuns analysis,
      io.rollgate.controller.traffic.TargetGroupVerifier targetGroupVerifier,
      ReplicaSetWrites writes,
      Services services,
      PromotionGate gate) {
    this.base = base;
    this.cache = cache;
    this.restarts = restarts;
    this.ephemeral = ephemeral;
    this.analysis = analysis;
    this.targetGroupVerifier = targetGroupVerifier;
    this.writes = writes;
    this.services = services;
    this.gate = gate;
  }

  /**
   * Runs the blue-green part of one pass (docs/compatibility.md §7).
   *
   * @param pass the pass, with its ReplicaSets read
   * @return a Future completing with the outcome of the pass, or failing with an API error (a 409
   *     when the Rollout changed meanwhile)
   */
  public Future<ReconcileOutcome> reconcile(RolloutPass pass) {
    List<FieldError> errors = validateServices(pass);
    if (!errors.isEmpty()) {
      return base.invalidSpec(pass, errors);
    }
    if (pass.newRS == null) {
      return base.createNewReplicaSet(pass);
    }
    return base.syncRevisions(pass)
        .compose(v -> reconcilePreviewService(pass))
        .compose(v -> templateChanged(pass) ? syncStatus(pass, true) : progress(pass));
  }

  private Future<ReconcileOutcome> progress(RolloutPass pass) {
    return restarts
        .reconcile(pass)
        .compose(v -> removeStaleDeadlines(pass))
        .compose(v -> scaleActiveAndStable(pass))
        .compose(v -> scaleNewReplicaSet(pass))
        .compose(v -> scaleDownPreviousReplicaSets(pass))
        .compose(v -> cleanupOldReplicaSets(pass))
        .compose(v -> reconcilePause(pass))
        .compose(v -> reconcileActiveService(pass))
        .compose(v -> verifyTargetGroups(pass))
        .compose(v -> checkPostPromotion(pass))
        .compose(v -> analysis.reconcileBlueGreen(pass))
        .compose(
            v ->
                ephemeral.sync(
                    pass, pass.podHash.equals(Services.selectedHash(pass.activeService))))
        .compose(v -> syncStatus(pass, false));
  }

  private BlueGreenStrategy strategy(RolloutPass pass) {
    return pass.rollout.getSpec().getStrategy().getBlueGreen();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Services

  /**
   * docs/compatibility.md §2.3 item 1 (active first, then preview); also loads the Services into
   * the pass.
   */
  private List<FieldError> validateServices(RolloutPass pass) {
    BlueGreenStrategy bg = strategy(pass);
    List<FieldError> errors = new ArrayList<>();
    errors.addAll(
        services.validate(
            pass.rollout, "spec.strategy.blueGreen.activeService", bg.getActiveService()));
    errors.addAll(
        services.validate(
            pass.rollout, "spec.strategy.blueGreen.previewService", bg.getPreviewService()));
    pass.activeService = cache.service(pass.namespace(), bg.getActiveService());
    pass.previewService = cache.service(pass.namespace(), bg.getPreviewService());
    return errors;
  }

  /**
   * docs/compatibility.md §7.1 item 2: the preview Service follows the new ReplicaSet (held while
   * paused).
   */
  private Future<Void> reconcilePreviewService(RolloutPass pass) {
    if (pass.previewService == null
        || Boolean.TRUE.equals(pass.rollout.getSpec().getPaused())
        || PauseConditions.has(pass.old, PauseReason.INCONCLUSIVE_ANALYSIS_RUN)) {
      return Future.succeededFuture();
    }
    String newHash = RolloutPass.hashOf(pass.newRS);
    return services
        .switchSelector(pass, pass.previewService, newHash)
        .onSuccess(svc -> pass.previewService = svc)
        .mapEmpty();
  }

  /**
   * docs/compatibility.md §7.4: switch the active Service when the new ReplicaSet is saturated and
   * promotable; abort reverts.
   */
  private Future<Void> reconcileActiveService(RolloutPass pass) {
    String current = Services.selectedHash(pass.activeService);
    String target = current;
    if (pass.aborted()) {
      String stable = pass.old.getStableRS();
      if (stable == null || stable.isEmpty() || findByHash(pass, stable) == null) {
        return Future.succeededFuture();
      }
      target = stable;
    } else {
      if (Boolean.TRUE.equals(pass.rollout.getSpec().getPaused())) {
        LOG.debug("{} manually paused; active Service left on {}", pass.ctx, current);
        return Future.succeededFuture();
      }
      if (!readyForPause(pass) || !saturated(pass, pass.newRS)) {
        LOG.debug(
            "{} new ReplicaSet {} not saturated; active Service left on {}",
            pass.ctx,
            name(pass.newRS),
            current);
        return Future.succeededFuture();
      }
      if (pass.fastTracked || (pass.pauseCompleted && pass.prePromotionPassed)) {
        target = pass.podHash;
      }
    }
    if (target == null || target.equals(current)) {
      return Future.succeededFuture();
    }
    return services
        .switchSelector(pass, pass.activeService, target)
        .onSuccess(svc -> pass.activeService = svc)
        .mapEmpty();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Template change

  private boolean templateChanged(RolloutPass pass) {
    String oldPodHash = pass.old.getCurrentPodHash();
    return oldPodHash != null && !oldPodHash.isEmpty() && !oldPodHash.equals(pass.podHash);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // ReplicaSets

  /**
   * Removes {@code scale-down-deadline} from the new and stable ReplicaSets (a rollback within the
   * delay window), except on the new ReplicaSet while an abort delays its scale-down.
   */
  private Future<Void> removeStaleDeadlines(RolloutPass pass) {
    // Both before the deadline of a rolled-back ReplicaSet is removed.
    Instant deadline =
        deadlineText(pass.newRS) == null ? null : parseDeadline(deadlineText(pass.newRS));
    pass.newRsWithinDelay = deadline != null && deadline.isAfter(pass.now);
    pass.fastTracked = fastTracked(pass);
    List<ReplicaSet> targets = new ArrayList<>();
    if (!delaysScaleDownOnAbort(pass) && deadlineText(pass.newRS) != null) {
      targets.add(pass.newRS);
    }
    if (pass.stableRS != null
        && pass.stableRS != pass.newRS
        && deadlineText(pass.stableRS) != null) {
      targets.add(pass.stableRS);
    }
    Future<Void> chain = Future.succeededFuture();
    for (ReplicaSet rs : targets) {
      chain =
          chain.compose(
              v ->
                  writes
                      .setScaleDownDeadline(pass, rs, null)
                      .onSuccess(u -> replace(pass, rs, u))
                      .mapEmpty());
    }
    return chain;
  }

  /** Keeps the ReplicaSet the active Service selects, and the stable one, at full size. */
  private Future<Void> scaleActiveAndStable(RolloutPass pass) {
    List<ReplicaSet> targets = new ArrayList<>();
    ReplicaSet active = findByHash(pass, Services.selectedHash(pass.activeService));
    if (active != null && active != pass.newRS) {
      targets.add(active);
    }
    if (pass.stableRS != null && pass.stableRS != pass.newRS && pass.stableRS != active) {
      targets.add(pass.stableRS);
    }
    Future<Void> chain = Future.succeededFuture();
    for (ReplicaSet rs : targets) {
      if (RolloutPass.spec(rs) != pass.replicas) {
        chain =
            chain.compose(
                v ->
                    writes
                        .scale(pass, rs, pass.replicas)
                        .onSuccess(u -> replace(pass, rs, u))
                        .mapEmpty());
      }
    }
    return chain;
  }

  /**
   * docs/compatibility.md §7.2 and §7.7: the new ReplicaSet's size, and its delayed scale-down
   * while aborted.
   */
  private Future<Void> scaleNewReplicaSet(RolloutPass pass) {
    ReplicaSet rs = pass.newRS;
    pass.newDesired = newDesired(pass);
    int desired = pass.newDesired;
    boolean keepDeadline = false;
    if (delaysScaleDownOnAbort(pass)) {
      String text = deadlineText(rs);
      if (text != null) {
        Instant deadline = parseDeadline(text);
        if (deadline != null && deadline.isAfter(pass.now)) {
          pass.requeueAfter(Duration.between(pass.now, deadline).plusMillis(500));
          LOG.debug("{} aborted: ReplicaSet {} kept until {}", pass.ctx, name(rs), deadline);
          return Future.succeededFuture();
        }
        desired = 0;
        keepDeadline = true;
      } else {
        int delay = abortScaleDownDelaySeconds(pass);
        if (pass.stableRS == null || RolloutPass.available(pass.stableRS) < pass.replicas) {
          LOG.debug(
              "{} aborted: waiting for the stable ReplicaSet to be fully available", pass.ctx);
          return Future.succeededFuture();
        }
        Instant deadline = pass.now.plusSeconds(delay);
        pass.requeueAfter(Duration.ofSeconds(delay).plusMillis(500));
        LOG.info(
            "{} aborted: ReplicaSet {} scaled down after abortScaleDownDelaySeconds={}",
            pass.ctx,
            name(rs),
            delay);
        return writes
            .setScaleDownDeadline(pass, rs, deadline)
            .onSuccess(u -> replace(pass, rs, u))
            .mapEmpty();
      }
    }
    if (desired != RolloutPass.spec(rs)) {
      return writes
          .scale(pass, rs, desired, keepDeadline)
          .onSuccess(u -> replace(pass, rs, u))
          .mapEmpty();
    }
    return writes.syncReplicaSetSpec(pass, rs).onSuccess(u -> replace(pass, rs, u)).mapEmpty();
  }

  private int newDesired(RolloutPass pass) {
    BlueGreenStrategy bg = strategy(pass);
    String activeHash = Services.selectedHash(pass.activeService);
    BlueGreenStatus oldBg = pass.old.getBlueGreen();
    boolean paused =
        Boolean.TRUE.equals(pass.rollout.getSpec().getPaused())
            || (pass.old.getPauseConditions() != null && !pass.old.getPauseConditions().isEmpty());
    return BlueGreenReplicas.newReplicaSetReplicas(
        pass.replicas,
        bg.getPreviewReplicaCount(),
        activeHash,
        findByHash(pass, activeHash) != null,
        pass.podHash,
        pass.old.getCurrentPodHash(),
        Boolean.TRUE.equals(pass.old.getPromoteFull()),
        paused,
        oldBg != null && Boolean.TRUE.equals(oldBg.getScaleUpPreviewCheckPoint()));
  }

  /**
   * docs/compatibility.md §7.6: previous ReplicaSets go to 0 after {@code scaleDownDelaySeconds}.
   */
  private Future<Void> scaleDownPreviousReplicaSets(RolloutPass pass) {
    if (PauseConditions.has(pass.old, PauseReason.INCONCLUSIVE_ANALYSIS_RUN)
        || RolloutAnalysisRuns.holdsScaleDownForPostPromotion(pass)) {
      return Future.succeededFuture();
    }
    Set<String> referenced = referencedHashes(pass);
    Map<String, ReplicaSet> byName = new HashMap<>();
    List<BlueGreenReplicas.OldReplicaSet> olds = new ArrayList<>();
    for (ReplicaSet rs : pass.otherRSs) {
      if (referenced.contains(RolloutPass.hashOf(rs))) {
        continue;
      }
      String text = deadlineText(rs);
      byName.put(name(rs), rs);
      olds.add(
          new BlueGreenReplicas.OldReplicaSet(
              name(rs),
              RolloutPass.revisionOf(rs),
              RolloutPass.spec(rs),
              text == null ? null : parseDeadline(text),
              text != null));
    }
    BlueGreenStrategy bg = strategy(pass);
    int delay =
        bg.getScaleDownDelaySeconds() == null
            ? RolloutDefaults.SCALE_DOWN_DELAY_SECONDS
            : bg.getScaleDownDelaySeconds();
    int limit =
        bg.getScaleDownDelayRevisionLimit() == null
            ? Integer.MAX_VALUE
            : bg.getScaleDownDelayRevisionLimit();
    Future<Void> chain = Future.succeededFuture();
    for (BlueGreenReplicas.ScaleDown d :
        BlueGreenReplicas.planScaleDown(olds, pass.now, delay, limit)) {
      ReplicaSet rs = byName.get(d.name());
      if (d.requeueAfter() != null) {
        pass.requeueAfter(d.requeueAfter().plusMillis(500));
      }
      if (d.annotateDeadline() != null) {
        chain =
            chain.compose(
                v ->
                    writes
                        .setScaleDownDeadline(pass, rs, d.annotateDeadline())
                        .onSuccess(u -> replace(pass, rs, u))
                        .mapEmpty());
      } else if (d.replicas() != RolloutPass.spec(rs)) {
        chain =
            chain.compose(
                v ->
                    writes
                        .scale(pass, rs, d.replicas())
                        .onSuccess(u -> replace(pass, rs, u))
                        .mapEmpty());
      }
    }
    return chain;
  }

  /**
   * Hashes that must keep their pods: the status's stable/current/selectors and what the Services
   * select now.
   */
  private Set<String> referencedHashes(RolloutPass pass) {
    Set<String> hashes = new HashSet<>();
    hashes.add(pass.podHash);
    hashes.add(pass.old.getStableRS());
    hashes.add(pass.old.getCurrentPodHash());
    if (pass.old.getBlueGreen() != null) {
      hashes.add(pass.old.getBlueGreen().getActiveSelector());
      hashes.add(pass.old.getBlueGreen().getPreviewSelector());
    }
    hashes.add(Services.selectedHash(pass.activeService));
    hashes.add(Services.selectedHash(pass.previewService));
    hashes.remove(null);
    return hashes;
  }

  /**
   * Revision history (docs/compatibility.md §4 item 10): delete the oldest drained ReplicaSets
   * beyond the limit.
   */
  private Future<Void> cleanupOldReplicaSets(RolloutPass pass) {
    return writes.cleanupOldReplicaSets(pass, referencedHashes(pass));
  }

  private boolean delaysScaleDownOnAbort(RolloutPass pass) {
    return pass.aborted()
        && abortScaleDownDelaySeconds(pass) != 0
        && !pass.podHash.equals(pass.old.getStableRS());
  }

  private int abortScaleDownDelaySeconds(RolloutPass pass) {
    Integer d = strategy(pass).getAbortScaleDownDelaySeconds();
    return d == null ? RolloutDefaults.ABORT_SCALE_DOWN_DELAY_SECONDS : d;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Pause and promotion gates

  /**
   * docs/compatibility.md §7.3: fast-track reasons that skip the pause and the pre-promotion gate.
   */
  private boolean fastTracked(RolloutPass pass) {
    String activeHash = Services.selectedHash(pass.activeService);
    BlueGreenStatus oldBg = pass.old.getBlueGreen();
    return pass.podHash.equals(pass.old.getStableRS())
        || RollbackWindow.within(pass)
        || (deadlineText(pass.newRS) != null && !pass.aborted() && pass.old.getAbortedAt() == null)
        || Boolean.TRUE.equals(pass.old.getPromoteFull())
        || activeHash == null
        || activeHash.equals(pass.podHash)
        || (oldBg != null && Boolean.TRUE.equals(oldBg.getScaleUpPreviewCheckPoint()));
  }

  private Future<Void> reconcilePause(RolloutPass pass) {
    if (pass.aborted()
        || !readyForPause(pass)
        || Boolean.TRUE.equals(pass.rollout.getSpec().getPaused())
        || PauseConditions.has(pass.old, PauseReason.INCONCLUSIVE_ANALYSIS_RUN)) {
      return Future.succeededFuture();
    }
    if (pass.fastTracked) {
      pass.removePause.add(PauseReason.BLUE_GREEN_PAUSE);
      pass.pauseCompleted = true;
      return Future.succeededFuture();
    }
    BlueGreenStrategy bg = strategy(pass);
    Future<Void> pre = Future.succeededFuture();
    if (bg.getPrePromotionAnalysis() != null) {
      pre =
          gate.check(pass.ctx, pass.rollout, pass.podHash, PromotionGate.Stage.PRE_PROMOTION)
              .compose(verdict -> applyVerdict(pass, verdict, "pre"));
    }
    return pre.onSuccess(
        v -> {
          if (pass.prePromotionPassed && !pass.aborted()) {
            decidePause(pass, bg);
          }
        });
  }

  private Future<Void> applyVerdict(RolloutPass pass, PromotionGate.Verdict verdict, String stage) {
    boolean passed = verdict == PromotionGate.Verdict.PASSED;
    if (stage.equals("pre")) {
      pass.prePromotionPassed = passed;
    } else {
      pass.postPromotionPassed = passed;
    }
    if (verdict == PromotionGate.Verdict.FAILED) {
      pass.addAbort = true;
      pass.abortMessage = "Blue/green " + stage + "-promotion analysis phase failed";
      LOG.info("{} {}-promotion analysis failed: aborting", pass.ctx, stage);
    }
    return Future.succeededFuture();
  }

  private void decidePause(RolloutPass pass, BlueGreenStrategy bg) {
    boolean autoPromotion = bg.getAutoPromotionEnabled() == null || bg.getAutoPromotionEnabled();
    int autoSeconds = bg.getAutoPromotionSeconds() == null ? 0 : bg.getAutoPromotionSeconds();
    if (autoPromotion && autoSeconds <= 0) {
      pass.pauseCompleted = true; // no pause is managed
      return;
    }
    PauseCondition cond = PauseConditions.find(pass.old, PauseReason.BLUE_GREEN_PAUSE);
    if (cond == null) {
      if (Boolean.TRUE.equals(pass.old.getControllerPause())) {
        // The user removed the condition (kubectl argo rollouts promote).
        LOG.info("{} blue-green pause resumed by the user", pass.ctx);
        pass.pauseCompleted = true;
        return;
      }
      pass.addPause.add(PauseReason.BLUE_GREEN_PAUSE);
      LOG.info(
          "{} pausing before switching the active Service to {} ({})",
          pass.ctx,
          pass.podHash,
          autoPromotion ? "autoPromotionSeconds=" + autoSeconds : "autoPromotionEnabled=false");
      if (autoPromotion) {
        pass.requeueAfter(Duration.ofSeconds(autoSeconds).plusMillis(500));
      }
      return;
    }
    if (!autoPromotion) {
      return;
    }
    Instant deadline = Instant.parse(cond.getStartTime()).plusSeconds(autoSeconds);
    if (!deadline.isAfter(pass.now)) {
      LOG.info("{} autoPromotionSeconds={} elapsed: promoting", pass.ctx, autoSeconds);
      pass.removePause.add(PauseReason.BLUE_GREEN_PAUSE);
      pass.pauseCompleted = true;
    } else {
      pass.requeueAfter(Duration.between(pass.now, deadline).plusMillis(500));
    }
  }

  /**
   * Consults the post-promotion gate once the active Service selects the new, not yet stable,
   * ReplicaSet; a fast rollback (docs/compatibility.md §7.5) is promoted without it.
   */
  private Future<Void> checkPostPromotion(RolloutPass pass) {
    if (Boolean.FALSE.equals(pass.targetsVerified)) {
      return Future.succeededFuture();
    }
    if (strategy(pass).getPostPromotionAnalysis() == null
        || pass.aborted()
        || RollbackWindow.fastRollback(pass, pass.old.getStableRS())
        || !pass.podHash.equals(Services.selectedHash(pass.activeService))) {
      return Future.succeededFuture();
    }
    return gate.check(pass.ctx, pass.rollout, pass.podHash, PromotionGate.Stage.POST_PROMOTION)
        .compose(verdict -> applyVerdict(pass, verdict, "post"));
  }

  /**
   * docs/traffic-routers.md "AWS ALB": with {@code --aws-verify-target-group}, once the active
   * Service selects the new ReplicaSet (and before post-promotion analysis started), the new
   * ReplicaSet becomes stable only when the active Service's TargetGroupBindings have all of its
   * endpoints registered in AWS; until then the pass is re-queued.
   */
  private Future<Void> verifyTargetGroups(RolloutPass pass) {
    var verifier = targetGroupVerifier;
    var oldBg = pass.old.getBlueGreen();
    if (verifier == null
        || pass.activeService == null
        || pass.podHash.equals(pass.old.getStableRS())
        || !pass.podHash.equals(Services.selectedHash(pass.activeService))
        || (oldBg != null && oldBg.getPostPromotionAnalysisRunStatus() != null)) {
      return Future.succeededFuture();
    }
    return verifier
        .verify(pass.ctx, pass.rollout, pass.activeService)
        .onSuccess(
            verified -> {
              pass.targetsVerified = verified;
              if (Boolean.FALSE.equals(verified)) {
                LOG.info(
                    "{} active Service {}: target groups not verified yet",
                    pass.ctx,
                    pass.activeService.getMetadata().getName());
                pass.requeueAfter(TrafficRouting.VERIFY_REQUEUE);
              }
            })
        .mapEmpty();
  }

  private boolean readyForPause(RolloutPass pass) {
    return BlueGreenReplicas.readyForPause(
        pass.newDesired, RolloutPass.spec(pass.newRS), RolloutPass.available(pass.newRS));
  }

  private boolean saturated(RolloutPass pass, ReplicaSet rs) {
    if (rs == null) {
      return false;
    }
    Map<String, String> a = rs.getMetadata().getAnnotations();
    return BlueGreenReplicas.saturated(
        pass.replicas,
        RolloutPass.spec(rs),
        a == null ? null : a.get(Annotations.DESIRED_REPLICAS),
        RolloutPass.available(rs));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Status sync

  private Future<ReconcileOutcome> syncStatus(RolloutPass pass, boolean reset) {
    RolloutStatus status = RolloutPass.copy(pass.old);
    BlueGreenStatus bg =
        status.getBlueGreen() == null ? new BlueGreenStatus() : status.getBlueGreen();
    status.setBlueGreen(bg);
    if (reset) {
      pass.clearPauses = true;
      pass.removeAbort = true;
      status.setPromoteFull(null);
      bg.setPrePromotionAnalysisRunStatus(null);
      bg.setPostPromotionAnalysisRunStatus(null);
      bg.setScaleUpPreviewCheckPoint(null);
      LOG.info(
          "{} template changed: podHash={} (pause, abort and preview checkpoint reset)",
          pass.ctx,
          pass.podHash);
    }
    RolloutAnalysisRuns.applyBlueGreenStatus(pass, bg);
    status.setCurrentPodHash(pass.podHash);
    status.setCurrentStepHash(null);
    status.setCurrentStepIndex(null);
    bg.setActiveSelector(Services.selectedHash(pass.activeService));
    bg.setPreviewSelector(Services.selectedHash(pass.previewService));
    counters(pass, status);
    if (Boolean.TRUE.equals(status.getPromoteFull()) && pass.podHash.equals(status.getStableRS())) {
      status.setPromoteFull(null);
    }
    String reason = shouldFullPromote(pass, status);
    if (reason != null) {
      pass.clearPauses = true;
      pass.removeAbort = true;
      status.setPromoteFull(null);
      bg.setScaleUpPreviewCheckPoint(null);
      if (!pass.podHash.equals(status.getStableRS())) {
        status.setStableRS(pass.podHash);
        LOG.info(
            "{} promoted revision {} ({}) to stable: {}",
            pass.ctx,
            pass.revision(),
            pass.podHash,
            reason);
        pass.event(
            "RolloutCompleted",
            "Rollout completed update to revision "
                + pass.revision()
                + " ("
                + pass.podHash
                + "): "
                + reason);
      }
    } else if (!reset) {
      bg.setScaleUpPreviewCheckPoint(scaleUpPreviewCheckPoint(pass) ? Boolean.TRUE : null);
      if (Boolean.TRUE.equals(bg.getScaleUpPreviewCheckPoint())
          && !isTrue(pass.old.getBlueGreen())) {
        LOG.info(
            "{} preview checkpoint reached: scaling {} to {} before the switch",
            pass.ctx,
            name(pass.newRS),
            pass.replicas);
      }
    }
    if (isEmpty(bg)) {
      status.setBlueGreen(null);
    }
    return finish(pass, status, !reset);
  }

  private static boolean isTrue(BlueGreenStatus bg) {
    return bg != null && Boolean.TRUE.equals(bg.getScaleUpPreviewCheckPoint());
  }

  private static boolean isEmpty(BlueGreenStatus bg) {
    return bg.getActiveSelector() == null
        && bg.getPreviewSelector() == null
        && bg.getScaleUpPreviewCheckPoint() == null
        && bg.getPrePromotionAnalysisRunStatus() == null
        && bg.getPostPromotionAnalysisRunStatus() == null
        && (bg.getAdditionalProperties() == null || bg.getAdditionalProperties().isEmpty());
  }

  /**
   * docs/compatibility.md §3.1: blue-green reports the active ReplicaSet's counts (the HPA sees
   * only it).
   */
  private void counters(RolloutPass pass, RolloutStatus s) {
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
    ReplicaSet active = findByHash(pass, s.getBlueGreen().getActiveSelector());
    if (active != null) {
      s.setReadyReplicas(RolloutPass.ready(active));
      s.setAvailableReplicas(RolloutPass.available(active));
      s.setHPAReplicas(RolloutPass.current(active));
      s.setSelector(Selectors.format(active.getSpec().getSelector()));
    } else {
      s.setReadyReplicas(ready);
      s.setAvailableReplicas(available);
      s.setHPAReplicas(replicas);
      s.setSelector(Selectors.format(pass.rollout.getSpec().getSelector()));
    }
  }

  /**
   * docs/compatibility.md §7.5; returns the promotion reason, or null when the new ReplicaSet is
   * not promoted this pass.
   */
  private String shouldFullPromote(RolloutPass pass, RolloutStatus status) {
    String stable = pass.old.getStableRS();
    if (stable == null || stable.isEmpty()) {
      return "Initial deploy";
    }
    String active = status.getBlueGreen().getActiveSelector();
    if (active == null || active.isEmpty()) {
      return "Initial deploy";
    }
    if (!active.equals(pass.podHash)) {
      return null;
    }
    if (Boolean.FALSE.equals(pass.targetsVerified)) {
      return null;
    }
    if (Boolean.TRUE.equals(status.getPromoteFull())) {
      return "Full promotion requested";
    }
    if (RollbackWindow.fastRollback(pass, stable)) {
      return RollbackWindow.within(pass) ? "Rollback within window" : "Fast rollback";
    }
    if (pass.aborted()) {
      return null;
    }
    if (!pass.postPromotionPassed) {
      return null;
    }
    return "Completed blue-green update";
  }

  /**
   * docs/compatibility.md §7.2: the one-way latch that lets a {@code previewReplicaCount} preview
   * scale to full size.
   */
  private boolean scaleUpPreviewCheckPoint(RolloutPass pass) {
    Integer preview = strategy(pass).getPreviewReplicaCount();
    if (preview == null) {
      return false;
    }
    if (isTrue(pass.old.getBlueGreen())) {
      return true;
    }
    return pass.prePromotionPassed
        && pass.pauseCompleted
        && RolloutPass.available(pass.newRS) == preview;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Persist: pause/abort bookkeeping, conditions, phase

  private Future<ReconcileOutcome> finish(
      RolloutPass pass, RolloutStatus status, boolean evaluateDeadline) {
    applyPauseAndAbort(pass, status);
    applyConditions(pass, status, evaluateDeadline);
    if (pass.addAbort && !Boolean.TRUE.equals(status.getAbort())) {
      // progressDeadlineAbort fired in this pass: bookkeeping again so the abort lands in this
      // write.
      applyPauseAndAbort(pass, status);
      applyConditions(pass, status, false);
    }
    status.setObservedGeneration(String.valueOf(pass.rollout.getMetadata().getGeneration()));
    if (pass.restartedAt != null) {
      status.setRestartedAt(pass.restartedAt);
    }
    Phase.apply(pass.rollout, status, pass.replicas);
    return base.persistAndFinish(pass, status);
  }

  /** docs/compatibility.md §3.4. */
  private void applyPauseAndAbort(RolloutPass pass, RolloutStatus status) {
    PauseBookkeeping.apply(pass, status);
  }

  /**
   * Sets Progressing, Available, Paused, Completed and Healthy with the blue-green predicates
   * (docs/compatibility.md §3.2, §3.5).
   */
  private void applyConditions(RolloutPass pass, RolloutStatus status, boolean evaluateDeadline) {
    ReplicaSet active =
        findByHash(
            pass, status.getBlueGreen() == null ? null : status.getBlueGreen().getActiveSelector());
    RolloutConditions.apply(
        pass,
        status,
        new RolloutConditions.Facts(
            progressed(pass.old, status),
            healthy(pass, status),
            saturated(pass, active),
            evaluateDeadline && !RolloutConditions.isPaused(pass, status),
            // No timeout while a previous ReplicaSet waits for its scale-down deadline.
            pass.otherRSs.stream().anyMatch(rs -> deadlineText(rs) != null)));
  }

  /**
   * docs/compatibility.md §3.5: progress for blue-green includes the Service selectors and the
   * stable hash.
   */
  private static boolean progressed(RolloutStatus old, RolloutStatus now) {
    BlueGreenStatus o = old.getBlueGreen();
    BlueGreenStatus n = now.getBlueGreen();
    return RolloutConditions.replicasProgressed(old, now)
        || !Objects.equals(
            o == null ? null : o.getActiveSelector(), n == null ? null : n.getActiveSelector())
        || !Objects.equals(
            o == null ? null : o.getPreviewSelector(), n == null ? null : n.getPreviewSelector());
  }

  /** Argo's RolloutHealthy predicate for blue-green (docs/compatibility.md §3.2). */
  private static boolean healthy(RolloutPass pass, RolloutStatus s) {
    int r = pass.replicas;
    String oldGen = pass.old.getObservedGeneration();
    boolean genObserved =
        oldGen != null && oldGen.equals(String.valueOf(pass.rollout.getMetadata().getGeneration()));
    BlueGreenStatus bg = s.getBlueGreen();
    String active = bg == null ? null : bg.getActiveSelector();
    String preview = bg == null ? null : bg.getPreviewSelector();
    boolean previewOk = pass.previewService == null || pass.podHash.equals(preview);
    return RolloutConditions.nz(s.getUpdatedReplicas()) == r
        && RolloutConditions.nz(s.getAvailableReplicas()) == r
        && genObserved
        && pass.podHash.equals(active)
        && previewOk;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Helpers

  private static String name(ReplicaSet rs) {
    return rs == null ? null : rs.getMetadata().getName();
  }

  private static ReplicaSet findByHash(RolloutPass pass, String hash) {
    if (hash == null) {
      return null;
    }
    for (ReplicaSet rs : pass.allRSs) {
      if (hash.equals(RolloutPass.hashOf(rs))) {
        return rs;
      }
    }
    return null;
  }

  private static String deadlineText(ReplicaSet rs) {
    if (rs == null || rs.getMetadata().getAnnotations() == null) {
      return null;
    }
    return rs.getMetadata().getAnnotations().get(Annotations.SCALE_DOWN_DEADLINE);
  }

  private static Instant parseDeadline(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** Replaces a ReplicaSet by its updated version in every list of the pass. */
  private static void replace(RolloutPass pass, ReplicaSet old, ReplicaSet updated) {
    pass.allRSs.replaceAll(x -> x == old ? updated : x);
    pass.otherRSs.replaceAll(x -> x == old ? updated : x);
    if (pass.newRS == old) {
      pass.newRS = updated;
    }
    if (pass.stableRS == old) {
      pass.stableRS = updated;
    }
  }
}
