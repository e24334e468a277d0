package io.rollgate.controller.rollout.trafficrouting;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.TrafficWeights;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.controller.rollout.services.Services;
import io.rollgate.validation.FieldError;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The canary strategy's {@code stableService} and {@code canaryService} (docs/compatibility.md
 * §5.7): the stable Service follows the stable ReplicaSet and the canary Service the new one; a
 * basic canary being aborted points the canary Service back at the stable ReplicaSet (with traffic
 * routing the traffic step does that, see {@link TrafficRouting}).
 *
 * <p>Switch rule (Argo's {@code ensureSVCTargets}): a Service not yet carrying the managed-by
 * annotation is adopted only when the ReplicaSet is fully available; a switch always needs at least
 * one available pod, unless the caller asks for no availability check (the abort switch).
 */
public final class CanaryServices {

  private static final Logger LOG = LoggerFactory.getLogger(CanaryServices.class);

  private final Services services;
  private final RolloutCache cache;

  RolloutCache cache() {
    return cache;
  }

  /**
   * Creates the canary Service step.
   *
   * @param services the Service step both strategies share
   * @param cache the informer caches (Services)
   */
  public CanaryServices(Services services, RolloutCache cache) {
    this.services = services;
    this.cache = cache;
  }

  /**
   * docs/compatibility.md §2.3 item 1 for {@code stableService}, {@code canaryService} and the
   * ping/pong Services.
   */
  public List<FieldError> validate(RolloutPass pass) {
    CanaryStrategy c = TrafficRouted.canary(pass);
    List<FieldError> errors = new ArrayList<>();
    errors.addAll(
        services.validate(
            pass.rollout, "spec.strategy.canary.stableService", c.getStableService()));
    errors.addAll(
        services.validate(
            pass.rollout, "spec.strategy.canary.canaryService", c.getCanaryService()));
    if (c.getPingPong() != null) {
      errors.addAll(
          services.validate(
              pass.rollout,
              "spec.strategy.canary.pingPong.pingService",
              c.getPingPong().getPingService()));
      errors.addAll(
          services.validate(
              pass.rollout,
              "spec.strategy.canary.pingPong.pongService",
              c.getPingPong().getPongService()));
    }
    return errors;
  }

  /**
   * docs/compatibility.md §5.1 item 5, pingPong: the stable one of ping and pong ({@code
   * status.canary.stablePingPong}) follows the stable ReplicaSet; the other one follows the new
   * ReplicaSet until it is promoted, then the two swap roles (no selector switch at promotion).
   */
  Future<Void> reconcilePingPong(RolloutPass pass) {
    CanaryStrategy c = TrafficRouted.canary(pass);
    if (c.getPingPong() == null) {
      return Future.succeededFuture();
    }
    io.rollgate.controller.traffic.TrafficRequest req =
        new io.rollgate.controller.traffic.TrafficRequest(pass.ctx, pass.rollout);
    Future<Void> stable = ensure(pass, req.stableService(), pass.stableRS, true);
    if (TrafficRouted.fullyPromoted(pass) || pass.aborted()) {
      return stable;
    }
    return stable.compose(v -> ensure(pass, req.canaryService(), pass.newRS, true));
  }

  /**
   * Records which of ping and pong is stable after a promotion: the first deploy makes ping stable;
   * a later promotion makes the Service that served the canary (which already selects the new
   * ReplicaSet) the stable one.
   */
  public static void onPromotion(
      RolloutPass pass, io.rollgate.api.RolloutStatus status, boolean initial) {
    if (TrafficRouted.canary(pass).getPingPong() == null) {
      return;
    }
    if (status.getCanary() == null) {
      status.setCanary(new io.rollgate.api.CanaryStatus());
    }
    String current = status.getCanary().getStablePingPong();
    String next =
        initial
            ? io.rollgate.controller.traffic.TrafficRequest.PING
            : io.rollgate.controller.traffic.TrafficRequest.PONG.equals(current)
                ? io.rollgate.controller.traffic.TrafficRequest.PING
                : io.rollgate.controller.traffic.TrafficRequest.PONG;
    status.getCanary().setStablePingPong(next);
  }

  /**
   * docs/compatibility.md §5.1 item 6: point the stable and canary Services at their ReplicaSets.
   */
  public Future<Void> reconcile(RolloutPass pass) {
    CanaryStrategy c = TrafficRouted.canary(pass);
    Future<Void> stable =
        reconcilePingPong(pass)
            .compose(v -> ensure(pass, c.getStableService(), pass.stableRS, true));
    if (c.getCanaryService() == null || c.getCanaryService().isEmpty()) {
      return stable;
    }
    return stable.compose(
        v -> {
          boolean tr = c.getTrafficRouting() != null;
          if (pass.aborted()) {
            // Basic canary: back to stable here. Traffic routing: the traffic step re-points it
            // together with weight 0.
            return tr
                ? Future.succeededFuture()
                : ensure(pass, c.getCanaryService(), pass.stableRS, false);
          }
          if (tr && dynamicallyRollingBackToStable(pass)) {
            LOG.debug(
                "{} dynamically rolling back to stable; canary Service switch deferred", pass.ctx);
            return Future.succeededFuture();
          }
          return ensure(pass, c.getCanaryService(), pass.newRS, true);
        });
  }

  /**
   * Argo's {@code isDynamicallyRollingBackToStable}: the new ReplicaSet is the stable one again (a
   * rollback to stable), dynamicStableScale is on, the router still sends weight to the previous
   * canary, and the stable ReplicaSet is not fully available yet.
   */
  static boolean dynamicallyRollingBackToStable(RolloutPass pass) {
    if (!TrafficRouted.enabled(pass)
        || !TrafficRouted.dynamic(pass)
        || !TrafficRouted.fullyPromoted(pass)) {
      return false;
    }
    String stable = pass.old.getStableRS();
    if (stable == null || stable.isEmpty()) {
      return false;
    }
    TrafficWeights w = pass.old.getCanary() == null ? null : pass.old.getCanary().getWeights();
    if (w == null || w.getCanary() == null || w.getCanary().getPodTemplateHash() == null) {
      return false;
    }
    return !w.getCanary().getPodTemplateHash().equals(pass.podHash)
        && TrafficRouted.nz(w.getCanary().getWeight()) > 0
        && RolloutPass.available(pass.newRS) < pass.replicas;
  }

  /**
   * Points a Service at a ReplicaSet's hash when the switch rule allows it.
   *
   * @param checkAvailability false to switch without looking at availability (abort)
   */
  Future<Void> ensure(
      RolloutPass pass, String serviceName, ReplicaSet rs, boolean checkAvailability) {
    if (serviceName == null || serviceName.isEmpty() || rs == null) {
      return Future.succeededFuture();
    }
    Service svc = cache.service(pass.namespace(), serviceName);
    String hash = RolloutPass.hashOf(rs);
    if (svc == null
        || hash == null
        || (hash.equals(Services.selectedHash(svc))
            && pass.name().equals(Services.managedBy(svc)))) {
      return Future.succeededFuture();
    }
    if (checkAvailability) {
      boolean adopted = pass.name().equals(Services.managedBy(svc));
      if (!adopted && !TrafficRouted.fullyAvailable(rs)) {
        LOG.debug(
            "{} Service {} not adopted yet: ReplicaSet {} not fully available",
            pass.ctx,
            serviceName,
            rs.getMetadata().getName());
        return Future.succeededFuture();
      }
      if (RolloutPass.available(rs) < 1) {
        LOG.debug(
            "{} Service {} not switched: ReplicaSet {} has no available pod",
            pass.ctx,
            serviceName,
            rs.getMetadata().getName());
        return Future.succeededFuture();
      }
    }
    return services.switchSelector(pass, svc, hash).mapEmpty();
  }
}
