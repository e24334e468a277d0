package io.rollgate.controller.plugin;

import io.rollgate.api.Rollout;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.rollgate.plugin.sdk.TrafficRouterPlugin;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;

/**
 * A traffic-router plugin loaded in-process through ServiceLoader by the tests ({@code java:}
 * location).
 */
public final class InProcessTestRouter implements TrafficRouterPlugin {

  /** Calls seen by every instance, in order. */
  static final List<String> CALLS = java.util.Collections.synchronizedList(new ArrayList<>());

  /** Creates the plugin (ServiceLoader needs a public no-argument constructor). */
  public InProcessTestRouter() {}

  @Override
  public Future<Void> init() {
    CALLS.add("init");
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> updateHash(Rollout r, String c, String s, List<WeightDestination> a) {
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> setWeight(Rollout r, int w, List<WeightDestination> a) {
    CALLS.add("setWeight " + r.getMetadata().getName() + " " + w);
    return w == 99 ? Future.failedFuture("weight 99 refused") : Future.succeededFuture();
  }

  @Override
  public Future<Void> setHeaderRoute(Rollout r, SetHeaderRoute route) {
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> setMirrorRoute(Rollout r, SetMirrorRoute route) {
    return Future.succeededFuture();
  }

  @Override
  public Future<Boolean> verifyWeight(Rollout r, int w, List<WeightDestination> a) {
    return Future.succeededFuture(null);
  }

  @Override
  public Future<Void> removeManagedRoutes(Rollout r) {
    return Future.succeededFuture();
  }
}
