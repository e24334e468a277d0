package io.rollgate.controller.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.Annotations;
import io.rollgate.api.HeaderRoutingMatch;
import io.rollgate.api.IstioDestinationRule;
import io.rollgate.api.IstioTrafficRouting;
import io.rollgate.api.IstioVirtualService;
import io.rollgate.api.Labels;
import io.rollgate.api.ModelJson;
import io.rollgate.api.RouteMatch;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.StringMatch;
import io.rollgate.api.TCPRoute;
import io.rollgate.api.TLSRoute;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.kube.KubeApiException;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Istio ({@code trafficRouting.istio}, docs/compatibility.md §11.1): VirtualService weights,
 * host-based (destinations named by {@code canaryService}/{@code stableService}, compared on the
 * host's first DNS label) or subset-based (a DestinationRule whose canary and stable subsets carry
 * the {@code rollouts-pod-template-hash} label).
 *
 * <p>For every selected HTTP route (named in {@code routes}, or the only route outside
 * managedRoutes), every TLS route matching a {@code tlsRoutes} entry (port and SNI host set) and
 * every TCP route matching a {@code tcpRoutes} port, the canary destination gets the weight and the
 * stable one {@code 100 - weight - additional}; other destinations are removed, so the weights of
 * each route always sum to 100. Managed mirror routes get the same weights. Header routes send
 * matching requests to the canary; mirror routes copy matching requests to it; both are kept at the
 * top of {@code spec.http} in {@code managedRoutes} order.
 */
public final class IstioTrafficRouter implements TrafficRouter {

