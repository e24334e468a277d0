package io.rollgate.controller.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.ModelJson;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.TraefikTrafficRouting;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.vertx.core.Future;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Traefik ({@code trafficRouting.traefik}, docs/compatibility.md §1.5): the TraefikService {@code
 * traefik.weightedTraefikServiceName} in the Rollout's namespace, whose {@code
 * spec.weighted.services} list must hold an entry named {@code canaryService} and one named {@code
 * stableService}; the canary entry gets the weight and the stable one {@code 100 - weight}. Other
 * entries and fields are left as they are. The API group and version come from {@code
 * --traefik-api-group} / {@code --traefik-api-version} ({@code traefik.io/v1alpha1} by default,
 * {@code traefik.containo.us/v1alpha1} for Traefik v2).
 *
 * <p>As in Argo Rollouts, Traefik has no header or mirror routes (the Rollout validation refuses
 * those steps unless another router serves them), ignores experiment destinations, and cannot
 * verify weights.
 */
public final class TraefikTrafficRouter implements TrafficRouter {

  /**
   * Warning event reason when the TraefikService cannot be updated (Argo's {@code
   * TraefikServiceUpdateError}).
   */
  public static final String UPDATE_ERROR = "TraefikServiceUpdateError";

  private static final String KIND = "TraefikService";
  private static final Logger LOG = LoggerFactory.getLogger(TraefikTrafficRouter.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private final KubeApi api;
  private final EventRecorder events;
  private final String apiVersion;

  /**
   * Creates the router.
   *
   * @param api the API facade
   * @param events the event recorder ({@code TraefikServiceUpdateError})
   * @param apiVersion the TraefikService {@code apiVersion}, see {@link
   *     RouterApiVersions#traefikServiceApiVersion()}
   */
  public TraefikTrafficRouter(KubeApi api, EventRecorder events, String apiVersion) {
    this.api = api;
    this.events = events;
    this.apiVersion = apiVersion;
  }

  @Override
  public String type() {
    return "Traefik";
  }

  /**
   * Returns the TraefikService {@code apiVersion} this router uses.
   *
   * @return for example {@code traefik.io/v1alpha1}
   */
  public String apiVersion() {
    return apiVersion;
  }

  @Override
  public Future<Void> setWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    TraefikTrafficRouting traefik = req.trafficRouting().getTraefik();
    String name = traefik.getWeightedTraefikServiceName();
    if (name == null || name.isEmpty()) {
      return Future.failedFuture("trafficRouting.traefik.weightedTraefikServiceName must be set");
    }
    return api.getGeneric(apiVersion, KIND, req.namespace(), name)
        .compose(
            existing -> {
              if (existing == null) {
                return Future.failedFuture(
                    "TraefikService `" + name + "` not found (" + apiVersion + ")");
              }
              JsonNode obj = JSON.valueToTree(existing);
              ArrayNode services;
              try {
                services =
                    weightedServices(
                        name, obj, req.canaryService(), req.stableService(), desiredWeight);
              } catch (IllegalArgumentException e) {
                return Future.failedFuture(e.getMessage());
              }
              if (services.equals(obj.path("spec").path("weighted").path("services"))) {
                return Future.succeededFuture();
              }
              ObjectNode patch = JSON.createObjectNode();
              patch
                  .putObject("metadata")
                  .put("resourceVersion", existing.getMetadata().getResourceVersion());
              patch.putObject("spec").putObject("weighted").set("services", services);
              LOG.info(
                  "{} updating TraefikService {} to weight {}", req.ctx(), name, desiredWeight);
              return api.patchGeneric(apiVersion, KIND, req.namespace(), name, patch.toString())
                  .onFailure(
                      err ->
                          events.warning(
                              req.rollout(),
                              UPDATE_ERROR,
                              "Error updating traefik service \""
                                  + name
                                  + "\": "
                                  + err.getMessage()))
                  .<Void>mapEmpty();
            });
  }

  /**
   * Returns a copy of a TraefikService's {@code spec.weighted.services} with the canary entry at
   * {@code weight} and the stable entry at {@code 100 - weight} (pure; exposed for unit tests).
   *
   * @param name the TraefikService name, for messages
   * @param traefikService the TraefikService as JSON
   * @param canaryService {@code spec.strategy.canary.canaryService}
   * @param stableService {@code spec.strategy.canary.stableService}
   * @param weight the canary weight, 0 to 100
   * @return the new list, in the stored order
   * @throws IllegalArgumentException when the list is missing, an entry has no name, or the canary
   *     or stable entry is missing
   */
  static ArrayNode weightedServices(
      String name,
      JsonNode traefikService,
      String canaryService,
      String stableService,
      int weight) {
    JsonNode list = traefikService.path("spec").path("weighted").path("services");
    if (!list.isArray()) {
      throw new IllegalArgumentException(
          "TraefikService `" + name + "` has no spec.weighted.services list");
    }
    ArrayNode services = ((ArrayNode) list).deepCopy();
    ObjectNode canary = null;
    ObjectNode stable = null;
    for (int i = 0; i < services.size(); i++) {
      JsonNode s = services.get(i);
      if (!s.isObject() || !s.path("name").isTextual()) {
        throw new IllegalArgumentException(
            "TraefikService `" + name + "`: spec.weighted.services[" + i + "] has no name");
      }
      String n = s.path("name").asText();
      if (canary == null && n.equals(canaryService)) {
        canary = (ObjectNode) s;
      } else if (stable == null && n.equals(stableService)) {
        stable = (ObjectNode) s;
      }
    }
    if (canary == null) {
      throw new IllegalArgumentException(
          "TraefikService `"
              + name
              + "`: canary Service `"
              + canaryService
              + "` not found in spec.weighted.services");
    }
    if (stable == null) {
      throw new IllegalArgumentException(
          "TraefikService `"
              + name
              + "`: stable Service `"
              + stableService
              + "` not found in spec.weighted.services");
    }
    canary.put("weight", weight);
    stable.put("weight", 100 - weight);
    return services;
  }

  @Override
  public Future<Void> updateHash(
      TrafficRequest req,
      String canaryHash,
      String stableHash,
      List<WeightDestination> additional) {
    return Future.succeededFuture();
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
