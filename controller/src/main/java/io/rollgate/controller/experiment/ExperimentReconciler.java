package io.rollgate.controller.experiment;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.analysis.AnalysisSpecException;
import io.rollgate.analysis.AnalysisTemplates;
import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Annotations;
import io.rollgate.api.Experiment;
import io.rollgate.api.ExperimentAnalysisRunStatus;
import io.rollgate.api.ExperimentAnalysisTemplateRef;
import io.rollgate.api.ExperimentSpec;
import io.rollgate.api.ExperimentStatus;
import io.rollgate.api.ExperimentTemplate;
import io.rollgate.api.Labels;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutCondition;
import io.rollgate.api.TemplateStatus;
import io.rollgate.controller.analysis.model.Times;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.experiment.model.ExperimentObjects;
import io.rollgate.controller.experiment.model.ExperimentRules;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.kube.StatusPatch;
import io.rollgate.controller.runtime.ReconcileContext;
import io.rollgate.controller.runtime.ReconcileOutcome;
import io.rollgate.controller.runtime.Reconciler;
import io.rollgate.controller.runtime.Reconciles;
import io.rollgate.kube.KubeApiException;
import io.vertx.core.Future;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one Experiment (docs/compatibility.md §12.1). One pass reads as:
 *
 * <ol>
 *   <li>check the spec: problems end the Experiment in phase Error with an {@code InvalidSpec}
 *       condition, nothing is created;
 *   <li>read the phases of its AnalysisRuns into {@code status.analysisRuns} ({@code
 *       AnalysisRun<Phase>} events, also on the owning Rollout) and decide whether it is
 *       terminating;
 *   <li>per template, create the ReplicaSet {@code <experiment>-<template>} at 0 and scale it to
 *       {@code replicas}, or, when terminating, to 0 once the {@code scale-down-deadline}
 *       annotation ({@code scaleDownDelaySeconds}) passed;
 *   <li>compute each template's status ({@code Template<Status>} events) and {@code availableAt};
 *   <li>create the requested Services (deleted again once the template is scaled down);
 *   <li>once every template is available, create the AnalysisRuns from their templates; when
 *       terminating, terminate the unfinished ones ({@code AnalysisRunTerminating});
 *   <li>compute the phase and write {@code status} with one merge patch carrying the
 *       resourceVersion read (no status subresource; a 409 re-queues), then record the events;
 *   <li>requeue at the earliest of the duration end, a progress deadline and a scale-down deadline.
 * </ol>
 *
 * <p>Everything is derived from the stored objects, so a restarted controller continues where it
 * stopped.
 */
final class ExperimentReconciler implements Reconciler {

