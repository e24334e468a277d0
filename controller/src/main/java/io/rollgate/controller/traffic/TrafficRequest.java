package io.rollgate.controller.traffic;

import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.ManagedRoute;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutTrafficRouting;
import io.rollgate.controller.runtime.ReconcileContext;
import io.rollgate.defaults.RolloutDefaults;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link TrafficRouter} call is about: the Rollout as read this pass (routers read their
 * configuration from {@code spec.strategy.canary.trafficRouting}) and the reconcile context for
 * logs.
 *
 * @param ctx the reconcile context
 * @param rollout the Rollout (not modified by routers)
 */
public record TrafficRequest(ReconcileContext ctx, Rollout rollout) {

  /**
   * Returns {@code spec.strategy.canary}.
   *
   * @return the canary strategy
   */
  public CanaryStrategy canary() {
    return rollout.getSpec().getStrategy().getCanary();
  }

  /**
   * Returns {@code spec.strategy.canary.trafficRouting}.
   *
   * @return the traffic routing block
   */
  public RolloutTrafficRouting trafficRouting() {
    return canary().getTrafficRouting();
  }

  /** {@code status.canary.stablePingPong} value meaning the pong Service is the stable one. */
  public static final String PONG = "pong";

  /** {@code status.canary.stablePingPong} value meaning the ping Service is the stable one. */
  public static final String PING = "ping";

  /**
   * Returns the Service that receives the stable share: {@code spec.strategy.canary.stableService},
   * or with {@code pingPong} the ping or pong Service that {@code status.canary.stablePingPong}
   * names (ping when unset).
   *
   * @return the Service name, or null
   */
  public String stableService() {
    return stableService(true);
  }

  /**
   * Returns the Service that receives the stable share, as a router sees it. With {@code pingPong}
   * and {@code pingPongPreferred} (ALB, Services, status) that is the stable one of ping and pong;
   * without it (Istio) the ping/pong Services are used only when neither {@code stableService} nor
   * {@code canaryService} is set, so a Rollout combining ALB ping-pong with an Istio mesh routes
   * the mesh through {@code stableService}/{@code canaryService}.
   *
   * @param pingPongPreferred whether ping/pong wins over {@code stableService}/{@code
   *     canaryService}
   * @return the Service name, or null
   */
  public String stableService(boolean pingPongPreferred) {
    if (usesPingPong(pingPongPreferred)) {
      return PONG.equals(stablePingPong())
          ? canary().getPingPong().getPongService()
          : canary().getPingPong().getPingService();
    }
    return canary().getStableService();
  }

  /**
   * Returns the Service that receives the canary share: {@code spec.strategy.canary.canaryService},
   * or with {@code pingPong} the one of ping and pong that is not stable.
   *
   * @return the Service name, or null
   */
  public String canaryService() {
    return canaryService(true);
  }

  /**
   * Returns the Service that receives the canary share, with the same choice as {@link
   * #stableService(boolean)}.
   *
   * @param pingPongPreferred whether ping/pong wins over {@code stableService}/{@code
   *     canaryService}
   * @return the Service name, or null
   */
  public String canaryService(boolean pingPongPreferred) {
    if (usesPingPong(pingPongPreferred)) {
      return PONG.equals(stablePingPong())
          ? canary().getPingPong().getPingService()
          : canary().getPingPong().getPongService();
    }
    return canary().getCanaryService();
  }

  private boolean usesPingPong(boolean pingPongPreferred) {
    if (canary().getPingPong() == null) {
      return false;
    }
    return pingPongPreferred
        || (isEmpty(canary().getStableService()) && isEmpty(canary().getCanaryService()));
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }

  private String stablePingPong() {
    var status = rollout.getStatus();
    return status == null || status.getCanary() == null
        ? null
        : status.getCanary().getStablePingPong();
  }

  /**
   * Returns the total weight W: {@code trafficRouting.maxTrafficWeight}, default 100.
   *
   * @return W
   */
  public int maxWeight() {
    Integer w = trafficRouting().getMaxTrafficWeight();
    return w == null ? RolloutDefaults.MAX_TRAFFIC_WEIGHT : w;
  }

  /**
   * Returns the names in {@code trafficRouting.managedRoutes}, in precedence order.
   *
   * @return the names (empty when none)
   */
  public List<String> managedRoutes() {
    List<String> names = new ArrayList<>();
    if (trafficRouting().getManagedRoutes() != null) {
      for (ManagedRoute r : trafficRouting().getManagedRoutes()) {
        names.add(r.getName());
      }
    }
    return names;
  }

  /**
   * Returns the Rollout's namespace.
   *
   * @return the namespace
   */
  public String namespace() {
    return rollout.getMetadata().getNamespace();
  }

  /**
   * Returns the Rollout's name.
   *
   * @return the name
   */
  public String name() {
    return rollout.getMetadata().getName();
  }
}