  private static final Logger LOG = LoggerFactory.getLogger(IstioTrafficRouter.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private final KubeApi api;
  private final EventRecorder events;
  private final String apiVersion;

  /**
   * Creates the router.
   *
   * @param api the API facade
   * @param events the event recorder ({@code Updated VirtualService}, {@code
   *     UpdatedDestinationRule})
   * @param version the {@code networking.istio.io} version (Argo's {@code --istio-api-version},
   *     default v1alpha3)
   */
  public IstioTrafficRouter(KubeApi api, EventRecorder events, String version) {
    this.api = api;
    this.events = events;
    this.apiVersion = "networking.istio.io/" + version;
  }

  @Override
  public String type() {
    return "Istio";
  }

  /**
   * After an abort the DestinationRule's canary subset selects the stable hash, as the canary
   * Service does.
   */
  @Override
  public boolean canaryFollowsStableOnAbort() {
    return true;
  }

  private static IstioTrafficRouting istio(TrafficRequest req) {
    return req.trafficRouting().getIstio();
  }

  private static List<IstioVirtualService> virtualServices(TrafficRequest req) {
    List<IstioVirtualService> list = new ArrayList<>();
    if (istio(req).getVirtualService() != null) {
      list.add(istio(req).getVirtualService());
    }
    if (istio(req).getVirtualServices() != null) {
      list.addAll(istio(req).getVirtualServices());
    }
    return list;
  }

  /**
   * {@code name} or {@code name.namespace} (a {@code .svc.cluster.local} or {@code .cluster.local}
   * suffix dropped).
   */
  static String[] nameAndNamespace(String ref, String defaultNamespace) {
    String s = ref;
    for (String suffix : new String[] {".svc.cluster.local", ".cluster.local"}) {
      if (s.endsWith(suffix)) {
        s = s.substring(0, s.length() - suffix.length());
        break;
      }
    }
    int dot = s.lastIndexOf('.');
    return dot < 0
        ? new String[] {s, defaultNamespace}
        : new String[] {s.substring(0, dot), s.substring(dot + 1)};
  }

  /** The destination roles of one pass: hosts or subsets, and the weights. */
  private record Targets(
      String canaryHost,
      String stableHost,
      String canarySubset,
      String stableSubset,
      Set<String> keepSubsets) {
    boolean isCanary(JsonNode dest) {
      return canarySubset != null
          ? canarySubset.equals(dest.path("subset").asText(null))
          : canaryHost.equals(firstLabel(dest));
    }

    boolean isStable(JsonNode dest) {
      return stableSubset != null
          ? stableSubset.equals(dest.path("subset").asText(null))
          : stableHost.equals(firstLabel(dest));
    }
  }

  private static String firstLabel(JsonNode dest) {
    String host = dest.path("host").asText("");
    int dot = host.indexOf('.');
    return dot < 0 ? host : host.substring(0, dot);
  }

  private static Targets targets(TrafficRequest req) {
    IstioDestinationRule dr = istio(req).getDestinationRule();
    if (dr != null) {
      Set<String> keep = new HashSet<>();
      if (dr.getAdditionalSubsetNames() != null) {
        keep.addAll(dr.getAdditionalSubsetNames());
      }
      return new Targets(null, null, dr.getCanarySubsetName(), dr.getStableSubsetName(), keep);
    }
    return new Targets(req.canaryService(false), req.stableService(false), null, null, Set.of());
  }

  /**
   * Reads a VirtualService, lets {@code edit} change its spec copy, and patches the spec when it
   * changed.
   */
  private Future<Void> editVirtualService(
      TrafficRequest req,
      IstioVirtualService vs,
      String what,
      BiConsumer<IstioVirtualService, ObjectNode> edit) {
    String[] nn = nameAndNamespace(vs.getName(), req.namespace());
    return api.getGeneric(apiVersion, "VirtualService", nn[1], nn[0])
        .compose(
            res -> {
              if (res == null) {
                events.warning(
                    req.rollout(),
                    "VirtualServiceNotFound",
                    "VirtualService `" + vs.getName() + "` not found");
                return Future.failedFuture("VirtualService `" + vs.getName() + "` not found");
              }
              ObjectNode obj = JSON.valueToTree(res);
              JsonNode before = obj.path("spec").deepCopy();
              ObjectNode spec =
                  obj.path("spec").isObject()
                      ? ((ObjectNode) obj.path("spec")).deepCopy()
                      : JSON.createObjectNode();
              try {
                edit.accept(vs, spec);
                reorderManaged(req, spec);
              } catch (IllegalArgumentException e) {
                return Future.failedFuture(e.getMessage());
              }
              if (spec.equals(before)) {
                return Future.succeededFuture();
              }
              ObjectNode patch = JSON.createObjectNode();
              patch
                  .putObject("metadata")
                  .put("resourceVersion", res.getMetadata().getResourceVersion());
              ObjectNode ps = patch.putObject("spec");
              for (String key : new String[] {"http", "tls", "tcp"}) {
                if (spec.has(key)) {
                  ps.set(key, spec.get(key));
                }
              }
              LOG.info("{} updating VirtualService {}: {}", req.ctx(), nn[0], what);
              return api.patchGeneric(apiVersion, "VirtualService", nn[1], nn[0], patch.toString())
                  .onSuccess(
                      v ->
                          events.normal(
                              req.rollout(),
                              "Updated VirtualService",
                              "VirtualService `" + nn[0] + "` set to " + what))
                  .mapEmpty();
            });
  }

  private Future<Void> eachVirtualService(
      TrafficRequest req, String what, BiConsumer<IstioVirtualService, ObjectNode> edit) {
    List<IstioVirtualService> list = virtualServices(req);
    if (list.isEmpty()) {
      return Future.failedFuture("either VirtualService or VirtualServices must be configured");
    }
    Future<Void> chain = Future.succeededFuture();
    for (IstioVirtualService vs : list) {
      chain = chain.compose(v -> editVirtualService(req, vs, what, edit));
    }
    return chain;
  }

  @Override
  public Future<Void> setWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    return eachVirtualService(
        req,
        "desiredWeight '" + desiredWeight + "'",
        (vs, spec) -> applyWeight(req, vs, spec, desiredWeight, additional));
  }

