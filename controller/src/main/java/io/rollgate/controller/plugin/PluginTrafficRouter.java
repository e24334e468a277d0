package io.rollgate.controller.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.ModelJson;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.traffic.HostedTrafficRouter;
import io.rollgate.controller.traffic.TrafficRequest;
import io.rollgate.controller.traffic.TrafficRouter;
import io.rollgate.controller.traffic.WeightVerification;
import io.rollgate.plugin.PluginKind;
import io.vertx.core.Future;
import java.util.List;

/**
 * A {@link TrafficRouter} whose calls go to a traffic-router plugin ({@code
 * trafficRouting.plugins["<org>/<name>"]}, docs/compatibility.md §11, docs/plugins.md
 * "Traffic-router plugins"): each call becomes {@code trafficrouter/<call>} with the whole Rollout.
 * A plugin error or a failed call fails the Future with {@code failed to <call> via plugin:
 * <message>}, as Argo Rollouts' plugin client does; {@code verified: null} is {@link
 * WeightVerification#NOT_IMPLEMENTED}.
 */
public final class PluginTrafficRouter implements HostedTrafficRouter {

  private final PluginHost host;
  private final String name;

  /**
   * Creates the router.
   *
   * @param host the plugin host
   * @param name the plugin name, {@code <org>/<name>}
   */
  public PluginTrafficRouter(PluginHost host, String name) {
    this.host = host;
    this.name = name;
  }

  @Override
  public String type() {
    return name;
  }

  @Override
  public boolean registered() {
    return host.registration(PluginKind.TRAFFIC_ROUTER, name).isPresent();
  }

  @Override
  public Future<Void> updateHash(
      TrafficRequest request,
      String canaryHash,
      String stableHash,
      List<WeightDestination> additional) {
    ObjectNode body = body(request);
    body.put("canaryHash", canaryHash);
    body.put("stableHash", stableHash);
    body.set(
        "additionalDestinations", ModelJson.toTree(additional == null ? List.of() : additional));
    return send("updateHash", "update hash", request, body).mapEmpty();
  }

  @Override
  public Future<Void> setWeight(
      TrafficRequest request, int desiredWeight, List<WeightDestination> additional) {
    ObjectNode body = body(request);
    body.put("desiredWeight", desiredWeight);
    body.set(
        "additionalDestinations", ModelJson.toTree(additional == null ? List.of() : additional));
    return send("setWeight", "set weight", request, body).mapEmpty();
  }

  @Override
  public Future<Void> setHeaderRoute(TrafficRequest request, SetHeaderRoute route) {
    ObjectNode body = body(request);
    body.set("headerRoute", ModelJson.toTree(route));
    return send("setHeaderRoute", "set header route", request, body).mapEmpty();
  }

  @Override
  public Future<Void> setMirrorRoute(TrafficRequest request, SetMirrorRoute route) {
    ObjectNode body = body(request);
    body.set("mirrorRoute", ModelJson.toTree(route));
    return send("setMirrorRoute", "set mirror route", request, body).mapEmpty();
  }

  @Override
  public Future<WeightVerification> verifyWeight(
      TrafficRequest request, int desiredWeight, List<WeightDestination> additional) {
    ObjectNode body = body(request);
    body.put("desiredWeight", desiredWeight);
    body.set(
        "additionalDestinations", ModelJson.toTree(additional == null ? List.of() : additional));
    return send("verifyWeight", "verify weight", request, body)
        .compose(
            a -> {
              JsonNode v = a.get("verified");
              if (v == null || v.isNull()) {
                return Future.succeededFuture(WeightVerification.NOT_IMPLEMENTED);
              }
              if (!v.isBoolean()) {
                return Future.failedFuture(
                    "failed to verify weight via plugin: plugin "
                        + name
                        + " answered verified="
                        + v
                        + " (expected true, false or null)");
              }
              return Future.succeededFuture(
                  v.asBoolean() ? WeightVerification.VERIFIED : WeightVerification.NOT_VERIFIED);
            });
  }

  @Override
  public Future<Void> removeManagedRoutes(TrafficRequest request) {
    return send("removeManagedRoutes", "remove managed routes", request, body(request)).mapEmpty();
  }

  private static ObjectNode body(TrafficRequest request) {
    ObjectNode body = ModelJson.mapper().createObjectNode();
    body.set("rollout", ModelJson.toTree(request.rollout()));
    return body;
  }

  private Future<JsonNode> send(String call, String op, TrafficRequest request, ObjectNode body) {
    return host.call(
            PluginKind.TRAFFIC_ROUTER, name, "trafficrouter/" + call, body, request.rollout(), null)
        .recover(
            err ->
                Future.failedFuture(
                    new IllegalStateException(
                        "failed to " + op + " via plugin: " + err.getMessage(), err)))
        .compose(
            a -> {
              String error = a.path("error").isTextual() ? a.path("error").asText() : "";
              return error.isEmpty()
                  ? Future.succeededFuture(a)
                  : Future.failedFuture(
                      new IllegalStateException(
                          "failed to " + op + " via plugin: plugin " + name + ": " + error));
            });
  }
}
