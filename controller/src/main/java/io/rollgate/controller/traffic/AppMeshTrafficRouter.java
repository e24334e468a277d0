package io.rollgate.controller.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.rollgate.api.Annotations;
import io.rollgate.api.AppMeshTrafficRouting;
import io.rollgate.api.AppMeshVirtualNodeGroup;
import io.rollgate.api.AppMeshVirtualNodeReference;
import io.rollgate.api.Labels;
import io.rollgate.api.ModelJson;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.vertx.core.Future;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AWS App Mesh ({@code trafficRouting.appMesh}, docs/compatibility.md §1.5 and §2.3 item 9), on the
 * {@code appmesh.k8s.aws} objects ({@code --appmesh-crd-version}, default v1beta2) in the Rollout's
 * namespace:
 *
 * <ul>
 *   <li>{@code updateHash}: the VirtualNodes {@code virtualNodeGroup.stableVirtualNodeRef} and
 *       {@code canaryVirtualNodeRef} get {@code
 *       spec.podSelector.matchLabels.rollouts-pod-template-hash} = the stable and canary ReplicaSet
 *       hashes (their other labels kept) and the {@code managed-by-rollouts} annotation. Without a
 *       stable hash the stable node selects {@code stable-hash}; while there is no canary or it is
 *       the stable one (fully promoted), the canary node selects {@code canary-hash}, so the two
 *       never select the same pods.
 *   <li>{@code setWeight}: the VirtualService {@code virtualService.name} names its VirtualRouter
 *       in {@code spec.provider.virtualRouter.virtualRouterRef}; in that router's routes (those
 *       listed in {@code virtualService.routes}, or all), the {@code action.weightedTargets} entry
 *       whose {@code virtualNodeRef} is the canary node gets the weight and the stable node's entry
 *       {@code 100 - weight}. Routes are {@code httpRoute}, {@code http2Route}, {@code grpcRoute}
 *       or {@code tcpRoute} and must have exactly two weighted targets, as Argo Rollouts requires.
 * </ul>
 *
 * <p>Beyond Argo Rollouts' checks, a route listed in {@code virtualService.routes} that is missing,
 * or that has no target for the canary or the stable node, is an error, and so is a router none of
 * whose routes weights both nodes. Header and mirror routes, experiment destinations and weight
 * verification are not supported by App Mesh (the Rollout validation refuses those steps unless
 * another router serves them).
 */
public final class AppMeshTrafficRouter implements TrafficRouter {

  /** The route kinds whose weighted targets are set, in the order they are looked for. */
  public static final List<String> ROUTE_TYPES =
      List.of("httpRoute", "tcpRoute", "http2Route", "grpcRoute");

  /** The selector value of the stable VirtualNode while there is no stable ReplicaSet. */
  public static final String NO_STABLE_HASH = "stable-hash";

  /**
   * The selector value of the canary VirtualNode while there is no canary distinct from the stable
   * ReplicaSet.
   */
  public static final String NO_CANARY_HASH = "canary-hash";

