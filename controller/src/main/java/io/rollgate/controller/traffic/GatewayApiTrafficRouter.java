package io.rollgate.controller.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.HeaderRoutingMatch;
import io.rollgate.api.ModelJson;
import io.rollgate.api.RouteMatch;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.StringMatch;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.kube.KubeApi;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gateway API, built in under the plugin name of the Argo Rollouts Gateway API plugin ({@code
 * trafficRouting.plugins["argoproj-labs/gatewayAPI"]}, config {@code httpRoute | httpRoutes[{name,
 * useHeaderRoutes}] | grpcRoute | grpcRoutes[{name}] | tcpRoute | tcpRoutes[{name}]}, optional
 * {@code namespace}).
 *
 * <p>Weights: in every rule of each route that has backendRefs to both {@code canaryService} and
 * {@code stableService}, the canary backendRef gets the weight and the stable one {@code W -
 * weight}. Gateway API weights are relative, so {@code maxTrafficWeight} works as the total.
 *
 * <p>Managed routes (HTTPRoute only): {@code setHeaderRoute} adds, for every rule that routes to
 * the canary, a rule with the same matches plus the header matches (exact as {@code Exact}, regex
 * and prefix as {@code RegularExpression}) sending everything to the canary; {@code setMirrorRoute}
 * adds a rule with the step's matches, the weighted backends and a {@code RequestMirror} filter to
 * the canary. Managed rules are kept at the top of {@code spec.rules} in {@code managedRoutes}
 * order; the annotation {@value #MANAGED_ANNOTATION} records how many rules each managed route
 * owns, so they are found and removed again without touching the user's rules.
 */
public final class GatewayApiTrafficRouter implements TrafficRouter {

  /** The plugin name this router answers to. */
  public static final String PLUGIN_NAME = "argoproj-labs/gatewayAPI";

  /**
   * Annotation on an HTTPRoute: JSON object, managed route name to the number of rules it owns at
   * the top.
   */
  public static final String MANAGED_ANNOTATION = "rollgate.io/managed-routes";

  private static final String GROUP = "gateway.networking.k8s.io";
  private static final Logger LOG = LoggerFactory.getLogger(GatewayApiTrafficRouter.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private record RouteRef(String apiVersion, String kind, String name, boolean headerRoutes) {}

  private final KubeApi api;

  /**
   * Creates the router.
   *
   * @param api the API facade
   */
  public GatewayApiTrafficRouter(KubeApi api) {
    this.api = api;
  }

  @Override
  public String type() {
    return "GatewayAPI";
  }

  private static JsonNode config(TrafficRequest req) {
    Map<String, JsonNode> plugins = req.trafficRouting().getPlugins();
    JsonNode c = plugins == null ? null : plugins.get(PLUGIN_NAME);
    return c == null ? JSON.createObjectNode() : c;
  }

  private static String namespace(TrafficRequest req) {
    String ns = config(req).path("namespace").asText("");
    return ns.isEmpty() ? req.namespace() : ns;
  }

  private static List<RouteRef> routes(TrafficRequest req) {
    JsonNode c = config(req);
    List<RouteRef> refs = new ArrayList<>();
    add(refs, c, "httpRoute", "httpRoutes", GROUP + "/v1", "HTTPRoute");
    add(refs, c, "grpcRoute", "grpcRoutes", GROUP + "/v1", "GRPCRoute");
    add(refs, c, "tcpRoute", "tcpRoutes", GROUP + "/v1alpha2", "TCPRoute");
    return refs;
  }

  private static void add(
      List<RouteRef> refs, JsonNode c, String single, String many, String apiVersion, String kind) {
    if (c.hasNonNull(single)) {
      refs.add(new RouteRef(apiVersion, kind, c.get(single).asText(), "HTTPRoute".equals(kind)));
    }
    for (JsonNode n : c.path(many)) {
      boolean header = "HTTPRoute".equals(kind) && n.path("useHeaderRoutes").asBoolean(false);
      refs.add(
          new RouteRef(
              apiVersion, kind, n.isTextual() ? n.asText() : n.path("name").asText(), header));
    }
  }

  private Future<List<RouteRef>> checkedRoutes(TrafficRequest req) {
    List<RouteRef> refs = routes(req);
    if (refs.isEmpty()) {
      return Future.failedFuture(
          "plugin "
              + PLUGIN_NAME
              + " needs one of httpRoute, httpRoutes, grpcRoute, grpcRoutes, tcpRoute, tcpRoutes");
    }
    return Future.succeededFuture(refs);
  }

  /**
   * Reads a route, applies {@code edit} to a copy of it, and patches {@code spec.rules} (and the
   * annotation) when changed.
   */
  private Future<Void> edit(
      TrafficRequest req,
      RouteRef ref,
      java.util.function.BiFunction<ObjectNode, ArrayNode, String> edit) {
    String ns = namespace(req);
    return api.getGeneric(ref.apiVersion(), ref.kind(), ns, ref.name())
        .compose(
            res -> {
              if (res == null) {
                return Future.failedFuture(
                    ref.kind() + " `" + ref.name() + "` not found in namespace " + ns);
              }
              ObjectNode obj = JSON.valueToTree(res);
              ArrayNode rules =
                  obj.path("spec").path("rules").isArray()
                      ? ((ArrayNode) obj.path("spec").path("rules")).deepCopy()
                      : JSON.createArrayNode();
              String oldAnnotation =
                  obj.path("metadata").path("annotations").path(MANAGED_ANNOTATION).asText(null);
              JsonNode oldRules = obj.path("spec").path("rules").deepCopy();
              String annotation;
              try {
                annotation = edit.apply(obj, rules);
              } catch (IllegalArgumentException e) {
                return Future.failedFuture(e.getMessage());
              }
              boolean sameAnnotation =
                  annotation == null ? oldAnnotation == null : annotation.equals(oldAnnotation);
              if (rules.equals(oldRules) && sameAnnotation) {
                return Future.succeededFuture();
              }
              ObjectNode patch = JSON.createObjectNode();
              ObjectNode meta = patch.putObject("metadata");
              meta.put("resourceVersion", res.getMetadata().getResourceVersion());
              if (!sameAnnotation) {
                ObjectNode ann = meta.putObject("annotations");
                if (annotation == null) {
                  ann.putNull(MANAGED_ANNOTATION);
                } else {
                  ann.put(MANAGED_ANNOTATION, annotation);
                }
              }
              patch.putObject("spec").set("rules", rules);
              LOG.info("{} updating {} {}", req.ctx(), ref.kind(), ref.name());
              return api.patchGeneric(
                      ref.apiVersion(), ref.kind(), ns, ref.name(), patch.toString())
                  .mapEmpty();
            });
  }

  @Override
  public Future<Void> setWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    int extra = 0;
    for (WeightDestination d : additional) {
      extra += d.getWeight() == null ? 0 : d.getWeight();
    }
    int stableWeight = Math.max(0, req.maxWeight() - desiredWeight - extra);
    return checkedRoutes(req)
        .compose(
            refs -> {
              Future<Void> chain = Future.succeededFuture();
              for (RouteRef ref : refs) {
                chain =
                    chain.compose(
                        v ->
                            edit(
                                req,
                                ref,
                                (obj, rules) -> {
                                  boolean found = false;
                                  for (JsonNode rule : rules) {
                                    ObjectNode canary = backendRef(rule, req.canaryService());
                                    ObjectNode stable = backendRef(rule, req.stableService());
                                    if (canary != null && stable != null) {
                                      canary.put("weight", desiredWeight);
                                      stable.put("weight", stableWeight);
                                      found = true;
                                    }
                                  }
                                  if (!found) {
                                    throw new IllegalArgumentException(
                                        ref.kind()
                                            + " `"
                                            + ref.name()
                                            + "` has no rule with backendRefs to both "
                                            + req.canaryService()
                                            + " and "
                                            + req.stableService());
                                  }
                                  return obj.path("metadata")
                                      .path("annotations")
                                      .path(MANAGED_ANNOTATION)
                                      .asText(null);
                                }));
              }
              return chain;
            });
  }

  private static ObjectNode backendRef(JsonNode rule, String service) {
    for (JsonNode ref : rule.path("backendRefs")) {
      if (isService(ref, service)) {
        return (ObjectNode) ref;
      }
    }
    return null;
  }

  private static boolean isService(JsonNode ref, String service) {
    return service != null
        && service.equals(ref.path("name").asText())
        && "Service".equals(ref.path("kind").asText("Service"));
  }

  /** The managed rules recorded on a route: name to count, in stored order. */
  private static LinkedHashMap<String, Integer> managed(ObjectNode obj) {
    LinkedHashMap<String, Integer> m = new LinkedHashMap<>();
    String a = obj.path("metadata").path("annotations").path(MANAGED_ANNOTATION).asText(null);
    if (a == null || a.isEmpty()) {
      return m;
    }
    try {
      JsonNode n = JSON.readTree(a);
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        m.put(e.getKey(), e.getValue().asInt());
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(
          "annotation " + MANAGED_ANNOTATION + " is not valid JSON: " + e.getOriginalMessage());
    }
    return m;
  }

  /**
   * Replaces the rules of one managed route (none to remove it), keeping every managed route at the
   * top in {@code managedRoutes} order; returns the new annotation value (null when no managed rule
   * is left).
   */
  private static String replaceManaged(
      TrafficRequest req, ObjectNode obj, ArrayNode rules, String name, List<ObjectNode> newRules) {
    LinkedHashMap<String, Integer> counts = managed(obj);
    int total = counts.values().stream().mapToInt(Integer::intValue).sum();
    if (total > rules.size()) {
      throw new IllegalArgumentException(
          "annotation " + MANAGED_ANNOTATION + " counts more rules than the route has");
    }
    Map<String, List<JsonNode>> byName = new LinkedHashMap<>();
    int i = 0;
    for (Map.Entry<String, Integer> e : counts.entrySet()) {
      List<JsonNode> own = new ArrayList<>();
      for (int k = 0; k < e.getValue(); k++) {
        own.add(rules.get(i++));
      }
      byName.put(e.getKey(), own);
    }
    List<JsonNode> user = new ArrayList<>();
    for (; i < rules.size(); i++) {
      user.add(rules.get(i));
    }
    byName.remove(name);
    if (newRules != null && !newRules.isEmpty()) {
      byName.put(name, new ArrayList<>(newRules));
    }
    rules.removeAll();
    ObjectNode annotation = JSON.createObjectNode();
    List<String> order = new ArrayList<>(req.managedRoutes());
    for (String n : byName.keySet()) {
      if (!order.contains(n)) {
        order.add(n);
      }
    }
    for (String n : order) {
      List<JsonNode> own = byName.get(n);
      if (own != null) {
        own.forEach(rules::add);
        annotation.put(n, own.size());
      }
    }
    user.forEach(rules::add);
    return annotation.isEmpty() ? null : annotation.toString();
  }

  /** The user's rules (after the managed ones). */
  private static List<JsonNode> userRules(ObjectNode obj, ArrayNode rules) {
    int skip = managed(obj).values().stream().mapToInt(Integer::intValue).sum();
    List<JsonNode> user = new ArrayList<>();
    for (int i = skip; i < rules.size(); i++) {
      user.add(rules.get(i));
    }
    return user;
  }

  @Override
  public Future<Void> setHeaderRoute(TrafficRequest req, SetHeaderRoute route) {
    return checkedRoutes(req)
        .compose(
            refs -> {
              Future<Void> chain = Future.succeededFuture();
              for (RouteRef ref : refs) {
                if (!ref.headerRoutes()) {
                  continue;
                }
                chain =
                    chain.compose(
                        v ->
                            edit(
                                req,
                                ref,
                                (obj, rules) -> {
                                  List<ObjectNode> generated = new ArrayList<>();
                                  if (route.getMatch() != null && !route.getMatch().isEmpty()) {
                                    for (JsonNode rule : userRules(obj, rules)) {
                                      ObjectNode canary = backendRef(rule, req.canaryService());
                                      if (canary == null) {
                                        continue;
                                      }
                                      generated.add(headerRule(rule, canary, route.getMatch()));
                                    }
                                  }
                                  return replaceManaged(
                                      req, obj, rules, route.getName(), generated);
                                }));
              }
              return chain;
            });
  }

  private static ObjectNode headerRule(
      JsonNode rule, ObjectNode canary, List<HeaderRoutingMatch> match) {
    ObjectNode out = JSON.createObjectNode();
    ArrayNode matches = out.putArray("matches");
    List<JsonNode> base = new ArrayList<>();
    rule.path("matches").forEach(base::add);
    if (base.isEmpty()) {
      base.add(JSON.createObjectNode());
    }
    for (JsonNode m : base) {
      ObjectNode copy = m.deepCopy();
      ArrayNode headers =
          copy.has("headers") ? (ArrayNode) copy.get("headers") : copy.putArray("headers");
      for (HeaderRoutingMatch h : match) {
        headers.add(headerMatch(h.getHeaderName(), h.getHeaderValue()));
      }
      matches.add(copy);
    }
    ObjectNode ref = canary.deepCopy();
    ref.remove("weight");
    out.putArray("backendRefs").add(ref);
    return out;
  }

  private static ObjectNode headerMatch(String name, StringMatch v) {
    ObjectNode h = JSON.createObjectNode();
    if (v != null && v.getExact() != null) {
      h.put("type", "Exact").put("name", name).put("value", v.getExact());
    } else if (v != null && v.getRegex() != null) {
      h.put("type", "RegularExpression").put("name", name).put("value", v.getRegex());
    } else if (v != null && v.getPrefix() != null) {
      h.put("type", "RegularExpression")
          .put("name", name)
          .put("value", "^" + escapeRegex(v.getPrefix()) + ".*");
    } else {
      throw new IllegalArgumentException(
          "header match for " + name + " needs one of exact, regex, prefix");
    }
    return h;
  }

  static String escapeRegex(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      if ("\\.^$|?*+()[]{}".indexOf(c) >= 0) {
        b.append('\\');
      }
      b.append(c);
    }
    return b.toString();
  }

  @Override
  public Future<Void> setMirrorRoute(TrafficRequest req, SetMirrorRoute route) {
    return checkedRoutes(req)
        .compose(
            refs -> {
              Future<Void> chain = Future.succeededFuture();
              for (RouteRef ref : refs) {
                if (!"HTTPRoute".equals(ref.kind())) {
                  continue;
                }
                chain =
                    chain.compose(
                        v ->
                            edit(
                                req,
                                ref,
                                (obj, rules) -> {
                                  List<ObjectNode> generated = new ArrayList<>();
                                  if (route.getMatch() != null && !route.getMatch().isEmpty()) {
                                    for (JsonNode rule : userRules(obj, rules)) {
                                      ObjectNode canary = backendRef(rule, req.canaryService());
                                      if (canary != null
                                          && backendRef(rule, req.stableService()) != null) {
                                        generated.add(mirrorRule(rule, canary, route));
                                      }
                                    }
                                  }
                                  return replaceManaged(
                                      req, obj, rules, route.getName(), generated);
                                }));
              }
              return chain;
            });
  }

  private static ObjectNode mirrorRule(JsonNode rule, ObjectNode canary, SetMirrorRoute route) {
    ObjectNode out = JSON.createObjectNode();
    ArrayNode matches = out.putArray("matches");
    for (RouteMatch m : route.getMatch()) {
      ObjectNode gm = matches.addObject();
      if (m.getPath() != null) {
        StringMatch p = m.getPath();
        ObjectNode path = gm.putObject("path");
        if (p.getExact() != null) {
          path.put("type", "Exact").put("value", p.getExact());
        } else if (p.getPrefix() != null) {
          path.put("type", "PathPrefix").put("value", p.getPrefix());
        } else if (p.getRegex() != null) {
          path.put("type", "RegularExpression").put("value", p.getRegex());
        }
      }
      if (m.getMethod() != null) {
        if (m.getMethod().getExact() == null) {
          throw new IllegalArgumentException(
              "Gateway API matches methods exactly: setMirrorRoute " + route.getName());
        }
        gm.put("method", m.getMethod().getExact());
      }
      if (m.getHeaders() != null) {
        ArrayNode headers = gm.putArray("headers");
        m.getHeaders().forEach((k, v) -> headers.add(headerMatch(k, v)));
      }
    }
    out.set("backendRefs", rule.path("backendRefs").deepCopy());
    ObjectNode filter = out.putArray("filters").addObject();
    filter.put("type", "RequestMirror");
    ObjectNode mirror = filter.putObject("requestMirror");
    ObjectNode target = canary.deepCopy();
    target.remove("weight");
    mirror.set("backendRef", target);
    int percent = route.getPercentage() == null ? 100 : route.getPercentage();
    if (percent != 100) {
      mirror.put("percent", percent);
    }
    return out;
  }

  @Override
  public Future<Void> removeManagedRoutes(TrafficRequest req) {
    return checkedRoutes(req)
        .compose(
            refs -> {
              Future<Void> chain = Future.succeededFuture();
              for (RouteRef ref : refs) {
                if (!"HTTPRoute".equals(ref.kind())) {
                  continue;
                }
                chain =
                    chain.compose(
                        v ->
                            edit(
                                req,
                                ref,
                                (obj, rules) -> {
                                  String annotation = null;
                                  for (String name : new ArrayList<>(managed(obj).keySet())) {
                                    annotation = replaceManaged(req, obj, rules, name, null);
                                    obj.with("metadata")
                                        .with("annotations")
                                        .put(
                                            MANAGED_ANNOTATION,
                                            annotation == null ? "" : annotation);
                                  }
                                  return annotation == null && managed(obj).isEmpty()
                                      ? null
                                      : annotation;
                                }));
              }
              return chain;
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
  public Future<WeightVerification> verifyWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    return Future.succeededFuture(WeightVerification.NOT_IMPLEMENTED);
  }
}
