package io.rollgate.plugins.haproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.Rollout;
import io.rollgate.api.WeightDestination;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerWeightsTest {

  private static HaproxyRouterConfig config(Rollout rollout) {
    return HaproxyRouterConfig.fromRollout(rollout, TestRollouts.PLUGIN);
  }

  private static WeightDestination destination(String service, int weight) {
    WeightDestination d = new WeightDestination();
    d.setServiceName(service);
    d.setWeight(weight);
    d.setPodTemplateHash("abc123");
    return d;
  }

  @Test
  void givesTheCanaryItsWeightAndStableTheRest() {
    Rollout rollout = TestRollouts.withConfig(TestRollouts.config("/s", "web", "stable", "canary"));
    HaproxyRouterConfig config = config(rollout);
    assertEquals(
        Map.of("stable", 80, "canary", 20),
        ServerWeights.compute(config, rollout, 20, List.of()).weights());
    assertEquals(
        Map.of("stable", 100, "canary", 0),
        ServerWeights.compute(config, rollout, 0, null).weights());
    assertEquals(
        Map.of("stable", 0, "canary", 100),
        ServerWeights.compute(config, rollout, 100, List.of()).weights());
  }

  @Test
  void usesMaxTrafficWeightAsTheTotal() {
    ObjectNode c = TestRollouts.config("/s", "web", "stable", "canary");
    Rollout rollout = TestRollouts.withPlugins("{\"rollgate/haproxy\":" + c + "}", 200);
    assertEquals(
        Map.of("stable", 150, "canary", 50),
        ServerWeights.compute(config(rollout), rollout, 50, List.of()).weights());

    Rollout tooLarge = TestRollouts.withPlugins("{\"rollgate/haproxy\":" + c + "}", 1000);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ServerWeights.compute(config(tooLarge), tooLarge, 50, List.of()));
    assertEquals(
        "spec.strategy.canary.trafficRouting.maxTrafficWeight: 1000 cannot be carried by HAProxy, whose server "
            + "weights go from 0 to 256",
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ServerWeights.compute(config(rollout), rollout, 201, List.of()));
    assertEquals("desired weight 201 is outside 0..200", e.getMessage());
  }

  @Test
  void givesAdditionalDestinationsTheirServersAndZeroesTheUnusedOnes() {
    ObjectNode c = TestRollouts.config("/s", "web", "stable", "canary");
    c.putObject("additionalServers").put("web-exp-a", "exp-a").put("web-exp-b", "exp-b");
    Rollout rollout = TestRollouts.withConfig(c);
    HaproxyRouterConfig config = config(rollout);
    assertEquals(
        Map.of("stable", 70, "canary", 20, "exp-a", 10, "exp-b", 0),
        ServerWeights.compute(config, rollout, 20, List.of(destination("web-exp-a", 10)))
            .weights());
    assertEquals(
        Map.of("stable", 0, "canary", 90, "exp-a", 10, "exp-b", 10),
        ServerWeights.compute(
                config,
                rollout,
                90,
                List.of(destination("web-exp-a", 10), destination("web-exp-b", 10)))
            .weights());
  }

  @Test
  void namesAnAdditionalDestinationWithoutServer() {
    Rollout rollout = TestRollouts.withConfig(TestRollouts.config("/s", "web", "stable", "canary"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ServerWeights.compute(
                    config(rollout), rollout, 20, List.of(destination("web-exp", 10))));
    assertEquals(
        "spec.strategy.canary.trafficRouting.plugins[\"rollgate/haproxy\"].additionalServers: no HAProxy server for "
            + "the additional destination(s) [web-exp] (map each Service name to a server of backend web)",
        e.getMessage());
  }
}