  /**
   * Sets the weights in a copy of a VirtualService's spec: the selected HTTP routes (only when the
   * VirtualService has an {@code http} section, so a TLS/TCP-only VirtualService may still name
   * {@code routes}), the managed mirror routes, and the TLS and TCP routes the Rollout lists.
   *
   * @throws IllegalArgumentException when a listed route or a stable/canary destination is missing
   */
  static void applyWeight(
      TrafficRequest req,
      IstioVirtualService vs,
      ObjectNode spec,
      int desiredWeight,
      List<WeightDestination> additional) {
    Targets t = targets(req);
    int extra = 0;
    for (WeightDestination d : additional) {
      extra += d.getWeight() == null ? 0 : d.getWeight();
    }
    int stableWeight = Math.max(0, 100 - desiredWeight - extra);
    List<String> managed = req.managedRoutes();
    if (spec.path("http").isArray()) {
      ArrayNode http = (ArrayNode) spec.get("http");
      for (JsonNode route : selectedHttpRoutes(vs, http, managed)) {
        setDestinations(req, (ObjectNode) route, t, desiredWeight, stableWeight, additional);
      }
      for (JsonNode route : http) {
        if (managed.contains(route.path("name").asText()) && route.has("mirror")) {
          setDestinations(req, (ObjectNode) route, t, desiredWeight, stableWeight, additional);
        }
      }
    }
    if (vs.getTlsRoutes() != null) {
      for (TLSRoute tls : vs.getTlsRoutes()) {
        List<ObjectNode> found = matching(spec.path("tls"), tls.getPort(), tls.getSniHosts());
        if (found.isEmpty()) {
          throw new IllegalArgumentException(
              "No matching TLS routes found in the defined Virtual Service.");
        }
        found.forEach(r -> setDestinations(req, r, t, desiredWeight, stableWeight, additional));
      }
    }
    if (vs.getTcpRoutes() != null) {
      for (TCPRoute tcp : vs.getTcpRoutes()) {
        List<ObjectNode> found = matching(spec.path("tcp"), tcp.getPort(), null);
        if (found.isEmpty()) {
          throw new IllegalArgumentException(
              "No matching TCP routes found in the defined Virtual Service.");
        }
        found.forEach(r -> setDestinations(req, r, t, desiredWeight, stableWeight, additional));
      }
    }
  }

  /** docs/compatibility.md §2.3 item 7: the HTTP routes {@code setWeight} changes. */
  private static List<JsonNode> selectedHttpRoutes(
      IstioVirtualService vs, ArrayNode http, List<String> managed) {
    List<JsonNode> out = new ArrayList<>();
    if (vs.getRoutes() != null && !vs.getRoutes().isEmpty()) {
      for (String name : vs.getRoutes()) {
        JsonNode found = null;
        for (JsonNode r : http) {
          if (name.equals(r.path("name").asText(null))) {
            found = r;
          }
        }
        if (found == null) {
          throw new IllegalArgumentException(
              "HTTP Route '" + name + "' is not found in the defined Virtual Service.");
        }
        out.add(found);
      }
      return out;
    }
    boolean tlsOrTcp =
        (vs.getTlsRoutes() != null && !vs.getTlsRoutes().isEmpty())
            || (vs.getTcpRoutes() != null && !vs.getTcpRoutes().isEmpty());
    if (tlsOrTcp) {
      return out; // only the listed TLS/TCP routes are shifted
    }
    List<JsonNode> unmanaged = new ArrayList<>();
    for (JsonNode r : http) {
      if (!managed.contains(r.path("name").asText())) {
        unmanaged.add(r);
      }
    }
    if (unmanaged.size() != 1) {
      throw new IllegalArgumentException(
          "spec.http[] should be set in VirtualService and it must have exactly one route when omitting "
              + "spec.strategy.canary.trafficRouting.istio.virtualService.routes");
    }
    return unmanaged;
  }

  private static List<ObjectNode> matching(JsonNode routes, Long port, List<String> sniHosts) {
    List<ObjectNode> out = new ArrayList<>();
    for (JsonNode r : routes) {
      for (JsonNode m : r.path("match")) {
        boolean portOk = port == null || m.path("port").asLong(-1) == port;
        boolean sniOk = true;
        if (sniHosts != null) {
          Set<String> have = new HashSet<>();
          m.path("sniHosts").forEach(h -> have.add(h.asText()));
          sniOk = have.equals(new HashSet<>(sniHosts));
        }
        if (portOk && sniOk) {
          out.add((ObjectNode) r);
          break;
        }
      }
    }
    return out;
  }