  private static final Logger LOG = LoggerFactory.getLogger(AppMeshTrafficRouter.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private final KubeApi api;
  private final EventRecorder events;
  private final String apiVersion;

  /**
   * Creates the router.
   *
   * @param api the API facade
   * @param events the event recorder ({@code VirtualServiceNotFound}, {@code
   *     VirtualRouterNotFound}, {@code VirtualNodeNotFound})
   * @param apiVersion the App Mesh {@code apiVersion}, see {@link
   *     RouterApiVersions#appMeshApiVersion()}
   */
  public AppMeshTrafficRouter(KubeApi api, EventRecorder events, String apiVersion) {
    this.api = api;
    this.events = events;
    this.apiVersion = apiVersion;
  }

  @Override
  public String type() {
    return "AppMesh";
  }

  private static AppMeshTrafficRouting appMesh(TrafficRequest req) {
    return req.trafficRouting().getAppMesh();
  }

  /**
   * The selector values of the stable and canary VirtualNodes for a pair of hashes.
   *
   * @param canaryHash the canary ReplicaSet hash, or null
   * @param stableHash the stable ReplicaSet hash, or null
   * @return {stable value, canary value}
   */
  static String[] selectorHashes(String canaryHash, String stableHash) {
    String stable = stableHash == null || stableHash.isEmpty() ? NO_STABLE_HASH : stableHash;
    String canary =
        canaryHash == null || canaryHash.isEmpty() || canaryHash.equals(stable)
            ? NO_CANARY_HASH
            : canaryHash;
    return new String[] {stable, canary};
  }

  @Override
  public Future<Void> updateHash(
      TrafficRequest req,
      String canaryHash,
      String stableHash,
      List<WeightDestination> additional) {
    AppMeshVirtualNodeGroup group = appMesh(req).getVirtualNodeGroup();
    if (group == null
        || name(group.getStableVirtualNodeRef()) == null
        || name(group.getCanaryVirtualNodeRef()) == null) {
      return Future.failedFuture(
          "trafficRouting.appMesh.virtualNodeGroup must name canaryVirtualNodeRef and stableVirtualNodeRef");
    }
    String[] values = selectorHashes(canaryHash, stableHash);
    return pinVirtualNode(req, group.getStableVirtualNodeRef().getName(), values[0])
        .compose(v -> pinVirtualNode(req, group.getCanaryVirtualNodeRef().getName(), values[1]));
  }

  private static String name(AppMeshVirtualNodeReference ref) {
    return ref == null || ref.getName() == null || ref.getName().isEmpty() ? null : ref.getName();
  }

  private Future<Void> pinVirtualNode(TrafficRequest req, String name, String hash) {
    String ns = req.namespace();
    return api.getGeneric(apiVersion, "VirtualNode", ns, name)
        .compose(
            node -> {
              if (node == null) {
                String msg = "VirtualNode `" + name + "` not found in namespace `" + ns + "`";
                events.warning(req.rollout(), "VirtualNodeNotFound", msg);
                return Future.failedFuture(msg);
              }
              JsonNode obj = JSON.valueToTree(node);
              boolean labelled =
                  hash.equals(
                      obj.path("spec")
                          .path("podSelector")
                          .path("matchLabels")
                          .path(Labels.POD_TEMPLATE_HASH)
                          .asText(null));
              Map<String, String> ann = node.getMetadata().getAnnotations();
              boolean annotated =
                  ann != null && req.name().equals(ann.get(Annotations.MANAGED_BY_ROLLOUTS));
              if (labelled && annotated) {
                return Future.succeededFuture();
              }
              ObjectNode patch = JSON.createObjectNode();
              ObjectNode meta = patch.putObject("metadata");
              meta.put("resourceVersion", node.getMetadata().getResourceVersion());
              meta.putObject("annotations").put(Annotations.MANAGED_BY_ROLLOUTS, req.name());
              patch
                  .putObject("spec")
                  .putObject("podSelector")
                  .putObject("matchLabels")
                  .put(Labels.POD_TEMPLATE_HASH, hash);
              LOG.info(
                  "{} pinning VirtualNode {} to {}={}",
                  req.ctx(),
                  name,
                  Labels.POD_TEMPLATE_HASH,
                  hash);
              return api.patchGeneric(apiVersion, "VirtualNode", ns, name, patch.toString())
                  .<Void>mapEmpty();
            });
  }

  @Override
  public Future<Void> setWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    AppMeshTrafficRouting mesh = appMesh(req);
    String vsName = mesh.getVirtualService() == null ? null : mesh.getVirtualService().getName();
    AppMeshVirtualNodeGroup group = mesh.getVirtualNodeGroup();
    if (vsName == null || vsName.isEmpty()) {
      return Future.failedFuture("trafficRouting.appMesh.virtualService.name must be set");
    }
    if (group == null
        || name(group.getStableVirtualNodeRef()) == null
        || name(group.getCanaryVirtualNodeRef()) == null) {
      return Future.failedFuture(
          "trafficRouting.appMesh.virtualNodeGroup must name canaryVirtualNodeRef and stableVirtualNodeRef");
    }
    String ns = req.namespace();
    return api.getGeneric(apiVersion, "VirtualService", ns, vsName)
        .compose(
            vs -> {
              if (vs == null) {
                String msg = "VirtualService `" + vsName + "` not found in namespace `" + ns + "`";
                events.warning(req.rollout(), "VirtualServiceNotFound", msg);
                return Future.failedFuture(msg);
              }
              JsonNode ref =
                  JSON.valueToTree(vs)
                      .path("spec")
                      .path("provider")
                      .path("virtualRouter")
                      .path("virtualRouterRef");
              String vrName = ref.path("name").asText("");
              if (vrName.isEmpty()) {
                return Future.failedFuture(
                    "VirtualService `"
                        + vsName
                        + "` is not associated with a virtual router"
                        + " (spec.provider.virtualRouter.virtualRouterRef)");
              }
              String vrNs =
                  ref.path("namespace").asText("").isEmpty() ? ns : ref.path("namespace").asText();
              return api.getGeneric(apiVersion, "VirtualRouter", vrNs, vrName)
                  .compose(vr -> weightRouter(req, vsName, vrNs, vrName, vr, desiredWeight));
            });
  }

