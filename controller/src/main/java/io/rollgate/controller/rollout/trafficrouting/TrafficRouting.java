package io.rollgate.controller.rollout.trafficrouting;

import io.rollgate.api.CanaryStep;
import io.rollgate.api.TrafficWeights;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.rollout.canary.steps.CanarySnapshots;
import io.rollgate.controller.rollout.model.ReplicaProgressThreshold;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.controller.rollout.runs.RolloutExperiments;
import io.rollgate.controller.traffic.AlbTrafficRouter;
import io.rollgate.controller.traffic.TrafficRequest;
import io.rollgate.controller.traffic.TrafficRouter;
import io.rollgate.controller.traffic.TrafficRouters;
import io.rollgate.controller.traffic.WeightVerification;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The traffic step of a canary pass (docs/compatibility.md §5.6, Argo's {@code
 * reconcileTrafficRouting}): decides the canary weight, drives every configured {@link
 * TrafficRouter} (remove managed routes, header/mirror route of the current step, {@code
 * updateHash}, {@code setWeight}, {@code verifyWeight}) and leaves the new {@code
 * status.canary.weights} in the pass.
 *
 * <p>The weight only moves to a step's {@code setWeight} once the canary pods for it are ready;
 * until then the previous {@code setWeight} is kept. Nothing is written to a router while the
 * stable ReplicaSet cannot take the traffic the weight leaves it (so the first deploy never touches
 * the router).
 */
public final class TrafficRouting {

  private static final Logger LOG = LoggerFactory.getLogger(TrafficRouting.class);

  /** Argo re-checks an unverified weight after 10 seconds. */
  public static final Duration VERIFY_REQUEUE = Duration.ofSeconds(10);

  private final TrafficRouters routers;
  private final CanaryServices services;
  private final EventRecorder events;

  /**
   * Creates the traffic step.
   *
   * @param routers the traffic routers of {@code trafficRouting}
   * @param services the canary Service step (stable and canary Service selectors)
   * @param events the event recorder
   */
  public TrafficRouting(TrafficRouters routers, CanaryServices services, EventRecorder events) {
    this.routers = routers;
    this.services = services;
    this.events = events;
  }

  /** The weight decision of one pass. */
  record Decision(
      int weight, String canaryHash, boolean removeManagedRoutes, boolean canaryServiceToStable) {}

  /**
   * Reconciles the routers. Sets {@code pass.trafficReconciled} and {@code pass.trafficWeights}.
   *
   * @return a Future failing when a router call failed (after the {@code TrafficRoutingError} event
   *     was recorded)
   */
  public Future<Void> reconcile(RolloutPass pass) {
    TrafficRequest req = new TrafficRequest(pass.ctx, pass.rollout);
    if (!TrafficRouted.enabled(pass)) {
      boolean usedRouters =
          pass.old.getCanary() != null && pass.old.getCanary().getWeights() != null;
      // Traffic routing was removed from the spec: delete what the routers generated (canary
      // Ingresses).
      return usedRouters ? routers.releaseUnused(req) : Future.succeededFuture();
    }
    List<TrafficRouter> list = routers.forRollout(pass.rollout);
    return routers
        .releaseUnused(req)
        .recover(
            err -> {
              LOG.warn(
                  "{} cleanup of unused router objects failed: {}", pass.ctx, err.getMessage());
              return Future.succeededFuture();
            })
        .compose(
            v -> {
              pass.trafficReconciled = true;
              if (list.isEmpty()) {
                pass.trafficWeights = null;
                return Future.succeededFuture();
              }
              pass.trafficWeights =
                  pass.old.getCanary() == null ? null : pass.old.getCanary().getWeights();
              Decision d = decide(pass);
              return reconcileRouters(pass, req, list, d);
            });
  }

  private Decision decide(RolloutPass pass) {
    int w = TrafficRouted.maxWeight(pass);
    String canaryHash = RolloutPass.hashOf(pass.newRS);
    TrafficWeights old = pass.old.getCanary() == null ? null : pass.old.getCanary().getWeights();
    if (CanaryServices.dynamicallyRollingBackToStable(pass)) {
      return new Decision(
          TrafficRouted.dynamicAbortRouterWeight(pass),
          old.getCanary().getPodTemplateHash(),
          false,
          false);
    }
    if (TrafficRouted.fullyPromoted(pass)) {
      return new Decision(0, canaryHash, true, false);
    }
    if (pass.aborted()) {
      boolean dynamic = TrafficRouted.dynamic(pass);
      int weight = dynamic ? TrafficRouted.dynamicAbortRouterWeight(pass) : 0;
      return new Decision(weight, canaryHash, true, !dynamic || weight == 0);
    }
    if (pass.newRS == null || RolloutPass.available(pass.newRS) == 0) {
      // Argo removes the managed routes here too; that dropped a header route when a later
      // setCanaryScale scaled the canary to 0 (argoproj/argo-rollouts#3172 shape). Routes stay
      // until promotion, abort or the end.
      return new Decision(0, canaryHash, pass.newRS == null, false);
    }
    if (Boolean.TRUE.equals(pass.old.getPromoteFull())) {
      int weight =
          TrafficRouted.dynamic(pass)
              ? (pass.replicas == 0
                  ? w
                  : Math.min(w, w * RolloutPass.available(pass.newRS) / pass.replicas))
              : (old == null || old.getCanary() == null
                  ? 0
                  : TrafficRouted.nz(old.getCanary().getWeight()));
      return new Decision(weight, canaryHash, true, false);
    }
    Integer index = pass.old.getCurrentStepIndex();
    if (index == null) {
      return new Decision(0, canaryHash, false, false);
    }
    List<CanaryStep> steps = pass.steps();
    int weight;
    if (!TrafficRouted.atDesiredReplicaCounts(pass)) {
      weight = TrafficRouted.weightBefore(steps, index);
    } else if (index < steps.size()) {
      weight = TrafficRouted.currentSetWeight(pass);
    } else {
      weight = w;
    }
    return new Decision(Math.min(weight, w), canaryHash, false, false);
  }