  /**
   * Sets the weights of one route's destinations in place, keeping their order (with ping-pong the
   * two Services swap roles, and route[0] stays the same Service): the canary and stable
   * destinations, the additional subsets (kept as they are) and the experiment destinations (by
   * host); every other destination is removed, and experiment destinations not there yet are
   * appended (sorted by Service name).
   */
  private static void setDestinations(
      TrafficRequest req,
      ObjectNode route,
      Targets t,
      int canaryWeight,
      int stableWeight,
      List<WeightDestination> additional) {
    ArrayNode dests =
        route.path("route").isArray() ? (ArrayNode) route.get("route") : route.putArray("route");
    Map<String, WeightDestination> experiments = new LinkedHashMap<>();
    List<WeightDestination> sorted = new ArrayList<>(additional);
    sorted.sort(java.util.Comparator.comparing(WeightDestination::getServiceName));
    for (WeightDestination a : sorted) {
      experiments.put(a.getServiceName(), a);
    }
    boolean canaryFound = false;
    boolean stableFound = false;
    ArrayNode out = JSON.createArrayNode();
    for (JsonNode d : dests) {
      JsonNode dest = d.path("destination");
      if (!canaryFound && t.isCanary(dest)) {
        canaryFound = true;
        out.add(((ObjectNode) d).put("weight", canaryWeight));
      } else if (!stableFound && t.isStable(dest)) {
        stableFound = true;
        out.add(((ObjectNode) d).put("weight", stableWeight));
      } else if (t.keepSubsets().contains(dest.path("subset").asText(""))) {
        out.add(d);
      } else if (experiments.containsKey(firstLabel(dest))) {
        WeightDestination a = experiments.remove(firstLabel(dest));
        out.add(((ObjectNode) d).put("weight", a.getWeight() == null ? 0 : a.getWeight()));
      }
    }
    if (!canaryFound) {
      throw new IllegalArgumentException(
          t.canarySubset() != null
              ? "Canary DestinationRule subset '" + t.canarySubset() + "' not found in route"
              : "Canary Service '" + t.canaryHost() + "' not found in route");
    }
    if (!stableFound) {
      throw new IllegalArgumentException(
          t.stableSubset() != null
              ? "Stable DestinationRule subset '" + t.stableSubset() + "' not found in route"
              : "Stable Service '" + t.stableHost() + "' not found in route");
    }
    for (WeightDestination a : experiments.values()) {
      ObjectNode d = out.addObject();
      d.putObject("destination").put("host", a.getServiceName());
      d.put("weight", a.getWeight() == null ? 0 : a.getWeight());
    }
    route.set("route", out);
  }

  /** Managed routes first, in {@code managedRoutes} order, then the others in their order. */
  private static void reorderManaged(TrafficRequest req, ObjectNode spec) {
    if (!spec.path("http").isArray()) {
      return;
    }
    ArrayNode http = (ArrayNode) spec.get("http");
    List<String> managed = req.managedRoutes();
    Map<String, JsonNode> byName = new LinkedHashMap<>();
    List<JsonNode> rest = new ArrayList<>();
    for (JsonNode r : http) {
      String n = r.path("name").asText(null);
      if (n != null && managed.contains(n)) {
        byName.put(n, r);
      } else {
        rest.add(r);
      }
    }
    ArrayNode out = JSON.createArrayNode();
    for (String n : managed) {
      if (byName.containsKey(n)) {
        out.add(byName.get(n));
      }
    }
    rest.forEach(out::add);
    spec.set("http", out);
  }

  /**
   * The canary destination of the first selected HTTP route, used as the target of header and
   * mirror routes.
   */
  private static ObjectNode canaryDestination(
      TrafficRequest req, IstioVirtualService vs, ArrayNode http) {
    Targets t = targets(req);
    for (JsonNode route : selectedHttpRoutes(vs, http, req.managedRoutes())) {
      for (JsonNode d : route.path("route")) {
        if (t.isCanary(d.path("destination"))) {
          return ((ObjectNode) d.path("destination")).deepCopy();
        }
      }
    }
    throw new IllegalArgumentException(
        "Canary destination not found in the routes of VirtualService `" + vs.getName() + "`");
  }

