package io.rollgate.controller.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressPath;
import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressRuleValue;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.IngressSpec;
import io.rollgate.api.ModelJson;
import io.rollgate.api.NginxTrafficRouting;
import io.rollgate.api.Rollout;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NGINX Ingress ({@code trafficRouting.nginx}, docs/compatibility.md §11.1): for every stable
 * Ingress a canary Ingress named {@code <rollout>-<stableIngress>-canary}, controlled by the
 * Rollout, carrying the stable Ingress's rules that route to {@code stableService} (rewritten to
 * {@code canaryService}), its TLS, its {@code ingressClassName} and {@code
 * kubernetes.io/ingress.class} annotation, and the canary annotations ({@code <prefix>/canary:
 * "true"}, {@code <prefix>/canary-weight}, {@code <prefix>/canary-weight-total} when
 * maxTrafficWeight is set) after {@code additionalIngressAnnotations} (prefixed) and {@code
 * canaryIngressAnnotations}. Annotations the canary Ingress already has and that are not desired
 * are kept. Header and mirror routes, hashes and verification are not supported by NGINX and
 * complete at once.
 */
public final class NginxTrafficRouter implements TrafficRouter {

  /** {@code nginx.annotationPrefix} default. */
  public static final String DEFAULT_PREFIX = "nginx.ingress.kubernetes.io";

  /** The legacy ingress class annotation copied from the stable Ingress. */
  public static final String INGRESS_CLASS_ANNOTATION = "kubernetes.io/ingress.class";

  private static final int MAX_NAME = 253;
  private static final String SUFFIX = "-canary";
  private static final Logger LOG = LoggerFactory.getLogger(NginxTrafficRouter.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private final KubeApi api;
  private final EventRecorder events;

  /**
   * Creates the router.
   *
   * @param api the API facade
   * @param events the event recorder ({@code CreatingCanaryIngress}, {@code PatchingCanaryIngress})
   */
  public NginxTrafficRouter(KubeApi api, EventRecorder events) {
    this.api = api;
    this.events = events;
  }

  @Override
  public String type() {
    return "Nginx";
  }

  /**
   * The stable Ingress names of {@code trafficRouting.nginx} ({@code stableIngress} or {@code
   * stableIngresses}).
   *
   * @param nginx the configuration
   * @return the names, in order
   */
  public static List<String> stableIngresses(NginxTrafficRouting nginx) {
    List<String> names = new ArrayList<>();
    if (nginx.getStableIngress() != null && !nginx.getStableIngress().isEmpty()) {
      names.add(nginx.getStableIngress());
    }
    if (nginx.getStableIngresses() != null) {
      names.addAll(nginx.getStableIngresses());
    }
    return names;
  }

  /**
   * The canary Ingress name for a stable Ingress: {@code <rollout>-<stableIngress>-canary}, the
   * prefix cut to {@code 253 - len("-canary")} characters.
   *
   * @param rollout the Rollout name
   * @param stableIngress the stable Ingress name
   * @return the name
   */
  public static String canaryIngressName(String rollout, String stableIngress) {
    String prefix = rollout + "-" + stableIngress;
    if (prefix.length() > MAX_NAME - SUFFIX.length()) {
      prefix = prefix.substring(0, MAX_NAME - SUFFIX.length());
    }
    return prefix + SUFFIX;
  }

  @Override
  public Future<Void> setWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    NginxTrafficRouting nginx = req.trafficRouting().getNginx();
    Future<Void> chain = Future.succeededFuture();
    for (String stable : stableIngresses(nginx)) {
      chain = chain.compose(v -> syncCanaryIngress(req, nginx, stable, desiredWeight));
    }
    return chain;
  }

