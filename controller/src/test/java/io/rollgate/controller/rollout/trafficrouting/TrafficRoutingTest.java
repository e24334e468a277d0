package io.rollgate.controller.rollout.trafficrouting;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rollgate.controller.traffic.IstioTrafficRouter;
import io.rollgate.controller.traffic.NginxTrafficRouter;
import org.junit.jupiter.api.Test;

/** Which hashes the traffic step hands to the routers (docs/compatibility.md §5.6). */
class TrafficRoutingTest {

  private static final IstioTrafficRouter ISTIO = new IstioTrafficRouter(null, null, "v1alpha3");
  private static final NginxTrafficRouter NGINX = new NginxTrafficRouter(null, null);

  @Test
  void canarySubsetFollowsStable_whenAnAbortTookAllTrafficOffTheCanary() {
    TrafficRouting.Decision aborted = new TrafficRouting.Decision(0, "new", true, true);
    assertEquals("stable", TrafficRouting.routerCanaryHash(ISTIO, aborted, "stable"));
  }

  @Test
  void canaryHashStaysTheNewReplicaSets_whenNotAbortedOrStillDraining() {
    TrafficRouting.Decision running = new TrafficRouting.Decision(20, "new", false, false);
    TrafficRouting.Decision draining = new TrafficRouting.Decision(20, "new", true, false);
    assertEquals("new", TrafficRouting.routerCanaryHash(ISTIO, running, "stable"));
    assertEquals("new", TrafficRouting.routerCanaryHash(ISTIO, draining, "stable"));
  }

  @Test
  void routersKeepingArgosContractGetTheNewHash_whenAborted() {
    TrafficRouting.Decision aborted = new TrafficRouting.Decision(0, "new", true, true);
    assertEquals("new", TrafficRouting.routerCanaryHash(NGINX, aborted, "stable"));
  }
}
