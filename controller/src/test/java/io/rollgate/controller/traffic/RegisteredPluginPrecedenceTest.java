package io.rollgate.controller.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.vertx.core.Future;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A registered traffic-router plugin takes precedence over the built-in router of the same name
 * (docs/plugins.md).
 */
class RegisteredPluginPrecedenceTest {

  /** A plugin router whose registration the test switches on and off. */
  record Hosted(String type, Set<String> registry) implements HostedTrafficRouter {
    @Override
    public boolean registered() {
      return registry.contains(type);
    }

    @Override
    public Future<Void> updateHash(
        TrafficRequest r, String c, String s, List<WeightDestination> a) {
      return Future.succeededFuture();
    }

    @Override
    public Future<Void> setWeight(TrafficRequest r, int w, List<WeightDestination> a) {
      return Future.succeededFuture();
    }

    @Override
    public Future<Void> setHeaderRoute(TrafficRequest r, SetHeaderRoute route) {
      return Future.succeededFuture();
    }

    @Override
    public Future<Void> setMirrorRoute(TrafficRequest r, SetMirrorRoute route) {
      return Future.succeededFuture();
    }

    @Override
    public Future<WeightVerification> verifyWeight(
        TrafficRequest r, int w, List<WeightDestination> a) {
      return Future.succeededFuture(WeightVerification.NOT_IMPLEMENTED);
    }

    @Override
    public Future<Void> removeManagedRoutes(TrafficRequest r) {
      return Future.succeededFuture();
    }
  }

  private static Rollout rollout(String plugin) throws Exception {
    String text =
        "metadata: {name: web, namespace: shop}\nspec:\n  strategy:\n    canary:\n      trafficRouting:\n"
            + "        plugins: {\""
            + plugin
            + "\": {httpRoute: web}}\n";
    return ModelJson.fromJson(new YAMLMapper().readTree(text).toString(), Rollout.class);
  }

  @Test
  void builtInGatewayApiRouterIsUsedUntilAPluginOfThatNameIsRegistered() throws Exception {
    Set<String> registry = new HashSet<>();
    TrafficRouters routers =
        new TrafficRouters(null, null, "v1alpha1", name -> new Hosted(name, registry));
    Rollout r = rollout(GatewayApiTrafficRouter.PLUGIN_NAME);

    assertTrue(routers.forRollout(r).get(0) instanceof GatewayApiTrafficRouter);
    registry.add(GatewayApiTrafficRouter.PLUGIN_NAME);
    TrafficRouter chosen = routers.forRollout(r).get(0);
    assertTrue(chosen instanceof Hosted, chosen.getClass().getName());
    assertEquals(GatewayApiTrafficRouter.PLUGIN_NAME, chosen.type());
  }

  @Test
  void otherNamesGoToThePluginHostRegisteredOrNot() throws Exception {
    TrafficRouters routers =
        new TrafficRouters(null, null, "v1alpha1", name -> new Hosted(name, Set.of()));
    TrafficRouter chosen = routers.forRollout(rollout("example/haproxy")).get(0);
    assertTrue(chosen instanceof Hosted);
    assertSame("example/haproxy", chosen.type());
  }
}