  private Future<Void> syncCanaryIngress(
      TrafficRequest req, NginxTrafficRouting nginx, String stableName, int weight) {
    String ns = req.namespace();
    String canaryName = canaryIngressName(req.name(), stableName);
    return api.get(Ingress.class, ns, stableName)
        .compose(
            stable -> {
              if (stable == null) {
                return Future.failedFuture("ingress `" + stableName + "` not found");
              }
              Ingress desired;
              try {
                desired = desiredCanary(req, nginx, stable, canaryName, weight);
              } catch (IllegalArgumentException e) {
                return Future.failedFuture(e.getMessage());
              }
              return api.get(Ingress.class, ns, canaryName)
                  .compose(existing -> apply(req, desired, existing, weight));
            });
  }

  /**
   * Builds the canary Ingress from the stable one (pure; exposed for unit tests).
   *
   * @param req the Rollout
   * @param nginx {@code trafficRouting.nginx}
   * @param stable the stable Ingress
   * @param canaryName the canary Ingress name
   * @param weight the canary weight
   * @return the desired canary Ingress
   * @throws IllegalArgumentException when no rule of the stable Ingress routes to {@code
   *     stableService}
   */
  static Ingress desiredCanary(
      TrafficRequest req,
      NginxTrafficRouting nginx,
      Ingress stable,
      String canaryName,
      int weight) {
    String prefix =
        nginx.getAnnotationPrefix() == null || nginx.getAnnotationPrefix().isEmpty()
            ? DEFAULT_PREFIX
            : nginx.getAnnotationPrefix();
    String stableSvc = req.stableService();
    String canarySvc = req.canaryService();
    List<IngressRule> rules = new ArrayList<>();
    IngressSpec spec = stable.getSpec() == null ? new IngressSpec() : stable.getSpec();
    if (spec.getRules() != null) {
      for (IngressRule rule : spec.getRules()) {
        if (rule.getHttp() == null || rule.getHttp().getPaths() == null) {
          continue;
        }
        List<HTTPIngressPath> paths = new ArrayList<>();
        for (HTTPIngressPath p : rule.getHttp().getPaths()) {
          if (p.getBackend() != null
              && p.getBackend().getService() != null
              && stableSvc.equals(p.getBackend().getService().getName())) {
            HTTPIngressPath copy = ModelJson.deepCopy(p);
            copy.getBackend().getService().setName(canarySvc);
            paths.add(copy);
          }
        }
        if (!paths.isEmpty()) {
          IngressRule r = new IngressRule();
          r.setHost(rule.getHost());
          r.setHttp(new HTTPIngressRuleValue(paths));
          rules.add(r);
        }
      }
    }
    if (rules.isEmpty()) {
      throw new IllegalArgumentException(
          "ingress `"
              + stable.getMetadata().getName()
              + "` has no rules using service "
              + stableSvc
              + " backend");
    }
    Map<String, String> annotations = new LinkedHashMap<>();
    Map<String, String> stableAnn = stable.getMetadata().getAnnotations();
    if (stableAnn != null && stableAnn.containsKey(INGRESS_CLASS_ANNOTATION)) {
      annotations.put(INGRESS_CLASS_ANNOTATION, stableAnn.get(INGRESS_CLASS_ANNOTATION));
    }
    if (nginx.getAdditionalIngressAnnotations() != null) {
      nginx
          .getAdditionalIngressAnnotations()
          .forEach((k, v) -> annotations.put(k.startsWith(prefix) ? k : prefix + "/" + k, v));
    }
    if (nginx.getCanaryIngressAnnotations() != null) {
      annotations.putAll(nginx.getCanaryIngressAnnotations());
    }
    annotations.put(prefix + "/canary", "true");
    annotations.put(prefix + "/canary-weight", String.valueOf(weight));
    if (req.trafficRouting().getMaxTrafficWeight() != null) {
      annotations.put(prefix + "/canary-weight-total", String.valueOf(req.maxWeight()));
    }
    Ingress canary = new Ingress();
    canary.setApiVersion("networking.k8s.io/v1");
    canary.setKind("Ingress");
    ObjectMeta meta = new ObjectMeta();
    meta.setName(canaryName);
    meta.setNamespace(req.namespace());
    meta.setAnnotations(annotations);
    meta.setOwnerReferences(List.of(Owners.controllerRef(req.rollout())));
    canary.setMetadata(meta);
    IngressSpec cspec = new IngressSpec();
    cspec.setIngressClassName(spec.getIngressClassName());
    cspec.setTls(spec.getTls() == null ? null : ModelJson.deepCopy(spec).getTls());
    cspec.setRules(rules);
    canary.setSpec(cspec);
    return canary;
  }