  private static void removeRoute(ArrayNode http, String name) {
    for (int i = http.size() - 1; i >= 0; i--) {
      if (name.equals(http.get(i).path("name").asText(null))) {
        http.remove(i);
      }
    }
  }

  private static ArrayNode http(ObjectNode spec) {
    return spec.path("http").isArray() ? (ArrayNode) spec.get("http") : spec.putArray("http");
  }

  @Override
  public Future<Void> setHeaderRoute(TrafficRequest req, SetHeaderRoute route) {
    return eachVirtualService(
        req,
        "header route '" + route.getName() + "'",
        (vs, spec) -> {
          ArrayNode http = http(spec);
          removeRoute(http, route.getName());
          if (route.getMatch() == null || route.getMatch().isEmpty()) {
            return;
          }
          ObjectNode dest = canaryDestination(req, vs, http);
          ObjectNode r = JSON.createObjectNode();
          r.put("name", route.getName());
          ObjectNode headers = r.putArray("match").addObject().putObject("headers");
          for (HeaderRoutingMatch m : route.getMatch()) {
            headers.set(m.getHeaderName(), stringMatch(m.getHeaderValue()));
          }
          ObjectNode to = r.putArray("route").addObject();
          to.set("destination", dest);
          to.put("weight", 100);
          http.insert(0, r);
        });
  }

  private static ObjectNode stringMatch(StringMatch v) {
    ObjectNode n = JSON.createObjectNode();
    if (v.getExact() != null) {
      n.put("exact", v.getExact());
    } else if (v.getRegex() != null) {
      n.put("regex", v.getRegex());
    } else if (v.getPrefix() != null) {
      n.put("prefix", v.getPrefix());
    }
    return n;
  }

  @Override
  public Future<Void> setMirrorRoute(TrafficRequest req, SetMirrorRoute route) {
    return eachVirtualService(
        req,
        "mirror route '" + route.getName() + "'",
        (vs, spec) -> {
          ArrayNode http = http(spec);
          removeRoute(http, route.getName());
          if (route.getMatch() == null || route.getMatch().isEmpty()) {
            return;
          }
          ObjectNode dest = canaryDestination(req, vs, http);
          JsonNode weighted =
              selectedHttpRoutes(vs, http, req.managedRoutes()).get(0).path("route").deepCopy();
          ObjectNode r = JSON.createObjectNode();
          r.put("name", route.getName());
          ArrayNode match = r.putArray("match");
          for (RouteMatch m : route.getMatch()) {
            ObjectNode mm = match.addObject();
            if (m.getMethod() != null) {
              mm.set("method", stringMatch(m.getMethod()));
            }
            if (m.getPath() != null) {
              mm.set("uri", stringMatch(m.getPath()));
            }
            if (m.getHeaders() != null) {
              ObjectNode h = mm.putObject("headers");
              m.getHeaders().forEach((k, v) -> h.set(k, stringMatch(v)));
            }
          }
          r.set("route", weighted);
          r.set("mirror", dest);
          r.putObject("mirrorPercentage")
              .put("value", route.getPercentage() == null ? 100 : route.getPercentage());
          http.insert(0, r);
        });
  }

  @Override
  public Future<Void> removeManagedRoutes(TrafficRequest req) {
    List<String> managed = req.managedRoutes();
    return eachVirtualService(
        req,
        "no managed routes",
        (vs, spec) -> {
          if (spec.path("http").isArray()) {
            for (String n : managed) {
              removeRoute((ArrayNode) spec.get("http"), n);
            }
          }
        });
  }

