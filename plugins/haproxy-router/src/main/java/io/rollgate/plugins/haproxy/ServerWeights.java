package io.rollgate.plugins.haproxy;

import io.rollgate.api.Rollout;
import io.rollgate.api.WeightDestination;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HAProxy server weights that carry a canary weight: the canary server gets {@code
 * desiredWeight}, each additional destination's server its weight, and the stable server the rest,
 * {@code maxTrafficWeight − desiredWeight − Σ additional} floored at 0 (docs/compatibility.md §11,
 * {@code SetWeight}). HAProxy's round-robin shares traffic in proportion to the weights, so with
 * the default total of 100 the weights are percentages.
 *
 * @param weights server name to weight (0 to 256), in the order the commands are sent: stable,
 *     canary, additional
 */
public record ServerWeights(Map<String, Integer> weights) {

  /**
   * The largest weight HAProxy accepts for a server ({@code set weight}: "between 0 and 256
   * inclusive").
   */
  public static final int MAX_HAPROXY_WEIGHT = 256;

  /**
   * Computes the weights.
   *
   * @param config the plugin configuration (server names)
   * @param rollout the Rollout, for {@code trafficRouting.maxTrafficWeight} (100 when absent)
   * @param desiredWeight the canary weight, 0 to {@code maxTrafficWeight}
   * @param additional experiment destinations; a destination with a weight above 0 needs a server
   *     in {@code additionalServers}; servers there without a destination get 0
   * @return the weights
   * @throws IllegalArgumentException when a weight is out of range or an additional destination has
   *     no server
   */
  public static ServerWeights compute(
      HaproxyRouterConfig config,
      Rollout rollout,
      int desiredWeight,
      List<WeightDestination> additional) {
    int total = maxTrafficWeight(rollout);
    if (total > MAX_HAPROXY_WEIGHT || total < 1) {
      throw new IllegalArgumentException(
          "spec.strategy.canary.trafficRouting.maxTrafficWeight: "
              + total
              + " cannot be carried by HAProxy, whose "
              + "server weights go from 0 to "
              + MAX_HAPROXY_WEIGHT);
    }
    if (desiredWeight < 0 || desiredWeight > total) {
      throw new IllegalArgumentException(
          "desired weight " + desiredWeight + " is outside 0.." + total);
    }
    Map<String, Integer> extra = new LinkedHashMap<>();
    config.additionalServers().values().forEach(server -> extra.put(server, 0));
    int extraSum = 0;
    List<String> unmapped = new ArrayList<>();
    for (WeightDestination d : additional == null ? List.<WeightDestination>of() : additional) {
      int w = d.getWeight() == null ? 0 : d.getWeight();
      if (w < 0 || w > total) {
        throw new IllegalArgumentException(
            "additional destination "
                + d.getServiceName()
                + ": weight "
                + w
                + " is outside 0.."
                + total);
      }
      String server =
          d.getServiceName() == null ? null : config.additionalServers().get(d.getServiceName());
      if (server == null) {
        if (w > 0) {
          unmapped.add(d.getServiceName());
        }
        continue;
      }
      extra.merge(server, w, Integer::sum);
      extraSum += w;
    }
    if (!unmapped.isEmpty()) {
      throw new IllegalArgumentException(
          config.field()
              + ".additionalServers: no HAProxy server for the additional destination(s) "
              + unmapped
              + " (map each Service name to a server of backend "
              + config.backend()
              + ")");
    }
    Map<String, Integer> weights = new LinkedHashMap<>();
    weights.put(config.stableServer(), Math.max(0, total - desiredWeight - extraSum));
    weights.put(config.canaryServer(), desiredWeight);
    weights.putAll(extra);
    return new ServerWeights(Collections.unmodifiableMap(weights));
  }

  /**
   * The Rollout's weight total.
   *
   * @param rollout the Rollout
   * @return {@code spec.strategy.canary.trafficRouting.maxTrafficWeight}, or 100 when absent
   */
  public static int maxTrafficWeight(Rollout rollout) {
    if (rollout == null
        || rollout.getSpec() == null
        || rollout.getSpec().getStrategy() == null
        || rollout.getSpec().getStrategy().getCanary() == null
        || rollout.getSpec().getStrategy().getCanary().getTrafficRouting() == null
        || rollout.getSpec().getStrategy().getCanary().getTrafficRouting().getMaxTrafficWeight()
            == null) {
      return 100;
    }
    return rollout.getSpec().getStrategy().getCanary().getTrafficRouting().getMaxTrafficWeight();
  }
}