  private static final Logger LOG = LoggerFactory.getLogger(ExperimentReconciler.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private final ExperimentCache cache;
  private final StatusPatch<Experiment> statusPatch;
  private final KubeApi api;
  private final EventRecorder events;
  private final Clock clock;

  ExperimentReconciler(ExperimentCache cache, KubeApi api, EventRecorder events, Clock clock) {
    this.cache = cache;
    this.statusPatch = new StatusPatch<>(api, Experiment.class, null, cache::wrote);
    this.api = api;
    this.events = events;
    this.clock = clock;
  }

  @Override
  public Future<ReconcileOutcome> reconcile(ReconcileContext ctx) {
    return Reconciles.guarded(ctx, () -> reconcileSafely(ctx));
  }

  /** State of one pass. */
  private static final class Pass {
    final ReconcileContext ctx;
    final Experiment ex;
    final ExperimentSpec spec;
    final Instant now;
    final ExperimentStatus status;
    final Map<String, ReplicaSet> replicaSets = new HashMap<>();
    final Map<String, AnalysisRun> runs = new HashMap<>();
    final Map<String, String> templateErrors = new HashMap<>();
    final List<Runnable> events = new ArrayList<>();
    ReconcileOutcome outcome = ReconcileOutcome.done();
    boolean terminating;

    Pass(ReconcileContext ctx, Experiment ex, Instant now) {
      this.ctx = ctx;
      this.ex = ex;
      this.spec = ex.getSpec();
      this.now = now;
      this.status =
          ex.getStatus() == null ? new ExperimentStatus() : ModelJson.deepCopy(ex.getStatus());
    }

    String namespace() {
      return ex.getMetadata().getNamespace();
    }

    String name() {
      return ex.getMetadata().getName();
    }

    void requeueAt(Instant at) {
      Duration d = at.isAfter(now) ? Duration.between(now, at).plusMillis(5) : Duration.ZERO;
      outcome = outcome.and(ReconcileOutcome.requeueAfter(d));
    }

    TemplateStatus previous(String template) {
      for (TemplateStatus ts : list(status.getTemplateStatuses())) {
        if (template.equals(ts.getName())) {
          return ts;
        }
      }
      return null;
    }
  }

  private Future<ReconcileOutcome> reconcileSafely(ReconcileContext ctx) {
    Experiment ex = cache.experiment(ctx.namespace(), ctx.name());
    if (ex == null) {
      LOG.debug("{} not found", ctx);
      return Future.succeededFuture(ReconcileOutcome.done());
    }
    if (ex.getMetadata().getDeletionTimestamp() != null) {
      return Future.succeededFuture(ReconcileOutcome.done());
    }
    Pass pass = new Pass(ctx, ModelJson.deepCopy(ex), clock.instant());
    List<String> errors = ExperimentRules.validate(ex.getSpec());
    if (!errors.isEmpty()) {
      return invalidSpec(pass, errors);
    }
    for (ReplicaSet rs : cache.replicaSets(ex)) {
      pass.replicaSets.put(rs.getMetadata().getName(), rs);
    }
    for (AnalysisRun run : cache.runs(ex)) {
      pass.runs.put(run.getMetadata().getName(), run);
    }
    readAnalysisRuns(pass);
    pass.terminating = ExperimentRules.terminating(pass.spec, pass.status, pass.now);
    return reconcileReplicaSets(pass)
        .compose(v -> templateStatuses(pass))
        .compose(v -> reconcileServices(pass))
        .compose(v -> reconcileAnalysisRuns(pass))
        .compose(v -> persist(pass))
        .map(v -> pass.outcome);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Invalid spec

  private Future<ReconcileOutcome> invalidSpec(Pass pass, List<String> errors) {
    String message =
        "The Experiment \"" + pass.name() + "\" is invalid: " + String.join("; ", errors);
    if (!AnalysisPhase.isCompleted(pass.status.getPhase())) {
      pass.status.setPhase(AnalysisPhase.ERROR);
      pass.status.setMessage(message);
    }
    RolloutCondition c = new RolloutCondition();
    c.setType("InvalidSpec");
    c.setStatus("True");
    c.setReason("InvalidSpec");
    c.setMessage(message);
    RolloutCondition old = condition(pass.ex.getStatus(), "InvalidSpec");
    String time =
        old != null && message.equals(old.getMessage())
            ? old.getLastUpdateTime()
            : Times.format(pass.now);
    c.setLastUpdateTime(time);
    c.setLastTransitionTime(
        old != null && old.getLastTransitionTime() != null ? old.getLastTransitionTime() : time);
    List<RolloutCondition> conditions = new ArrayList<>();
    for (RolloutCondition o : list(pass.status.getConditions())) {
      if (!"InvalidSpec".equals(o.getType())) {
        conditions.add(o);
      }
    }
    conditions.add(c);
    pass.status.setConditions(conditions);
    if (old == null) {
      LOG.info("{} invalid spec: {}", pass.ctx, message);
      pass.events.add(() -> events.warning(pass.ex, "InvalidSpec", message));
    }
    return persist(pass).map(v -> ReconcileOutcome.done());
  }

  private static RolloutCondition condition(ExperimentStatus status, String type) {
    for (RolloutCondition c : list(status == null ? null : status.getConditions())) {
      if (type.equals(c.getType())) {
        return c;
      }
    }
    return null;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // AnalysisRun phases

  private void readAnalysisRuns(Pass pass) {
    for (ExperimentAnalysisRunStatus a : list(pass.status.getAnalysisRuns())) {
      AnalysisRun run = pass.runs.get(a.getAnalysisRun());
      if (run == null || run.getStatus() == null) {
        continue;
      }
      String phase =
          run.getStatus().getPhase() == null || run.getStatus().getPhase().isEmpty()
              ? AnalysisPhase.PENDING
              : run.getStatus().getPhase();
      String before = a.getPhase();
      a.setMessage(emptyToNull(run.getStatus().getMessage()));
      if (!phase.equals(before)) {
        a.setPhase(phase);
        analysisRunEvent(pass, a, before, phase);
      }
    }
  }

  private void analysisRunEvent(
      Pass pass, ExperimentAnalysisRunStatus a, String before, String phase) {
    boolean bad = AnalysisPhase.FAILED.equals(phase) || AnalysisPhase.ERROR.equals(phase);
    String reason = "AnalysisRun" + phase;
    String message =
        "AnalysisRun '"
            + a.getAnalysisRun()
            + "' (analysis '"
            + a.getName()
            + "') transitioned from "
            + (before == null ? "" : before)
            + " -> "
            + phase;
    LOG.info("{} {}", pass.ctx, message);
    pass.events.add(
        () -> {
          if (bad) {
            events.warning(pass.ex, reason, message);
          } else {
            events.normal(pass.ex, reason, message);
          }
          Rollout owner = owningRollout(pass.ex);
          if (owner != null) {
            events.warning(owner, reason, "Experiment '" + pass.name() + "': " + message);
          }
        });
  }

  /**
   * A reference object for the Rollout that controls the Experiment, to record events on; null when
   * none.
   */
  private static Rollout owningRollout(Experiment ex) {
    for (OwnerReference ref : list(ex.getMetadata().getOwnerReferences())) {
      if (Boolean.TRUE.equals(ref.getController()) && "Rollout".equals(ref.getKind())) {
        Rollout r = new Rollout();
        r.setMetadata(
            new ObjectMetaBuilder()
                .withName(ref.getName())
                .withNamespace(ex.getMetadata().getNamespace())
                .withUid(ref.getUid())
                .build());
        return r;
      }
    }
    return null;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // ReplicaSets

  private Future<Void> reconcileReplicaSets(Pass pass) {
    Future<Void> chain = Future.succeededFuture();
    for (ExperimentTemplate t : pass.spec.getTemplates()) {
      chain = chain.compose(v -> reconcileReplicaSet(pass, t));
    }
    return chain;
  }

  private Future<Void> reconcileReplicaSet(Pass pass, ExperimentTemplate t) {
    String name = ExperimentObjects.replicaSetName(pass.name(), t.getName());
    ReplicaSet rs = pass.replicaSets.get(name);
    Future<ReplicaSet> existing;
    if (rs != null) {
      existing = Future.succeededFuture(rs);
    } else if (pass.terminating) {
      return Future.succeededFuture();
    } else {
      TemplateStatus prev = pass.previous(t.getName());
      String hash = ExperimentObjects.podHash(t, prev == null ? null : prev.getCollisionCount());
      ReplicaSet wanted = ExperimentObjects.replicaSet(pass.ex, t, hash);
      existing =
          api.createReplicaSet(wanted)
              .onSuccess(
                  created -> {
                    cache.wrote(created);
                    LOG.info(
                        "{} created ReplicaSet {} for template {}", pass.ctx, name, t.getName());
                  })
              .recover(
                  err -> {
                    if (!KubeApiException.isConflict(err)) {
                      return Future.failedFuture(err);
                    }
                    return api.getReplicaSet(pass.namespace(), name)
                        .map(
                            found -> {
                              if (found != null
                                  && pass.ex.getMetadata().getUid().equals(controllerUid(found))) {
                                return found;
                              }
                              pass.templateErrors.put(
                                  t.getName(),
                                  "ReplicaSet '"
                                      + name
                                      + "' already exists and is not controlled by this Experiment");
                              return null;
                            });
                  });
    }
    return existing.compose(
        found -> {
          if (found == null) {
            return Future.succeededFuture();
          }
          pass.replicaSets.put(name, found);
          return scale(pass, t, found);
        });
  }

  private Future<Void> scale(Pass pass, ExperimentTemplate t, ReplicaSet rs) {
    String name = rs.getMetadata().getName();
    int current = rs.getSpec().getReplicas() == null ? 1 : rs.getSpec().getReplicas();
    Map<String, String> annotations =
        rs.getMetadata().getAnnotations() == null ? Map.of() : rs.getMetadata().getAnnotations();
    String deadlineText = annotations.get(Annotations.SCALE_DOWN_DEADLINE);
    ObjectNode patch = JSON.createObjectNode();
    if (pass.terminating) {
      if (current == 0) {
        return Future.succeededFuture();
      }
      int delay = ExperimentRules.scaleDownDelaySeconds(pass.spec);
      Instant deadline = Times.parse(deadlineText);
      if (delay > 0 && deadline == null) {
        Instant at = pass.now.plusSeconds(delay);
        patch
            .putObject("metadata")
            .putObject("annotations")
            .put(Annotations.SCALE_DOWN_DEADLINE, Times.format(at));
        pass.requeueAt(at);
        LOG.info(
            "{} ReplicaSet {} scales down at {} (scaleDownDelaySeconds {})",
            pass.ctx,
            name,
            Times.format(at),
            delay);
      } else if (delay > 0 && pass.now.isBefore(deadline)) {
        pass.requeueAt(deadline);
        return Future.succeededFuture();
      } else {
        patch.putObject("spec").put("replicas", 0);
        if (deadlineText != null) {
          patch
              .putObject("metadata")
              .putObject("annotations")
              .putNull(Annotations.SCALE_DOWN_DEADLINE);
        }
        LOG.info("{} scaling ReplicaSet {} from {} to 0", pass.ctx, name, current);
      }
    } else {
      int desired = ExperimentRules.replicas(t);
      if (current == desired && deadlineText == null) {
        return Future.succeededFuture();
      }
      patch.putObject("spec").put("replicas", desired);
      if (deadlineText != null) {
        patch
            .putObject("metadata")
            .putObject("annotations")
            .putNull(Annotations.SCALE_DOWN_DEADLINE);
      }
      LOG.info("{} scaling ReplicaSet {} from {} to {}", pass.ctx, name, current, desired);
    }
    // As the Rollout's scaling: no resourceVersion, the patch only sets what this controller owns
    // (the ReplicaSet controller updates the status concurrently, which would turn every scale
    // after a create into a 409).
    return api.patchReplicaSet(pass.namespace(), name, patch.toString())
        .onSuccess(
            updated -> {
              cache.wrote(updated);
              pass.replicaSets.put(name, updated);
            })
        .mapEmpty();
  }

  private static String controllerUid(ReplicaSet rs) {
    List<String> uids = ExperimentCache.experimentOwnerUid(rs);
    return uids.isEmpty() ? null : uids.get(0);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Template statuses

  private Future<Void> templateStatuses(Pass pass) {
    int deadlineSeconds = ExperimentRules.progressDeadlineSeconds(pass.spec);
    List<TemplateStatus> next = new ArrayList<>();
    for (ExperimentTemplate t : pass.spec.getTemplates()) {
      TemplateStatus prev = pass.previous(t.getName());
      ReplicaSet rs =
          pass.replicaSets.get(ExperimentObjects.replicaSetName(pass.name(), t.getName()));
      TemplateStatus observed = new TemplateStatus();
      if (rs != null) {
        var s = rs.getStatus();
        boolean current =
            s != null
                && Objects.equals(s.getObservedGeneration(), rs.getMetadata().getGeneration());
        observed.setReplicas(s == null ? null : s.getReplicas());
        observed.setUpdatedReplicas(s == null ? null : s.getReplicas());
        observed.setReadyReplicas(s == null ? null : s.getReadyReplicas());
        observed.setAvailableReplicas(s == null || !current ? null : s.getAvailableReplicas());
        observed.setPodTemplateHash(label(rs, Labels.POD_TEMPLATE_HASH));
      } else if (prev != null) {
        observed.setPodTemplateHash(prev.getPodTemplateHash());
      }
      TemplateStatus ts =
          ExperimentRules.templateStatus(
              prev, t, observed, pass.terminating, deadlineSeconds, pass.now);
      String error = pass.templateErrors.get(t.getName());
      if (error != null
          && !ExperimentRules.SUCCESSFUL.equals(ts.getStatus())
          && !ExperimentRules.FAILED.equals(ts.getStatus())) {
        ts.setStatus(ExperimentRules.ERROR);
        ts.setMessage(error);
        ts.setLastTransitionTime(Times.format(pass.now));
      }
      ExperimentRules.progressDeadline(ts, deadlineSeconds).ifPresent(pass::requeueAt);
      templateEvent(pass, prev, ts);
      next.add(ts);
    }
    pass.status.setTemplateStatuses(next);
    if (pass.status.getAvailableAt() == null && ExperimentRules.allRunning(pass.spec, next)) {
      pass.status.setAvailableAt(Times.format(pass.now));
      LOG.info("{} every template is available", pass.ctx);
    }
    return Future.succeededFuture();
  }

  private void templateEvent(Pass pass, TemplateStatus prev, TemplateStatus ts) {
    String before = prev == null ? null : prev.getStatus();
    if (ts.getStatus().equals(before)) {
      return;
    }
    String message =
        "Template '"
            + ts.getName()
            + "' transitioned from "
            + (before == null ? "" : before)
            + " -> "
            + ts.getStatus()
            + (ts.getMessage() == null ? "" : ": " + ts.getMessage());
    LOG.info("{} {}", pass.ctx, message);
    boolean bad =
        ExperimentRules.FAILED.equals(ts.getStatus())
            || ExperimentRules.ERROR.equals(ts.getStatus());
    pass.events.add(
        () -> {
          if (bad) {
            events.warning(pass.ex, "Template" + ts.getStatus(), message);
          } else {
            events.normal(pass.ex, "Template" + ts.getStatus(), message);
          }
        });
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Services

  private Future<Void> reconcileServices(Pass pass) {
    Future<Void> chain = Future.succeededFuture();
    for (ExperimentTemplate t : pass.spec.getTemplates()) {
      TemplateStatus ts = pass.previous(t.getName());
      ReplicaSet rs =
          pass.replicaSets.get(ExperimentObjects.replicaSetName(pass.name(), t.getName()));
      if (ts == null) {
        continue;
      }
      if (pass.terminating) {
        boolean down =
            rs == null || rs.getSpec().getReplicas() == null || rs.getSpec().getReplicas() == 0;
        if (ts.getServiceName() != null && down) {
          String svc = ts.getServiceName();
          chain =
              chain.compose(
                  v ->
                      api.delete(Service.class, pass.namespace(), svc)
                          .recover(
                              err ->
                                  KubeApiException.isNotFound(err)
                                      ? Future.succeededFuture()
                                      : Future.failedFuture(err))
                          .onSuccess(
                              x -> {
                                LOG.info(
                                    "{} deleted Service {} of template {}",
                                    pass.ctx,
                                    svc,
                                    t.getName());
                                ts.setServiceName(null);
                              }));
        }
        continue;
      }
      if (t.getService() == null || ts.getServiceName() != null || rs == null || !isActive(ts)) {
        continue;
      }
      Optional<Service> service =
          ExperimentObjects.service(pass.ex, t, label(rs, Labels.POD_TEMPLATE_HASH));
      if (service.isEmpty()) {
        // As Argo Rollouts: no container port, no Service; the template carries on without one.
        LOG.debug(
            "{} template {} requests a Service but declares no container port: none created",
            pass.ctx,
            t.getName());
        continue;
      }
      Service wanted = service.get();
      String svcName = wanted.getMetadata().getName();
      chain =
          chain.compose(
              v ->
                  api.create(wanted)
                      .map(
                          created -> {
                            LOG.info(
                                "{} created Service {} for template {}",
                                pass.ctx,
                                svcName,
                                t.getName());
                            return true;
                          })
                      .recover(
                          err -> {
                            if (!KubeApiException.isConflict(err)) {
                              return Future.failedFuture(err);
                            }
                            return api.get(Service.class, pass.namespace(), svcName)
                                .map(
                                    found ->
                                        found != null
                                            && ExperimentCache.experimentOwnerUid(found)
                                                .contains(pass.ex.getMetadata().getUid()));
                          })
                      .map(
                          ours -> {
                            if (ours) {
                              ts.setServiceName(svcName);
                            } else {
                              markError(
                                  pass,
                                  ts,
                                  "Service '"
                                      + svcName
                                      + "' already exists and is not controlled by this Experiment");
                            }
                            return null;
                          }));
    }
    return chain;
  }

  private static boolean isActive(TemplateStatus ts) {
    return ExperimentRules.PROGRESSING.equals(ts.getStatus())
        || ExperimentRules.RUNNING.equals(ts.getStatus());
  }

  private void markError(Pass pass, TemplateStatus ts, String message) {
    TemplateStatus prev = ModelJson.deepCopy(ts);
    ts.setStatus(ExperimentRules.ERROR);
    ts.setMessage(message);
    ts.setLastTransitionTime(Times.format(pass.now));
    templateEvent(pass, prev, ts);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // AnalysisRuns

  private Future<Void> reconcileAnalysisRuns(Pass pass) {
    boolean terminating = ExperimentRules.terminating(pass.spec, pass.status, pass.now);
    if (terminating && !pass.terminating) {
      // Became terminating in this pass (a template failed, the duration ended): scale down in the
      // next pass.
      pass.outcome = pass.outcome.and(ReconcileOutcome.requeueAfter(Duration.ZERO));
    }
    if (!terminating) {
      ExperimentRules.durationEnd(pass.spec, pass.status).ifPresent(pass::requeueAt);
    }
    Future<Void> chain = Future.succeededFuture();
    if (terminating) {
      for (ExperimentAnalysisRunStatus a : list(pass.status.getAnalysisRuns())) {
        AnalysisRun run = pass.runs.get(a.getAnalysisRun());
        if (run == null
            || AnalysisPhase.isCompleted(phase(run))
            || Boolean.TRUE.equals(run.getSpec().getTerminate())) {
          continue;
        }
        chain =
            chain.compose(
                v ->
                    api.patch(
                            AnalysisRun.class,
                            pass.namespace(),
                            a.getAnalysisRun(),
                            null,
                            "{\"spec\":{\"terminate\":true}}")
                        .onSuccess(
                            updated -> {
                              cache.wrote(updated);
                              String message =
                                  "Terminating AnalysisRun '"
                                      + a.getAnalysisRun()
                                      + "' (analysis '"
                                      + a.getName()
                                      + "')";
                              LOG.info("{} {}", pass.ctx, message);
                              pass.events.add(
                                  () -> events.normal(pass.ex, "AnalysisRunTerminating", message));
                            })
                        .recover(
                            err ->
                                KubeApiException.isNotFound(err)
                                    ? Future.succeededFuture()
                                    : Future.failedFuture(err))
                        .mapEmpty());
      }
      return chain.onSuccess(v -> setPhase(pass));
    }
    if (pass.status.getAvailableAt() == null) {
      return chain.onSuccess(v -> setPhase(pass));
    }
    Map<String, ExperimentAnalysisRunStatus> byName = new LinkedHashMap<>();
    for (ExperimentAnalysisRunStatus a : list(pass.status.getAnalysisRuns())) {
      byName.put(a.getName(), a);
    }
    List<ExperimentAnalysisRunStatus> entries =
        new ArrayList<>(list(pass.status.getAnalysisRuns()));
    for (ExperimentAnalysisTemplateRef a : list(pass.spec.getAnalyses())) {
      if (byName.containsKey(a.getName())) {
        continue;
      }
      ExperimentAnalysisRunStatus entry = new ExperimentAnalysisRunStatus();
      entry.setName(a.getName());
      entry.setAnalysisRun(ExperimentObjects.runName(pass.name(), a.getName()));
      entries.add(entry);
      chain = chain.compose(v -> createRun(pass, a, entry));
    }
    pass.status.setAnalysisRuns(entries.isEmpty() ? null : entries);
    return chain.onSuccess(v -> setPhase(pass));
  }

  private Future<Void> createRun(
      Pass pass, ExperimentAnalysisTemplateRef a, ExperimentAnalysisRunStatus entry) {
    AnalysisRun wanted;
    try {
      wanted =
          ExperimentObjects.analysisRun(
              pass.ex, a, lookup(pass.namespace()), pass.status.getAvailableAt(), pass.replicaSets);
    } catch (AnalysisSpecException e) {
      entry.setPhase(AnalysisPhase.ERROR);
      entry.setMessage(e.getMessage());
      analysisRunEvent(pass, entry, null, AnalysisPhase.ERROR);
      return Future.succeededFuture();
    }
    return api.create(wanted)
        .map(
            created -> {
              cache.wrote(created);
              LOG.info(
                  "{} created AnalysisRun {} for analysis {}",
                  pass.ctx,
                  entry.getAnalysisRun(),
                  a.getName());
              return true;
            })
        .recover(
            err -> {
              if (!KubeApiException.isConflict(err)) {
                return Future.failedFuture(err);
              }
              return api.get(AnalysisRun.class, pass.namespace(), entry.getAnalysisRun())
                  .map(
                      found ->
                          found != null
                              && ExperimentCache.experimentOwnerUid(found)
                                  .contains(pass.ex.getMetadata().getUid()));
            })
        .map(
            ours -> {
              if (ours) {
                entry.setPhase(AnalysisPhase.PENDING);
              } else {
                entry.setPhase(AnalysisPhase.ERROR);
                entry.setMessage(
                    "AnalysisRun '"
                        + entry.getAnalysisRun()
                        + "' already exists and is not controlled by this Experiment");
                analysisRunEvent(pass, entry, null, AnalysisPhase.ERROR);
              }
              return null;
            });
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

  private static String phase(AnalysisRun run) {
    return run.getStatus() == null ? null : run.getStatus().getPhase();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Phase and persist

  private void setPhase(Pass pass) {
    String before = pass.status.getPhase();
    ExperimentRules.PhaseAndMessage pm = ExperimentRules.phase(pass.spec, pass.status);
    pass.status.setPhase(pm.phase());
    pass.status.setMessage(pm.message());
    if (!pm.phase().equals(before)) {
      LOG.info(
          "{} phase {} -> {}{}",
          pass.ctx,
          before,
          pm.phase(),
          pm.message() == null ? "" : " (" + pm.message() + ")");
    }
    if (AnalysisPhase.isCompleted(pm.phase()) && !AnalysisPhase.isCompleted(before)) {
      // Completed in this pass: scale down and terminate the analyses in the next one.
      pass.outcome = pass.outcome.and(ReconcileOutcome.requeueAfter(Duration.ZERO));
    }
  }

  private Future<Void> persist(Pass pass) {
    Optional<ObjectNode> patch = statusPatch.diff(pass.ex, pass.ex.getStatus(), pass.status);
    if (patch.isEmpty()) {
      pass.events.forEach(Runnable::run);
      return Future.succeededFuture();
    }
    return statusPatch
        .write(pass.ex, patch.get())
        .onSuccess(updated -> pass.events.forEach(Runnable::run))
        .mapEmpty();
  }

  private static String label(ReplicaSet rs, String key) {
    Map<String, String> labels = rs.getMetadata().getLabels();
    return labels == null ? null : labels.get(key);
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private static <T> List<T> list(List<T> l) {
    return l == null ? List.of() : l;
  }
}