  @Override
  public Future<Void> updateHash(
      TrafficRequest req,
      String canaryHash,
      String stableHash,
      List<WeightDestination> additional) {
    IstioDestinationRule dr = istio(req).getDestinationRule();
    if (dr == null) {
      return Future.succeededFuture();
    }
    String[] nn = nameAndNamespace(dr.getName(), req.namespace());
    return api.getGeneric(apiVersion, "DestinationRule", nn[1], nn[0])
        .compose(
            res -> {
              if (res == null) {
                events.warning(
                    req.rollout(),
                    "DestinationRuleNotFound",
                    "DestinationRule `" + dr.getName() + "` not found");
                return Future.failedFuture("DestinationRule `" + dr.getName() + "` not found");
              }
              ObjectNode obj = JSON.valueToTree(res);
              JsonNode subsetsBefore = obj.path("spec").path("subsets");
              ArrayNode subsets;
              try {
                subsets = desiredSubsets(dr, subsetsBefore, canaryHash, stableHash, additional);
              } catch (IllegalArgumentException e) {
                return Future.failedFuture(e.getMessage());
              }
              String managedBy =
                  obj.path("metadata")
                      .path("annotations")
                      .path(Annotations.MANAGED_BY_ROLLOUTS)
                      .asText(null);
              if (subsets.equals(subsetsBefore) && req.name().equals(managedBy)) {
                return Future.succeededFuture();
              }
              ObjectNode patch = JSON.createObjectNode();
              ObjectNode meta = patch.putObject("metadata");
              meta.put("resourceVersion", res.getMetadata().getResourceVersion());
              meta.putObject("annotations").put(Annotations.MANAGED_BY_ROLLOUTS, req.name());
              patch.putObject("spec").set("subsets", subsets);
              LOG.info(
                  "{} updating DestinationRule {}: canary={} stable={}",
                  req.ctx(),
                  nn[0],
                  canaryHash,
                  stableHash);
              return api.patchGeneric(apiVersion, "DestinationRule", nn[1], nn[0], patch.toString())
                  .onSuccess(
                      v ->
                          events.normal(
                              req.rollout(),
                              "UpdatedDestinationRule",
                              "DestinationRule `"
                                  + nn[0]
                                  + "` subsets set to canary `"
                                  + canaryHash
                                  + "` and stable `"
                                  + stableHash
                                  + "`"))
                  .mapEmpty();
            });
  }

  /**
   * The DestinationRule's subsets as they should be (Argo {@code UpdateHash}): the canary and
   * stable subsets select their hashes; every weighted experiment template (an additional
   * destination) gets a subset named after its Service selecting its hash, added at the end when
   * missing; a subset that carries the pod-template-hash label but is neither canary, stable, in
   * {@code additionalSubsetNames} nor a current experiment's is an experiment subset of an earlier
   * step and is removed. Other subsets are kept as they are.
   *
   * @throws IllegalArgumentException when the canary or the stable subset is missing
   */
  static ArrayNode desiredSubsets(
      IstioDestinationRule dr,
      JsonNode before,
      String canaryHash,
      String stableHash,
      List<WeightDestination> additional) {
    Map<String, WeightDestination> experiments = new LinkedHashMap<>();
    for (WeightDestination a : additional) {
      if (a.getServiceName() != null) {
        experiments.put(a.getServiceName(), a);
      }
    }
    Set<String> keep =
        dr.getAdditionalSubsetNames() == null
            ? Set.of()
            : new HashSet<>(dr.getAdditionalSubsetNames());
    boolean canaryFound = false;
    boolean stableFound = false;
    ArrayNode out = JSON.createArrayNode();
    for (JsonNode original : before) {
      ObjectNode s = ((ObjectNode) original).deepCopy();
      String name = s.path("name").asText();
      if (name.equals(dr.getCanarySubsetName())) {
        setHashLabel(s, canaryHash);
        canaryFound = true;
      } else if (name.equals(dr.getStableSubsetName())) {
        setHashLabel(s, stableHash);
        stableFound = true;
      } else if (experiments.containsKey(name)) {
        setHashLabel(s, experiments.remove(name).getPodTemplateHash());
      } else if (!keep.contains(name) && s.path("labels").has(Labels.POD_TEMPLATE_HASH)) {
        continue; // an experiment subset of an earlier step
      }
      out.add(s);
    }
    if (!canaryFound || !stableFound) {
      throw new IllegalArgumentException(
          "DestinationRule `"
              + dr.getName()
              + "` needs subsets `"
              + dr.getCanarySubsetName()
              + "` and `"
              + dr.getStableSubsetName()
              + "`");
    }
    for (WeightDestination a : experiments.values()) {
      if (a.getPodTemplateHash() != null && !a.getPodTemplateHash().isEmpty()) {
        ObjectNode s = out.addObject();
        s.put("name", a.getServiceName());
        s.putObject("labels").put(Labels.POD_TEMPLATE_HASH, a.getPodTemplateHash());
      }
    }
    return out;
  }

