package io.rollgate.controller.traffic;

import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.vertx.core.Future;
import java.util.List;

/**
 * One traffic router a canary Rollout shifts traffic through (docs/compatibility.md §5.6 and §11):
 * NGINX Ingress, Istio, SMI, Gateway API, or an out-of-process plugin. The calls and their order
 * mirror Argo Rollouts' traffic-routing reconciler interface, so a plugin speaking the same
 * contract plugs in unchanged.
 *
 * <p>Every method returns at once with a {@link Future}; nothing blocks the caller. A method writes
 * only what differs from the router object as stored (idempotent: calling it twice with the same
 * arguments writes once). A failed Future carries a message naming the router object and the
 * reason; the caller records it as the {@code TrafficRoutingError} event and retries the reconcile.
 */
public interface TrafficRouter {

  /**
   * Returns the router's name for logs and events ({@code Nginx}, {@code Istio}, {@code SMI}, a
   * plugin name).
   *
   * @return the name
   */
  String type();

  /**
   * Tells the router the current pod-template hashes (Argo {@code UpdateHash}), for routers that
   * route by subset labels (an Istio DestinationRule); other routers do nothing.
   *
   * @param request the Rollout being reconciled
   * @param canaryHash the pod-template hash of the new (canary) ReplicaSet, or null
   * @param stableHash the pod-template hash of the stable ReplicaSet, or null
   * @param additional extra destinations (experiment services), never null
   * @return a Future completing when the router is up to date
   */
  Future<Void> updateHash(
      TrafficRequest request,
      String canaryHash,
      String stableHash,
      List<WeightDestination> additional);

  /**
   * Whether {@link #updateHash} should be given the stable hash as the canary hash once an abort
   * has taken all traffic off the canary (the moment the canary Service is pointed back at the
   * stable ReplicaSet), so that subset-based canary destinations keep endpoints for header and
   * mirror routes. False by default, which keeps Argo's plugin contract (the canary hash stays the
   * new ReplicaSet's); the Istio router answers true for its DestinationRule.
   *
   * @return true to re-point the canary subset at the stable hash after an abort
   */
  default boolean canaryFollowsStableOnAbort() {
    return false;
  }

  /**
   * Sets the canary weight (Argo {@code SetWeight}); the stable destination gets the rest of the
   * total weight minus the additional destinations.
   *
   * @param request the Rollout being reconciled
   * @param desiredWeight the canary weight, 0 to {@code trafficRouting.maxTrafficWeight} (percent
   *     when the maximum is 100)
   * @param additional extra destinations with their weights, never null
   * @return a Future completing when the router object carries the weights
   */
  Future<Void> setWeight(
      TrafficRequest request, int desiredWeight, List<WeightDestination> additional);

  /**
   * Creates, replaces or removes (when {@code route.match} is empty) the managed header route
   * {@code route.name} (Argo {@code SetHeaderRoute}; step {@code setHeaderRoute}). Routers without
   * header routes complete at once.
   *
   * @param request the Rollout being reconciled
   * @param route the step's route
   * @return a Future completing when the router object carries the route
   */
  Future<Void> setHeaderRoute(TrafficRequest request, SetHeaderRoute route);

  /**
   * Creates, replaces or removes (when {@code route.match} is empty) the managed mirror route
   * {@code route.name} (Argo {@code SetMirrorRoute}; step {@code setMirrorRoute}). Routers without
   * mirroring complete at once.
   *
   * @param request the Rollout being reconciled
   * @param route the step's route
   * @return a Future completing when the router object carries the route
   */
  Future<Void> setMirrorRoute(TrafficRequest request, SetMirrorRoute route);

  /**
   * Asks whether the data plane really applies the weight (Argo {@code VerifyWeight}).
   *
   * @param request the Rollout being reconciled
   * @param desiredWeight the canary weight that was set
   * @param additional extra destinations
   * @return a Future with the verdict ({@link WeightVerification#NOT_IMPLEMENTED} when the router
   *     cannot tell)
   */
  Future<WeightVerification> verifyWeight(
      TrafficRequest request, int desiredWeight, List<WeightDestination> additional);

  /**
   * Removes every route listed in {@code trafficRouting.managedRoutes} from the router objects
   * (Argo {@code RemoveManagedRoutes}): on full promotion, abort, and {@code promote --full}.
   *
   * @param request the Rollout being reconciled
   * @return a Future completing when no managed route is left
   */
  Future<Void> removeManagedRoutes(TrafficRequest request);
}
