package io.rollgate.controller.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.rollgate.api.AmbassadorTrafficRouting;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ambassador / Emissary ({@code trafficRouting.ambassador}, docs/compatibility.md §1.5 and §2.3
 * item 8): for every Mapping named in {@code ambassador.mappings} (in the Rollout's namespace) a
 * canary Mapping {@code <mapping>-canary} (the stable name cut to 246 characters), a copy of the
 * stable Mapping's {@code spec} whose {@code service} has its first occurrence of {@code
 * stableService} replaced by {@code canaryService}, with {@code spec.weight} the canary weight.
 * Ambassador sends that share of the traffic to the canary Mapping and the rest to the stable one.
 *
 * <p>The canary Mapping is created when the weight first becomes positive, its weight is updated at
 * every step, and once the weight returns to 0 (end of the rollout, abort) it is set to 0, left for
 * {@link #ZERO_WEIGHT_GRACE} so the change reaches the proxies, and deleted; all as Argo Rollouts
 * does. The stable Mapping must exist and must not set {@code weight}. The Mapping {@code
 * apiVersion} comes from {@code --ambassador-api-version} ({@code getambassador.io/v2} by default;
 * {@code getambassador.io/v3alpha1}; {@code x.getambassador.io/...} uses the {@code
 * AmbassadorMapping} kind).
 *
 * <p>Unlike Argo Rollouts, the canary Mapping carries a controller owner reference to the Rollout
 * (it is deleted with the Rollout), a canary Mapping controlled by another object is reported and
 * left alone, and a stable Mapping whose {@code service} does not contain {@code stableService} is
 * an error instead of a canary Mapping that points at the stable Service. Header and mirror routes,
 * experiment destinations and weight verification are not supported by Ambassador (the Rollout
 * validation refuses those steps unless another router serves them).
 */
public final class AmbassadorTrafficRouter implements TrafficRouter {

  /** How long a canary Mapping stays at weight 0 before it is deleted (Argo Rollouts waits 5 s). */
  public static final Duration ZERO_WEIGHT_GRACE = Duration.ofSeconds(5);

  /**
   * Normal event reason when canary Mapping weights change (Argo's {@code
   * CanaryMappingWeightUpdate}).
   */
  public static final String WEIGHT_UPDATE = "CanaryMappingWeightUpdate";

  /** Warning event reason: a stable Mapping is missing. */
  public static final String NOT_FOUND = "AmbassadorMappingNotFound";

  /** Warning event reason: a stable Mapping sets {@code weight}. */
  public static final String CONFIG_ERROR = "AmbassadorMappingConfigError";

  /** Warning event reason: a canary Mapping could not be created. */
  public static final String CREATION_ERROR = "CanaryMappingCreationError";

  /** Warning event reason: a canary Mapping could not be updated. */
  public static final String UPDATE_ERROR = "CanaryMappingUpdateError";

  /** Warning event reason: a canary Mapping could not be deleted. */
  public static final String CLEANUP_ERROR = "CanaryMappingCleanupError";

  private static final int MAX_BASE_NAME = 246;
  private static final Logger LOG = LoggerFactory.getLogger(AmbassadorTrafficRouter.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private final KubeApi api;
  private final EventRecorder events;
  private final String apiVersion;
  private final String kind;
  private final Duration zeroWeightGrace;

  /**
   * Creates the router.
   *
   * @param api the API facade
   * @param events the event recorder
   * @param apiVersion the Mapping {@code apiVersion}, see {@link
   *     RouterApiVersions#mappingApiVersion()}
   * @param kind the Mapping kind, see {@link RouterApiVersions#mappingKind()}
   * @param zeroWeightGrace how long a canary Mapping stays at weight 0 before it is deleted (waited
   *     on a Vert.x timer of the caller's context)
   */
  public AmbassadorTrafficRouter(
      KubeApi api, EventRecorder events, String apiVersion, String kind, Duration zeroWeightGrace) {
    this.api = api;
    this.events = events;
    this.apiVersion = apiVersion;
    this.kind = kind;
    this.zeroWeightGrace = zeroWeightGrace;
  }

  @Override
  public String type() {
    return "Ambassador";
  }

  /**
   * Returns the canary Mapping name of a stable Mapping: {@code <mapping>-canary}, the stable name
   * cut to 246 characters.
   *
   * @param mapping the stable Mapping name
   * @return the canary Mapping name
   */
  public static String canaryMappingName(String mapping) {
    return (mapping.length() > MAX_BASE_NAME ? mapping.substring(0, MAX_BASE_NAME) : mapping)
        + "-canary";
  }

  @Override
  public Future<Void> setWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    AmbassadorTrafficRouting ambassador = req.trafficRouting().getAmbassador();
    List<String> mappings = ambassador.getMappings() == null ? List.of() : ambassador.getMappings();
    if (mappings.isEmpty()) {
      return Future.failedFuture(
          "trafficRouting.ambassador.mappings must name at least one Mapping");
    }
    List<Future<Boolean>> each = new ArrayList<>();
    for (String mapping : mappings) {
      each.add(syncCanaryMapping(req, mapping, desiredWeight));
    }
    return Future.join(each)
        .transform(
            ar -> {
              boolean changed = false;
              List<String> errors = new ArrayList<>();
              for (Future<Boolean> f : each) {
                if (f.failed()) {
                  errors.add(f.cause().getMessage());
                } else {
                  changed |= f.result();
                }
              }
              if (changed) {
                events.normal(
                    req.rollout(), WEIGHT_UPDATE, "Set canary mapping weight to " + desiredWeight);
              }
              if (errors.isEmpty()) {
                return Future.<Void>succeededFuture();
              }
              return Future.<Void>failedFuture(
                  errors.size() == 1
                      ? errors.get(0)
                      : errors.size() + " errors found: [" + String.join("][", errors) + "]");
            });
  }

  /**
   * Creates, updates or deletes the canary Mapping of one stable Mapping; completes with whether it
   * wrote.
   */
  private Future<Boolean> syncCanaryMapping(TrafficRequest req, String mapping, int weight) {
    String canaryName = canaryMappingName(mapping);
    return api.getGeneric(apiVersion, kind, req.namespace(), canaryName)
        .compose(
            canary -> {
              if (canary == null) {
                return weight == 0
                    ? Future.succeededFuture(false)
                    : create(req, mapping, canaryName, weight);
              }
              if (controlledByOther(canary, req.rollout())) {
                return Future.failedFuture(
                    "canary Mapping `" + canaryName + "` is controlled by another object");
              }
              int have = mappingWeight(JSON.valueToTree(canary));
              if (weight == 0) {
                if (have == 0) {
                  // Already at 0 since an earlier pass (a deletion that failed or was interrupted):
                  // delete now.
                  return delete(req, canaryName).map(true);
                }
                return update(req, canary, 0)
                    .compose(v -> grace())
                    .compose(v -> delete(req, canaryName))
                    .map(true);
              }
              return have == weight
                  ? Future.succeededFuture(false)
                  : update(req, canary, weight).map(true);
            });
  }

  private Future<Boolean> create(
      TrafficRequest req, String mapping, String canaryName, int weight) {
    Rollout rollout = req.rollout();
    return api.getGeneric(apiVersion, kind, req.namespace(), mapping)
        .compose(
            base -> {
              if (base == null) {
                String msg = "Ambassador mapping \"" + mapping + "\" not found";
                events.warning(rollout, NOT_FOUND, msg);
                return Future.failedFuture(msg);
              }
              GenericKubernetesResource desired;
              try {
                desired =
                    canaryMapping(
                        JSON.valueToTree(base),
                        canaryName,
                        req.canaryService(),
                        req.stableService(),
                        weight);
              } catch (IllegalArgumentException e) {
                events.warning(rollout, CONFIG_ERROR, e.getMessage());
                return Future.failedFuture(e.getMessage());
              }
              desired.setApiVersion(apiVersion);
              desired.setKind(kind);
              desired.getMetadata().setNamespace(req.namespace());
              desired.getMetadata().setOwnerReferences(List.of(Owners.controllerRef(rollout)));
              LOG.info(
                  "{} creating canary Mapping {} from {} with weight {}",
                  req.ctx(),
                  canaryName,
                  mapping,
                  weight);
              return api.createGeneric(desired)
                  .onFailure(
                      err ->
                          events.warning(
                              rollout,
                              CREATION_ERROR,
                              "Error creating canary mapping: " + err.getMessage()))
                  .map(true);
            });
  }

  /**
   * Builds a canary Mapping from its stable Mapping (pure; exposed for unit tests): name, the
   * stable {@code spec} with {@code service} pointed at the canary Service and {@code weight} set;
   * no other metadata.
   *
   * @param base the stable Mapping as JSON
   * @param canaryName the canary Mapping name
   * @param canaryService {@code spec.strategy.canary.canaryService}
   * @param stableService {@code spec.strategy.canary.stableService}
   * @param weight the canary weight, 1 to 100
   * @return the canary Mapping, without apiVersion, kind, namespace and owner
   * @throws IllegalArgumentException when the stable Mapping sets {@code weight} or its {@code
   *     service} does not contain {@code stableService}
   */
  static GenericKubernetesResource canaryMapping(
      JsonNode base, String canaryName, String canaryService, String stableService, int weight) {
    String name = base.path("metadata").path("name").asText();
    if (mappingWeight(base) != 0) {
      throw new IllegalArgumentException(
          "Ambassador mapping \"" + name + "\" can not define weight");
    }
    String service = base.path("spec").path("service").asText("");
    int at = stableService == null || stableService.isEmpty() ? -1 : service.indexOf(stableService);
    if (at < 0) {
      throw new IllegalArgumentException(
          "Ambassador mapping \""
              + name
              + "\" spec.service \""
              + service
              + "\" does not name the stable Service \""
              + stableService
              + "\"");
    }
    ObjectNode spec = ((ObjectNode) base.path("spec")).deepCopy();
    spec.put(
        "service",
        service.substring(0, at) + canaryService + service.substring(at + stableService.length()));
    spec.put("weight", weight);
    GenericKubernetesResource canary = new GenericKubernetesResource();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(canaryName);
    canary.setMetadata(meta);
    canary.setAdditionalProperty("spec", JSON.convertValue(spec, Map.class));
    return canary;
  }

  /** {@code spec.weight} of a Mapping, 0 when absent or not an integer. */
  static int mappingWeight(JsonNode mapping) {
    JsonNode w = mapping.path("spec").path("weight");
    return w.isIntegralNumber() ? w.asInt() : 0;
  }

  private Future<Void> update(TrafficRequest req, GenericKubernetesResource canary, int weight) {
    String name = canary.getMetadata().getName();
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("metadata").put("resourceVersion", canary.getMetadata().getResourceVersion());
    patch.putObject("spec").put("weight", weight);
    LOG.info("{} updating canary Mapping {} to weight {}", req.ctx(), name, weight);
    return api.patchGeneric(apiVersion, kind, req.namespace(), name, patch.toString())
        .onFailure(
            err ->
                events.warning(
                    req.rollout(),
                    UPDATE_ERROR,
                    "Error updating canary mapping \"" + name + "\": " + err.getMessage()))
        .mapEmpty();
  }

  /**
   * Waits {@link #zeroWeightGrace} on a timer of the caller's context (at once off a context or
   * with no grace).
   */
  private Future<Void> grace() {
    Context ctx = Vertx.currentContext();
    if (ctx == null || zeroWeightGrace.isZero()) {
      return Future.succeededFuture();
    }
    return ctx.owner().timer(zeroWeightGrace.toMillis(), TimeUnit.MILLISECONDS).mapEmpty();
  }

  /**
   * Deletes a canary Mapping; a failure is reported as an event and retried by a later pass, as
   * Argo does.
   */
  private Future<Void> delete(TrafficRequest req, String name) {
    LOG.info("{} deleting canary Mapping {}: weight back to 0", req.ctx(), name);
    return api.deleteGeneric(apiVersion, kind, req.namespace(), name)
        .recover(
            err -> {
              LOG.warn(
                  "{} deleting canary Mapping {} failed: {}", req.ctx(), name, err.getMessage());
              events.warning(
                  req.rollout(),
                  CLEANUP_ERROR,
                  "Error deleting canary mapping \"" + name + "\": " + err.getMessage());
              return Future.succeededFuture();
            });
  }

  private static boolean controlledByOther(GenericKubernetesResource obj, Rollout rollout) {
    if (obj.getMetadata().getOwnerReferences() == null) {
      return false;
    }
    return obj.getMetadata().getOwnerReferences().stream()
        .anyMatch(
            o ->
                Boolean.TRUE.equals(o.getController())
                    && !rollout.getMetadata().getUid().equals(o.getUid()));
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