  /**
   * Releases the DestinationRules in the Rollout's namespace that carry its managed-by annotation
   * but that it no longer names in {@code trafficRouting.istio.destinationRule} (traffic routing
   * removed, or switched to host-based routing or another router): the annotation and the
   * pod-template-hash labels of the subsets are removed, as Argo Rollouts' DestinationRule
   * controller does. Looked for only when the Rollout has routed traffic ({@code
   * status.canary.weights} set) and names no DestinationRule now.
   *
   * @param req the Rollout
   * @return a Future completing when every such DestinationRule is released; an API server without
   *     the DestinationRule kind counts as none; fails with the API error otherwise
   */
  public Future<Void> releaseUnused(TrafficRequest req) {
    var status = req.rollout().getStatus();
    boolean routed =
        status != null && status.getCanary() != null && status.getCanary().getWeights() != null;
    var canary = req.rollout().getSpec().getStrategy().getCanary();
    var tr = canary == null ? null : canary.getTrafficRouting();
    boolean namesOne =
        tr != null && tr.getIstio() != null && tr.getIstio().getDestinationRule() != null;
    if (!routed || namesOne) {
      return Future.succeededFuture();
    }
    return api.listGeneric(apiVersion, "DestinationRule", req.namespace())
        .recover(
            err ->
                KubeApiException.isNotFound(err)
                    ? Future.succeededFuture(List.of())
                    : Future.failedFuture(err))
        .compose(
            all -> {
              Future<Void> chain = Future.succeededFuture();
              for (var dr : all) {
                ObjectNode obj = JSON.valueToTree(dr);
                if (req.name()
                    .equals(
                        obj.path("metadata")
                            .path("annotations")
                            .path(Annotations.MANAGED_BY_ROLLOUTS)
                            .asText(null))) {
                  chain = chain.compose(v -> release(req, obj));
                }
              }
              return chain;
            });
  }

  private Future<Void> release(TrafficRequest req, ObjectNode obj) {
    String name = obj.path("metadata").path("name").asText();
    ObjectNode patch = releasePatch(obj);
    LOG.info("{} releasing DestinationRule {}: no longer referenced", req.ctx(), name);
    return api.patchGeneric(apiVersion, "DestinationRule", req.namespace(), name, patch.toString())
        .mapEmpty();
  }

  /**
   * The merge patch that releases a DestinationRule: the managed-by annotation removed and no
   * subset selecting a pod-template hash; sent with the object's resourceVersion.
   */
  static ObjectNode releasePatch(ObjectNode dr) {
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode meta = patch.putObject("metadata");
    meta.put("resourceVersion", dr.path("metadata").path("resourceVersion").asText());
    meta.putObject("annotations").putNull(Annotations.MANAGED_BY_ROLLOUTS);
    JsonNode before = dr.path("spec").path("subsets");
    if (before.isArray()) {
      ArrayNode subsets = ((ArrayNode) before).deepCopy();
      for (JsonNode s : subsets) {
        if (s.path("labels").has(Labels.POD_TEMPLATE_HASH)) {
          ((ObjectNode) s.get("labels")).remove(Labels.POD_TEMPLATE_HASH);
        }
      }
      if (!subsets.equals(before)) {
        patch.putObject("spec").set("subsets", subsets);
      }
    }
    return patch;
  }

  private static void setHashLabel(ObjectNode subset, String hash) {
    ObjectNode labels =
        subset.path("labels").isObject()
            ? (ObjectNode) subset.get("labels")
            : subset.putObject("labels");
    if (hash == null || hash.isEmpty()) {
      labels.remove(Labels.POD_TEMPLATE_HASH);
    } else {
      labels.put(Labels.POD_TEMPLATE_HASH, hash);
    }
  }

  @Override
  public Future<WeightVerification> verifyWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    return Future.succeededFuture(WeightVerification.NOT_IMPLEMENTED);
  }
}