  private Future<Void> reconcileRouters(
      RolloutPass pass, TrafficRequest req, List<TrafficRouter> list, Decision d) {
    Future<Void> pre = Future.succeededFuture();
    if (d.canaryServiceToStable()) {
      pre = services.ensure(pass, req.canaryService(), pass.stableRS, false);
    }
    if (d.removeManagedRoutes() && !req.managedRoutes().isEmpty()) {
      pre =
          pre.compose(
              v -> each(pass, list, "remove managed routes", r -> r.removeManagedRoutes(req)));
    }
    return pre.compose(
        v -> {
          if (!stableCanTakeTraffic(pass, d.weight())) {
            LOG.debug(
                "{} stable ReplicaSet cannot take {}% yet; routers left as they are",
                pass.ctx, 100 - d.weight());
            return Future.succeededFuture();
          }
          return applyWeight(pass, req, list, d);
        });
  }

  /** docs/compatibility.md §5.6 item 2. */
  private static boolean stableCanTakeTraffic(RolloutPass pass, int weight) {
    if (pass.stableRS == null) {
      return false;
    }
    int w = TrafficRouted.maxWeight(pass);
    int required = (w - weight) * pass.replicas / w;
    if (RolloutPass.available(pass.stableRS) >= required) {
      return true;
    }
    ReplicaProgressThreshold t = TrafficRouted.threshold(pass);
    return t != null
        && ReplicaProgressThreshold.isMet(t, CanarySnapshots.state(pass.stableRS), required);
  }

  private Future<Void> applyWeight(
      RolloutPass pass, TrafficRequest req, List<TrafficRouter> list, Decision d) {
    // docs/compatibility.md §12.2: the services of a running experiment step's weighted templates.
    List<WeightDestination> additional =
        RolloutExperiments.additionalDestinations(pass, services.cache());
    String stableHash = RolloutPass.hashOf(pass.stableRS);
    Future<Void> chain = Future.succeededFuture();
    CanaryStep step = currentStep(pass);
    boolean midUpdate =
        !TrafficRouted.fullyPromoted(pass)
            && !pass.aborted()
            && !Boolean.TRUE.equals(pass.old.getPromoteFull());
    if (midUpdate && step != null && revisionAboveOne(pass)) {
      if (step.getSetHeaderRoute() != null) {
        chain =
            chain.compose(
                v ->
                    each(
                        pass,
                        list,
                        "set header route",
                        r -> r.setHeaderRoute(req, step.getSetHeaderRoute())));
      } else if (step.getSetMirrorRoute() != null) {
        chain =
            chain.compose(
                v ->
                    each(
                        pass,
                        list,
                        "set mirror route",
                        r -> r.setMirrorRoute(req, step.getSetMirrorRoute())));
      }
    }
    TrafficWeights old = pass.old.getCanary() == null ? null : pass.old.getCanary().getWeights();
    int oldCanary =
        old == null || old.getCanary() == null ? 0 : TrafficRouted.nz(old.getCanary().getWeight());
    if (RolloutPass.available(pass.newRS) == 0 && oldCanary > 0) {
      chain =
          chain.compose(
              v -> each(pass, list, "set weight", r -> r.setWeight(req, d.weight(), additional)));
    }
    chain =
        chain
            .compose(
                v ->
                    each(
                        pass,
                        list,
                        "update hash",
                        r ->
                            r.updateHash(
                                req, routerCanaryHash(r, d, stableHash), stableHash, additional)))
            .compose(
                v -> each(pass, list, "set weight", r -> r.setWeight(req, d.weight(), additional)));
    return chain.compose(
        v -> {
          recordWeights(pass, req, d, stableHash, old, additional);
          return verify(pass, req, list, d, additional);
        });
  }

  /**
   * The canary hash a router is told: the new ReplicaSet's, except after an abort has taken all
   * traffic off the canary (the canary Service is back on stable) for routers whose canary subset
   * should follow it.
   */
  static String routerCanaryHash(TrafficRouter r, Decision d, String stableHash) {
    return d.canaryServiceToStable() && stableHash != null && r.canaryFollowsStableOnAbort()
        ? stableHash
        : d.canaryHash();
  }