  private Future<Void> apply(TrafficRequest req, Ingress desired, Ingress existing, int weight) {
    String name = desired.getMetadata().getName();
    Rollout rollout = req.rollout();
    if (existing == null) {
      LOG.info("{} creating canary Ingress {} with weight {}", req.ctx(), name, weight);
      events.normal(
          rollout,
          "CreatingCanaryIngress",
          "Creating canary ingress `" + name + "` with weight `" + weight + "`");
      return api.create(desired).mapEmpty();
    }
    if (!Owners.controlledBy(existing, rollout)) {
      return Future.failedFuture("canary ingress `" + name + "` controlled by different object");
    }
    Map<String, String> have =
        existing.getMetadata().getAnnotations() == null
            ? Map.of()
            : existing.getMetadata().getAnnotations();
    boolean annotationsOk = true;
    for (Map.Entry<String, String> e : desired.getMetadata().getAnnotations().entrySet()) {
      annotationsOk &= e.getValue().equals(have.get(e.getKey()));
    }
    JsonNode haveSpec = JSON.valueToTree(existing.getSpec());
    JsonNode wantSpec = JSON.valueToTree(desired.getSpec());
    if (annotationsOk && Objects.equals(haveSpec, wantSpec)) {
      return Future.succeededFuture();
    }
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode meta = patch.putObject("metadata");
    meta.put("resourceVersion", existing.getMetadata().getResourceVersion());
    ObjectNode ann = meta.putObject("annotations");
    desired.getMetadata().getAnnotations().forEach(ann::put);
    ObjectNode spec = patch.putObject("spec");
    spec.set("rules", wantSpec.path("rules"));
    spec.set("tls", wantSpec.has("tls") ? wantSpec.get("tls") : JSON.nullNode());
    spec.set(
        "ingressClassName",
        wantSpec.has("ingressClassName") ? wantSpec.get("ingressClassName") : JSON.nullNode());
    LOG.info("{} patching canary Ingress {} to weight {}", req.ctx(), name, weight);
    events.normal(
        rollout,
        "PatchingCanaryIngress",
        "Updating Ingress `" + name + "` to desiredWeight '" + weight + "'");
    return api.patch(Ingress.class, req.namespace(), name, null, patch.toString()).mapEmpty();
  }

  /**
   * Deletes the canary Ingresses this Rollout controls that its configuration no longer asks for
   * (it stopped using NGINX, or a stable Ingress was removed from the list).
   *
   * @param req the Rollout
   * @return a Future completing when they are deleted
   */
  public Future<Void> releaseUnused(TrafficRequest req) {
    NginxTrafficRouting nginx =
        req.trafficRouting() == null ? null : req.trafficRouting().getNginx();
    List<String> wanted = new ArrayList<>();
    if (nginx != null) {
      for (String s : stableIngresses(nginx)) {
        wanted.add(canaryIngressName(req.name(), s));
      }
    }
    return api.list(Ingress.class, req.namespace())
        .compose(
            all -> {
              Future<Void> chain = Future.succeededFuture();
              for (Ingress ing : all) {
                String name = ing.getMetadata().getName();
                if (name.endsWith(SUFFIX)
                    && Owners.controlledBy(ing, req.rollout())
                    && !wanted.contains(name)) {
                  LOG.info("{} deleting canary Ingress {}: no longer used", req.ctx(), name);
                  chain = chain.compose(v -> api.delete(Ingress.class, req.namespace(), name));
                }
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
