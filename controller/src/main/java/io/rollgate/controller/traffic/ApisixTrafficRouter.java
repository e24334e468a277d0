package io.rollgate.controller.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.rollgate.api.ApisixTrafficRouting;
import io.rollgate.api.HeaderRoutingMatch;
import io.rollgate.api.ModelJson;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.vertx.core.Future;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Apache APISIX ({@code trafficRouting.apisix}, docs/traffic-routers.md "APISIX"): weights of the
 * backends of an {@code ApisixRoute} ({@code apisix.apache.org/v2}).
 *
 * <ul>
 *   <li>Weights: in the ApisixRoute {@code apisix.route.name}, every HTTP route named in {@code
 *       apisix.route.rules} (default: the one named like the ApisixRoute) gets weight {@code w} on
 *       its {@code canaryService} backend and {@code 100 - w} on its {@code stableService} backend.
 *   <li>Header routes ({@code setHeaderRoute}): a second ApisixRoute named after the route,
 *       controlled by the Rollout, copied from the first with, in each of those HTTP routes, only
 *       the canary backend (weight 100), the priority raised by one and {@code match.exprs} from
 *       the header matches ({@code exact}: {@code Equal}; {@code regex}: {@code RegexMatch}; {@code
 *       prefix}: {@code RegexMatch ^<prefix>.*}); deleted by an empty match and on promotion or
 *       abort.
 * </ul>
 *
 * <p>Mirror routes, hashes and weight verification are not supported by APISIX and complete at
 * once.
 */
public final class ApisixTrafficRouter implements TrafficRouter {

  /** The ApisixRoute API version Argo Rollouts uses by default ({@code --apisix-api-version}). */
  public static final String API_VERSION = "apisix.apache.org/v2";

  /** The ApisixRoute kind. */
  public static final String KIND = "ApisixRoute";

