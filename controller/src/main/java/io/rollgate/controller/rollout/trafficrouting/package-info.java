/**
 * Traffic routing of a Rollout ({@code spec.strategy.canary.trafficRouting}; docs/compatibility.md
 * §5.2-5.9): which weight the routers get this pass and how it is verified ({@link
 * io.rollgate.controller.rollout.trafficrouting.TrafficRouting}), the replica targets of a
 * traffic-routed canary ({@link io.rollgate.controller.rollout.trafficrouting.TrafficRouted},
 * {@link io.rollgate.controller.rollout.trafficrouting.TrafficRoutedScaling}), and the stable and
 * canary Service selectors the routers point at. The routers themselves live in {@code
 * io.rollgate.controller.traffic}.
 */
package io.rollgate.controller.rollout.trafficrouting;
