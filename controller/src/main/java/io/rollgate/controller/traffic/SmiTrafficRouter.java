package io.rollgate.controller.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.rollgate.api.ModelJson;
import io.rollgate.api.SMITrafficRouting;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SMI ({@code trafficRouting.smi}, docs/compatibility.md §11.1): the TrafficSplit {@code
 * smi.trafficSplitName} (default: the Rollout's name) in {@code split.smi-spec.io/<version>}
 * (v1alpha1, v1alpha2 or v1alpha3; default v1alpha1, as Argo's {@code
 * --traffic-split-api-version}), with {@code spec.service = smi.rootService | stableService} and
 * backends canary = weight, stable = {@code 100 - weight - additional}, then the additional
 * destinations. The controller creates it owned by the Rollout and patches it only while it owns
 * it. v1alpha1 weights are quantities (strings), later versions integers. Header and mirror routes
 * are not supported by SMI.
 */
public final class SmiTrafficRouter implements TrafficRouter {

  /** The TrafficSplit API versions Argo Rollouts supports. */
  public static final Set<String> VERSIONS = Set.of("v1alpha1", "v1alpha2", "v1alpha3");

  private static final Logger LOG = LoggerFactory.getLogger(SmiTrafficRouter.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private final KubeApi api;
  private final EventRecorder events;
  private final String apiVersion;

  /**
   * Creates the router.
   *
   * @param api the API facade
   * @param events the event recorder ({@code TrafficSplitCreated}, {@code TrafficSplitNotCreated})
   * @param version the TrafficSplit version, one of {@link #VERSIONS}
   * @throws IllegalArgumentException for another version
   */
  public SmiTrafficRouter(KubeApi api, EventRecorder events, String version) {
    if (!VERSIONS.contains(version)) {
      throw new IllegalArgumentException(
          "traffic split API version must be one of " + VERSIONS + ": " + version);
    }
    this.api = api;
    this.events = events;
    this.apiVersion = "split.smi-spec.io/" + version;
  }

  @Override
  public String type() {
    return "SMI";
  }

  static String splitName(TrafficRequest req) {
    SMITrafficRouting smi = req.trafficRouting().getSmi();
    String n = smi.getTrafficSplitName();
    return n == null || n.isEmpty() ? req.name() : n;
  }

  private ObjectNode desiredSpec(
      TrafficRequest req, int weight, List<WeightDestination> additional) {
    SMITrafficRouting smi = req.trafficRouting().getSmi();
    String root =
        smi.getRootService() == null || smi.getRootService().isEmpty()
            ? req.stableService()
            : smi.getRootService();
    ObjectNode spec = JSON.createObjectNode();
    spec.put("service", root);
    ArrayNode backends = spec.putArray("backends");
    int extra = 0;
    for (WeightDestination d : additional) {
      extra += d.getWeight() == null ? 0 : d.getWeight();
    }
    backend(backends, req.canaryService(), weight);
    backend(backends, req.stableService(), Math.max(0, 100 - weight - extra));
    for (WeightDestination d : additional) {
      backend(backends, d.getServiceName(), d.getWeight() == null ? 0 : d.getWeight());
    }
    return spec;
  }

  private void backend(ArrayNode backends, String service, int weight) {
    ObjectNode b = backends.addObject();
    b.put("service", service);
    if (apiVersion.endsWith("v1alpha1")) {
      b.put("weight", String.valueOf(weight));
    } else {
      b.put("weight", weight);
    }
  }

  @Override
  public Future<Void> setWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    String name = splitName(req);
    ObjectNode spec = desiredSpec(req, desiredWeight, additional);
    return api.getGeneric(apiVersion, "TrafficSplit", req.namespace(), name)
        .compose(
            existing -> {
              if (existing == null) {
                GenericKubernetesResource ts = new GenericKubernetesResource();
                ts.setApiVersion(apiVersion);
                ts.setKind("TrafficSplit");
                ObjectMeta meta = new ObjectMeta();
                meta.setName(name);
                meta.setNamespace(req.namespace());
                meta.setOwnerReferences(List.of(Owners.controllerRef(req.rollout())));
                ts.setMetadata(meta);
                ts.setAdditionalProperty("spec", JSON.convertValue(spec, Map.class));
                LOG.info(
                    "{} creating TrafficSplit {} with weight {}", req.ctx(), name, desiredWeight);
                return api.createGeneric(ts)
                    .onSuccess(
                        v ->
                            events.normal(
                                req.rollout(),
                                "TrafficSplitCreated",
                                "TrafficSplit `" + name + "` created"))
                    .onFailure(
                        err ->
                            events.warning(
                                req.rollout(),
                                "TrafficSplitNotCreated",
                                "TrafficSplit `" + name + "` failed creation: " + err.getMessage()))
                    .mapEmpty();
              }
              if (!Owners.controlledBy(existing, req.rollout())) {
                return Future.failedFuture("Rollout does not own TrafficSplit `" + name + "`");
              }
              JsonNode have = JSON.valueToTree(existing).path("spec");
              if (have.equals(spec)) {
                return Future.succeededFuture();
              }
              ObjectNode patch = JSON.createObjectNode();
              patch
                  .putObject("metadata")
                  .put("resourceVersion", existing.getMetadata().getResourceVersion());
              patch.set("spec", spec);
              LOG.info("{} updating TrafficSplit {} to weight {}", req.ctx(), name, desiredWeight);
              return api.patchGeneric(
                      apiVersion, "TrafficSplit", req.namespace(), name, patch.toString())
                  .mapEmpty();
            });
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