  private static final Logger LOG = LoggerFactory.getLogger(ApisixTrafficRouter.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private final KubeApi api;
  private final EventRecorder events;

  /**
   * Creates the router.
   *
   * @param api the API facade
   * @param events the event recorder ({@code ApisixRouteUpdateError}, {@code
   *     ApisixRouteCreateError}, {@code ApisixRouteDeleteError})
   */
  public ApisixTrafficRouter(KubeApi api, EventRecorder events) {
    this.api = api;
    this.events = events;
  }

  @Override
  public String type() {
    return "Apisix";
  }

  private static ApisixTrafficRouting apisix(TrafficRequest req) {
    return req.trafficRouting().getApisix();
  }

  private static String routeName(TrafficRequest req) {
    var route = apisix(req).getRoute();
    if (route == null || route.getName() == null || route.getName().isEmpty()) {
      throw new IllegalArgumentException(
          "spec.strategy.canary.trafficRouting.apisix.route.name is required");
    }
    return route.getName();
  }

  /**
   * The HTTP route names to weight: {@code apisix.route.rules}, default the ApisixRoute's name.
   *
   * @param req the Rollout
   * @return the names
   */
  static List<String> rules(TrafficRequest req) {
    List<String> rules = apisix(req).getRoute().getRules();
    return rules == null ? List.of(routeName(req)) : rules;
  }

  @Override
  public Future<Void> setWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    String name;
    try {
      name = routeName(req);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e.getMessage());
    }
    return api.getGeneric(API_VERSION, KIND, req.namespace(), name)
        .compose(
            obj -> {
              if (obj == null) {
                return Future.failedFuture("ApisixRoute `" + name + "` not found");
              }
              ObjectNode json = JSON.valueToTree(obj);
              ArrayNode http;
              try {
                http = httpRoutes(json, name);
                setWeights(req, http, desiredWeight);
              } catch (IllegalArgumentException e) {
                return Future.failedFuture(e.getMessage());
              }
              if (Objects.equals(http, JSON.valueToTree(obj).path("spec").path("http"))) {
                return Future.succeededFuture();
              }
              LOG.info("{} ApisixRoute {} to canary weight {}", req.ctx(), name, desiredWeight);
              return patchHttp(req, json, http, "ApisixRouteUpdateError", "update");
            });
  }

  /**
   * Sets the canary and stable backend weights in the named HTTP routes (edits {@code http} in
   * place).
   *
   * @param req the Rollout
   * @param http {@code spec.http} of the ApisixRoute
   * @param desiredWeight the canary weight (percent)
   * @throws IllegalArgumentException when an HTTP route or a backend is missing
   */
  static void setWeights(TrafficRequest req, ArrayNode http, int desiredWeight) {
    for (String rule : rules(req)) {
      ArrayNode backends = backends(httpRoute(http, rule), rule);
      backend(backends, req.canaryService(false)).put("weight", desiredWeight);
      backend(backends, req.stableService(false)).put("weight", 100 - desiredWeight);
    }
  }

  @Override
  public Future<Void> setHeaderRoute(TrafficRequest req, SetHeaderRoute route) {
    String name;
    try {
      name = routeName(req);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e.getMessage());
    }
    boolean remove = route.getMatch() == null || route.getMatch().isEmpty();
    return api.getGeneric(API_VERSION, KIND, req.namespace(), route.getName())
        .compose(
            existing -> {
              if (existing != null && !Owners.controlledBy(existing, req.rollout())) {
                return Future.failedFuture(
                    "duplicate ApisixRoute [" + route.getName() + "] already exists");
              }
              if (remove) {
                return existing == null ? Future.succeededFuture() : delete(req, route.getName());
              }
              if (existing != null) {
                ObjectNode json = JSON.valueToTree(existing);
                ArrayNode http;
                try {
                  http = httpRoutes(json, route.getName());
                  headerRules(req, http, route, false);
                } catch (IllegalArgumentException e) {
                  return Future.failedFuture(e.getMessage());
                }
                if (Objects.equals(http, JSON.valueToTree(existing).path("spec").path("http"))) {
                  return Future.succeededFuture();
                }
                LOG.info("{} updating header ApisixRoute {}", req.ctx(), route.getName());
                return patchHttp(req, json, http, "ApisixRouteUpdateError", "update");
              }
              return api.getGeneric(API_VERSION, KIND, req.namespace(), name)
                  .compose(
                      base -> {
                        if (base == null) {
                          return Future.failedFuture("ApisixRoute `" + name + "` not found");
                        }
                        GenericKubernetesResource copy;
                        try {
                          copy = headerRouteCopy(req, base, route);
                        } catch (IllegalArgumentException e) {
                          return Future.failedFuture(e.getMessage());
                        }
                        LOG.info("{} creating header ApisixRoute {}", req.ctx(), route.getName());
                        return api.createGeneric(copy)
                            .recover(
                                err ->
                                    warn(
                                        req,
                                        "ApisixRouteCreateError",
                                        "create",
                                        route.getName(),
                                        err))
                            .mapEmpty();
                      });
            });
  }

  /**
   * The header-route ApisixRoute for a new route: the base ApisixRoute copied under the route's
   * name, controlled by the Rollout, with its weighted HTTP routes turned into header routes (pure;
   * exposed for unit tests).
   *
   * @param req the Rollout
   * @param base the ApisixRoute of {@code apisix.route.name}
   * @param route the step's route (with matches)
   * @return the object to create
   * @throws IllegalArgumentException when an HTTP route or backend is missing
   */
  static GenericKubernetesResource headerRouteCopy(
      TrafficRequest req, GenericKubernetesResource base, SetHeaderRoute route) {
    ObjectNode json = JSON.valueToTree(base);
    ObjectNode meta = JSON.createObjectNode();
    meta.put("name", route.getName());
    meta.put("namespace", req.namespace());
    JsonNode oldMeta = json.path("metadata");
    if (oldMeta.has("labels")) {
      meta.set("labels", oldMeta.get("labels"));
    }
    if (oldMeta.has("annotations")) {
      meta.set("annotations", oldMeta.get("annotations"));
    }
    meta.set("ownerReferences", JSON.valueToTree(List.of(Owners.controllerRef(req.rollout()))));
    json.set("metadata", meta);
    json.remove("status");
    headerRules(req, httpRoutes(json, route.getName()), route, true);
    return JSON.convertValue(json, GenericKubernetesResource.class);
  }

  /** Turns the weighted HTTP routes of {@code http} into header routes to the canary (in place). */
  private static void headerRules(
      TrafficRequest req, ArrayNode http, SetHeaderRoute route, boolean isNew) {
    String stable = req.stableService(false);
    for (String rule : rules(req)) {
      ObjectNode r = httpRoute(http, rule);
      ArrayNode backends = backends(r, rule);
      backend(backends, req.canaryService(false)).put("weight", 100);
      for (Iterator<JsonNode> it = backends.iterator(); it.hasNext(); ) {
        if (stable != null && stable.equals(it.next().path("serviceName").asText(null))) {
          it.remove();
        }
      }
      if (isNew) {
        r.put("priority", r.path("priority").asLong(0) + 1);
      }
      ObjectNode match =
          r.has("match") && r.get("match").isObject()
              ? (ObjectNode) r.get("match")
              : r.putObject("match");
      match.set("exprs", exprs(route));
    }
  }

  /**
   * The {@code match.exprs} of a header route: per header match an {@code Equal} expression for
   * {@code exact}, a {@code RegexMatch} for {@code regex}, and a {@code RegexMatch} on {@code
   * ^<prefix>.*} for {@code prefix}.
   *
   * @param route the step's route
   * @return the expressions
   */
  static ArrayNode exprs(SetHeaderRoute route) {
    ArrayNode out = JSON.createArrayNode();
    for (HeaderRoutingMatch m : route.getMatch()) {
      if (m.getHeaderValue() == null) {
        continue;
      }
      if (notEmpty(m.getHeaderValue().getExact())) {
        expr(out, m.getHeaderName(), "Equal", m.getHeaderValue().getExact());
      }
      if (notEmpty(m.getHeaderValue().getRegex())) {
        expr(out, m.getHeaderName(), "RegexMatch", m.getHeaderValue().getRegex());
      }
      if (notEmpty(m.getHeaderValue().getPrefix())) {
        expr(out, m.getHeaderName(), "RegexMatch", "^" + m.getHeaderValue().getPrefix() + ".*");
      }
    }
    return out;
  }

  private static void expr(ArrayNode out, String header, String op, String value) {
    ObjectNode e = out.addObject();
    ObjectNode subject = e.putObject("subject");
    subject.put("scope", "Header");
    subject.put("name", header);
    e.put("op", op);
    e.put("value", value);
  }

  private static boolean notEmpty(String s) {
    return s != null && !s.isEmpty();
  }

  @Override
  public Future<Void> removeManagedRoutes(TrafficRequest req) {
    Future<Void> chain = Future.succeededFuture();
    for (String name : req.managedRoutes()) {
      chain =
          chain.compose(
              v ->
                  api.getGeneric(API_VERSION, KIND, req.namespace(), name)
                      .compose(
                          obj ->
                              obj != null && Owners.controlledBy(obj, req.rollout())
                                  ? delete(req, name)
                                  : Future.succeededFuture()));
    }
    return chain;
  }

  private Future<Void> delete(TrafficRequest req, String name) {
    LOG.info("{} deleting header ApisixRoute {}", req.ctx(), name);
    return api.deleteGeneric(API_VERSION, KIND, req.namespace(), name)
        .recover(err -> warn(req, "ApisixRouteDeleteError", "delete", name, err));
  }

  private Future<Void> patchHttp(
      TrafficRequest req, ObjectNode json, ArrayNode http, String reason, String verb) {
    String name = json.path("metadata").path("name").asText();
    ObjectNode patch = JSON.createObjectNode();
    patch
        .putObject("metadata")
        .put("resourceVersion", json.path("metadata").path("resourceVersion").asText());
    patch.putObject("spec").set("http", http);
    return api.patchGeneric(API_VERSION, KIND, req.namespace(), name, patch.toString())
        .recover(err -> warn(req, reason, verb, name, err))
        .mapEmpty();
  }

  private <T> Future<T> warn(
      TrafficRequest req, String reason, String verb, String name, Throwable err) {
    String msg = "Error " + verb + " apisix route \"" + name + "\": " + err.getMessage();
    events.warning(req.rollout(), reason, msg);
    return Future.failedFuture(msg);
  }

  private static ArrayNode httpRoutes(ObjectNode json, String name) {
    JsonNode http = json.path("spec").path("http");
    if (!http.isArray()) {
      throw new IllegalArgumentException("ApisixRoute `" + name + "`: spec.http was not found");
    }
    return (ArrayNode) http;
  }

  private static ObjectNode httpRoute(ArrayNode http, String rule) {
    for (JsonNode r : http) {
      if (rule.equals(r.path("name").asText(null)) && r.isObject()) {
        return (ObjectNode) r;
      }
    }
    throw new IllegalArgumentException("Apisix http route rule " + rule + " not found");
  }

  private static ArrayNode backends(ObjectNode route, String rule) {
    JsonNode b = route.path("backends");
    if (!b.isArray()) {
      throw new IllegalArgumentException("Apisix http route rule " + rule + ": backends not found");
    }
    return (ArrayNode) b;
  }

  private static ObjectNode backend(ArrayNode backends, String service) {
    for (JsonNode b : backends) {
      if (service != null && service.equals(b.path("serviceName").asText(null)) && b.isObject()) {
        return (ObjectNode) b;
      }
    }
    throw new IllegalArgumentException("apisix route " + service + " backend was not found");
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
  public Future<Void> setMirrorRoute(TrafficRequest req, SetMirrorRoute route) {
    return Future.succeededFuture();
  }

  @Override
  public Future<WeightVerification> verifyWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    return Future.succeededFuture(WeightVerification.NOT_IMPLEMENTED);
  }
}