  private void recordWeights(
      RolloutPass pass,
      TrafficRequest req,
      Decision d,
      String stableHash,
      TrafficWeights old,
      List<WeightDestination> additional) {
    int w = TrafficRouted.maxWeight(pass);
    TrafficWeights weights = new TrafficWeights();
    WeightDestination canary = new WeightDestination();
    canary.setWeight(d.weight());
    canary.setPodTemplateHash(d.canaryHash());
    canary.setServiceName(emptyToNull(req.canaryService()));
    WeightDestination stable = new WeightDestination();
    int additionalWeight =
        additional.stream().mapToInt(a -> a.getWeight() == null ? 0 : a.getWeight()).sum();
    stable.setWeight(w - d.weight() - additionalWeight);
    stable.setPodTemplateHash(stableHash);
    stable.setServiceName(emptyToNull(req.stableService()));
    weights.setCanary(canary);
    weights.setStable(stable);
    weights.setAdditional(additional.isEmpty() ? null : additional);
    pass.trafficWeights = weights;
    boolean changed =
        old == null
            || old.getCanary() == null
            || old.getStable() == null
            || !Objects.equals(old.getCanary().getWeight(), canary.getWeight())
            || !Objects.equals(old.getStable().getWeight(), stable.getWeight());
    if (changed) {
      String msg =
          old == null || old.getCanary() == null
              ? "Traffic weight updated to " + d.weight()
              : "Traffic weight updated from "
                  + TrafficRouted.nz(old.getCanary().getWeight())
                  + " to "
                  + d.weight();
      LOG.info("{} {}", pass.ctx, msg);
      pass.event("TrafficWeightUpdated", msg);
    }
  }

  /** docs/compatibility.md §5.6 item 7. */
  private Future<Void> verify(
      RolloutPass pass,
      TrafficRequest req,
      List<TrafficRouter> list,
      Decision d,
      List<WeightDestination> additional) {
    List<Future<WeightVerification>> answers = new ArrayList<>();
    for (TrafficRouter r : list) {
      if (r instanceof AlbTrafficRouter alb) {
        // The ALB router also decides status.alb/albs (docs/traffic-routers.md "AWS ALB").
        answers.add(
            alb.verifyTargetGroups(req, d.weight(), additional)
                .map(
                    v -> {
                      pass.albVerification = v;
                      if (v.error() != null) {
                        pass.warning("WeightVerifyError", "Failed to verify weight: " + v.error());
                      }
                      return v.verdict();
                    })
                .recover(
                    err -> {
                      pass.warning(
                          "WeightVerifyError", "Failed to verify weight: " + err.getMessage());
                      return Future.succeededFuture(WeightVerification.NOT_VERIFIED);
                    }));
        continue;
      }
      answers.add(
          r.verifyWeight(req, d.weight(), additional)
              .recover(
                  err -> {
                    pass.warning(
                        "WeightVerifyError", "Failed to verify weight: " + err.getMessage());
                    return Future.succeededFuture(WeightVerification.NOT_IMPLEMENTED);
                  }));
    }
    return Future.join(answers)
        .compose(
            all -> {
              Boolean verified = null;
              for (Future<WeightVerification> f : answers) {
                Boolean b = f.result().asStatus();
                if (b != null) {
                  verified = (verified == null || verified) && b;
                }
              }
              pass.trafficWeights.setVerified(verified);
              if (Boolean.FALSE.equals(verified)) {
                pass.requeueAfter(VERIFY_REQUEUE);
                if (d.weight() == TrafficRouted.maxWeight(pass)) {
                  return Future.failedFuture(
                      "traffic weight " + d.weight() + " not verified yet; scale-down waits");
                }
              }
              return Future.succeededFuture();
            });
  }

  /**
   * Runs one call on every router in order; the first failure is recorded as {@code
   * TrafficRoutingError}.
   */
  private Future<Void> each(
      RolloutPass pass,
      List<TrafficRouter> list,
      String op,
      Function<TrafficRouter, Future<Void>> call) {
    Future<Void> chain = Future.succeededFuture();
    for (TrafficRouter r : list) {
      chain =
          chain.compose(
              v ->
                  call.apply(r)
                      .recover(
                          err -> {
                            String msg = r.type() + ": failed to " + op + ": " + err.getMessage();
                            LOG.warn("{} {}", pass.ctx, msg);
                            events.warning(pass.rollout, "TrafficRoutingError", msg);
                            return Future.failedFuture(new IllegalStateException(msg, err));
                          }));
    }
    return chain;
  }

  private static CanaryStep currentStep(RolloutPass pass) {
    Integer idx = pass.old.getCurrentStepIndex();
    int i = idx == null ? 0 : idx;
    return i < pass.steps().size() ? pass.steps().get(i) : null;
  }

  private static boolean revisionAboveOne(RolloutPass pass) {
    try {
      return Long.parseLong(pass.revision()) > 1;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
