package io.rollgate.plugin.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.Rollout;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.vertx.core.Future;
import java.util.List;

/**
 * A traffic-router plugin, configured by {@code
 * spec.strategy.canary.trafficRouting.plugins["<org>/<name>"]} (Argo Rollouts' {@code
 * RpcTrafficRoutingReconciler}, docs/compatibility.md §11, docs/plugins.md).
 *
 * <p>Every method returns at once with a Future; a failed Future is a plugin error, which fails the
 * reconcile with {@code failed to <call> via plugin: <message>}. Calls must be idempotent: the
 * controller repeats them on every reconcile.
 */
public interface TrafficRouterPlugin {

  /**
   * Prepares the plugin; called once after start, before any other call.
   *
   * @return a Future completing when ready; a failure counts as a failed start
   */
  default Future<Void> init() {
    return Future.succeededFuture();
  }

  /**
   * A short description for logs.
   *
   * @return the type, for example {@code haproxy}
   */
  default String type() {
    return getClass().getSimpleName();
  }

  /**
   * The JSON Schema (draft 2020-12) that the plugin's {@code trafficRouting.plugins} entry must
   * match.
   *
   * @return the schema, or null when the plugin declares none
   */
  default JsonNode configSchema() {
    return null;
  }

  /**
   * Tells the router the current pod-template-hashes (for routers that route by subset).
   *
   * @param rollout the Rollout as stored
   * @param canaryHash the canary ReplicaSet's pod-template-hash, or null
   * @param stableHash the stable ReplicaSet's pod-template-hash, or null
   * @param additional experiment destinations (may be empty)
   * @return a Future completing when the router knows the hashes
   */
  Future<Void> updateHash(
      Rollout rollout, String canaryHash, String stableHash, List<WeightDestination> additional);

  /**
   * Sends {@code desiredWeight} percent of the traffic to the canary, the rest to stable minus the
   * additional destinations' weights.
   *
   * @param rollout the Rollout as stored
   * @param desiredWeight the canary weight, 0 to {@code maxTrafficWeight} (100 by default)
   * @param additional experiment destinations with their weights (may be empty)
   * @return a Future completing when the router carries the weights
   */
  Future<Void> setWeight(Rollout rollout, int desiredWeight, List<WeightDestination> additional);

  /**
   * Creates, replaces or (without {@code match}) removes a managed header route.
   *
   * @param rollout the Rollout as stored
   * @param route the step's {@code setHeaderRoute}
   * @return a Future completing when the router carries the route
   */
  Future<Void> setHeaderRoute(Rollout rollout, SetHeaderRoute route);

  /**
   * Creates, replaces or (without {@code match}) removes a managed mirror route.
   *
   * @param rollout the Rollout as stored
   * @param route the step's {@code setMirrorRoute}
   * @return a Future completing when the router carries the route
   */
  Future<Void> setMirrorRoute(Rollout rollout, SetMirrorRoute route);

  /**
   * Checks that the router really carries the weights.
   *
   * @param rollout the Rollout as stored
   * @param desiredWeight the canary weight that should be in effect, percent
   * @param additional experiment destinations with their weights
   * @return true or false, or null when the router cannot verify
   */
  Future<Boolean> verifyWeight(
      Rollout rollout, int desiredWeight, List<WeightDestination> additional);

  /**
   * Removes every managed route of the Rollout ({@code trafficRouting.managedRoutes}).
   *
   * @param rollout the Rollout as stored
   * @return a Future completing when none is left
   */
  Future<Void> removeManagedRoutes(Rollout rollout);
}
