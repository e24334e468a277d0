package io.rollgate.controller.traffic;

import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.ManagedRoute;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutTrafficRouting;
import io.rollgate.controller.ReconcileContext;
import io.rollgate.defaults.RolloutDefaults;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link TrafficRouter} call is about: the Rollout as read this pass (routers read their configuration from
 * {@code spec.strategy.canary.trafficRouting}) and the reconcile context for logs.
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

  /**
   * Returns {@code spec.strategy.canary.stableService}.
   *
   * @return the Service name, or null
   */
  public String stableService() {
    return canary().getStableService();
  }

  /**
   * Returns {@code spec.strategy.canary.canaryService}.
   *
   * @return the Service name, or null
   */
  public String canaryService() {
    return canary().getCanaryService();
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