  private Future<Void> weightRouter(
      TrafficRequest req,
      String vsName,
      String ns,
      String vrName,
      GenericKubernetesResource vr,
      int weight) {
    if (vr == null) {
      String msg =
          "VirtualRouter `"
              + vrName
              + "` of VirtualService `"
              + vsName
              + "` not found in namespace `"
              + ns
              + "`";
      events.warning(req.rollout(), "VirtualRouterNotFound", msg);
      return Future.failedFuture(msg);
    }
    AppMeshTrafficRouting mesh = appMesh(req);
    JsonNode obj = JSON.valueToTree(vr);
    ArrayNode routes;
    try {
      routes =
          weightedRoutes(
              obj,
              req.namespace(),
              mesh.getVirtualService().getRoutes(),
              mesh.getVirtualNodeGroup().getCanaryVirtualNodeRef().getName(),
              mesh.getVirtualNodeGroup().getStableVirtualNodeRef().getName(),
              weight);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e.getMessage());
    }
    if (routes.equals(obj.path("spec").path("routes"))) {
      return Future.succeededFuture();
    }
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("metadata").put("resourceVersion", vr.getMetadata().getResourceVersion());
    patch.putObject("spec").set("routes", routes);
    LOG.info("{} updating VirtualRouter {} to weight {}", req.ctx(), vrName, weight);
    return api.patchGeneric(apiVersion, "VirtualRouter", ns, vrName, patch.toString()).mapEmpty();
  }

  /**
   * Returns a copy of a VirtualRouter's {@code spec.routes} with the canary and stable weighted
   * targets of the selected routes set (pure; exposed for unit tests).
   *
   * @param virtualRouter the VirtualRouter as JSON
   * @param namespace the Rollout's namespace (the VirtualNodes' namespace, and a target's when it
   *     names none)
   * @param routeNames {@code appMesh.virtualService.routes}; null or empty selects every route
   * @param canaryNode the canary VirtualNode name
   * @param stableNode the stable VirtualNode name
   * @param weight the canary weight, 0 to 100
   * @return the new routes, in the stored order
   * @throws IllegalArgumentException naming the route field when the routes are malformed, a route
   *     has not exactly two weighted targets, a listed route is missing or lacks a target, or no
   *     route weights both nodes
   */
  static ArrayNode weightedRoutes(
      JsonNode virtualRouter,
      String namespace,
      List<String> routeNames,
      String canaryNode,
      String stableNode,
      int weight) {
    String vr = "VirtualRouter `" + virtualRouter.path("metadata").path("name").asText() + "`";
    JsonNode stored = virtualRouter.path("spec").path("routes");
    if (!stored.isArray() || stored.isEmpty()) {
      throw new IllegalArgumentException(vr + " has no spec.routes");
    }
    Set<String> wanted = routeNames == null ? Set.of() : new HashSet<>(routeNames);
    Set<String> seen = new HashSet<>();
    ArrayNode routes = ((ArrayNode) stored).deepCopy();
    boolean anyWeighted = false;
    for (int i = 0; i < routes.size(); i++) {
      String at = "spec.routes[" + i + "]";
      if (!routes.get(i).isObject()) {
        throw new IllegalArgumentException(vr + ": " + at + " is not an object");
      }
      ObjectNode route = (ObjectNode) routes.get(i);
      String routeName = route.path("name").asText("");
      String type =
          ROUTE_TYPES.stream().filter(t -> route.path(t).isObject()).findFirst().orElse(null);
      if (type == null) {
        throw new IllegalArgumentException(
            vr + ": " + at + " (" + routeName + ") has none of " + ROUTE_TYPES);
      }
      String targetsAt = at + "." + type + ".action.weightedTargets";
      JsonNode targets = route.path(type).path("action").path("weightedTargets");
      if (!targets.isArray()) {
        throw new IllegalArgumentException(vr + ": " + targetsAt + " is missing");
      }
      if (targets.size() != 2) {
        throw new IllegalArgumentException(
            vr
                + ": "
                + targetsAt
                + " has "
                + targets.size()
                + " targets ("
                + routeName
                + "), expected 2");
      }
      if (!wanted.isEmpty() && !wanted.contains(routeName)) {
        continue;
      }
      seen.add(routeName);
      ObjectNode canary = null;
      ObjectNode stable = null;
      for (int j = 0; j < targets.size(); j++) {
        JsonNode t = targets.get(j);
        JsonNode ref = t.path("virtualNodeRef");
        if (!ref.path("name").isTextual()) {
          throw new IllegalArgumentException(
              vr + ": " + targetsAt + "[" + j + "] has no virtualNodeRef.name");
        }
        if (!t.path("weight").isNumber()) {
          throw new IllegalArgumentException(
              vr + ": " + targetsAt + "[" + j + "].weight is not a number");
        }
        String nodeNs =
            ref.path("namespace").asText("").isEmpty() ? namespace : ref.path("namespace").asText();
        if (!nodeNs.equals(namespace)) {
          continue;
        }
        if (ref.path("name").asText().equals(stableNode)) {
          stable = (ObjectNode) t;
        } else if (ref.path("name").asText().equals(canaryNode)) {
          canary = (ObjectNode) t;
        }
      }
      if (canary == null || stable == null) {
        if (!wanted.isEmpty()) {
          throw new IllegalArgumentException(
              vr
                  + ": route `"
                  + routeName
                  + "` has no weightedTarget for the "
                  + (canary == null
                      ? "canary VirtualNode `" + canaryNode
                      : "stable VirtualNode `" + stableNode)
                  + "`");
        }
        continue;
      }
      canary.put("weight", weight);
      stable.put("weight", 100 - weight);
      anyWeighted = true;
    }
    for (String n : wanted) {
      if (!seen.contains(n)) {
        throw new IllegalArgumentException(
            vr + ": route `" + n + "` listed in appMesh.virtualService.routes not found");
      }
    }
    if (!anyWeighted) {
      throw new IllegalArgumentException(
          vr
              + ": no route has weightedTargets for both the canary VirtualNode `"
              + canaryNode
              + "` and the stable VirtualNode `"
              + stableNode
              + "`");
    }
    return routes;
  }

  @Override
  public Future<Void> setHeaderRoute(TrafficRequest req, SetHeaderRoute route) {
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> setMirrorRoute(TrafficRequest req, SetMirrorRoute route) {
    return Future.succeededFuture();
  }

  @Override
  public Future<WeightVerification> verifyWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    return Future.succeededFuture(WeightVerification.NOT_IMPLEMENTED);
  }

  @Override
  public Future<Void> removeManagedRoutes(TrafficRequest req) {
    return Future.succeededFuture();
  }
}
