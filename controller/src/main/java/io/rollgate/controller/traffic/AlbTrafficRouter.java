package io.rollgate.controller.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressPath;
import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressPathBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressRule;
import io.rollgate.api.ALBStatus;
import io.rollgate.api.ALBTrafficRouting;
import io.rollgate.api.HeaderRoutingMatch;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.StickinessConfig;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.aws.LoadBalancerProvider;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AWS Application Load Balancer ({@code trafficRouting.alb}, docs/traffic-routers.md "AWS ALB"):
 * the Rollout edits annotations of the Ingresses the AWS Load Balancer Controller serves, never the
 * load balancer itself.
 *
 * <ul>
 *   <li>Weights: on {@code alb.ingress} (or every one of {@code alb.ingresses}) the annotation
 *       {@code <annotationPrefix>/actions.<rootService or stableService>} holds a forward action
 *       with the target groups canary, the weighted experiment Services, stable, each on {@code
 *       servicePort}; stable gets the rest of 100. With {@code pingPong} canary and stable are the
 *       ping and pong Services (which one is stable follows {@code status.canary.stablePingPong}).
 *       {@code stickinessConfig} adds the target group stickiness.
 *   <li>Header routes ({@code setHeaderRoute}): {@code actions.<route>} (all traffic to canary) and
 *       {@code conditions.<route>} (header {@code exact} values; several matches on one header are
 *       merged into one condition), plus a path {@code /*} to the route's action at the top of
 *       every Ingress rule, kept in {@code managedRoutes} order; removed by an empty match and on
 *       promotion or abort.
 *   <li>Bookkeeping: {@code rollouts.argoproj.io/managed-alb-annotations} lists, per Rollout, the
 *       keys it manages.
 * </ul>
 *
 * <p>Every Ingress must have a rule whose backend is the action Service (the AWS controller
 * resolves the action by that Service name with port {@code use-annotation}).
 *
 * <p>Weight verification ({@link #verifyTargetGroups}): with the controller flag {@code
 * --aws-verify-target-group} (a {@link LoadBalancerProvider} is given), the weights the AWS Load
 * Balancer Controller has applied are read back from AWS and recorded in {@code status.alb}/{@code
 * status.albs} and {@code status.canary.weights.verified}; without it {@link #verifyWeight} answers
 * {@link WeightVerification#NOT_IMPLEMENTED} and those status fields are cleared, as Argo Rollouts
 * does. The rules are in {@link AlbVerification}.
 */
public final class AlbTrafficRouter implements TrafficRouter {

  /** Path of a header-route rule. */
  static final String HEADER_ROUTE_PATH = "/*";

  /** Port name telling the AWS controller to take the backend from the action annotation. */
  static final String USE_ANNOTATION = "use-annotation";

  private static final Logger LOG = LoggerFactory.getLogger(AlbTrafficRouter.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private final KubeApi api;
  private final EventRecorder events;
  private final LoadBalancerProvider aws;

  /**
   * Creates the router without target-group verification.
   *
   * @param api the API facade
   * @param events the event recorder ({@code PatchingALBIngress})
   */
  public AlbTrafficRouter(KubeApi api, EventRecorder events) {
    this(api, events, null);
  }

  /**
   * Creates the router.
   *
   * @param api the API facade
   * @param events the event recorder ({@code PatchingALBIngress}, the target-group verification
   *     events)
   * @param aws the AWS reads of {@code --aws-verify-target-group}, or null when the flag is off
   */
  public AlbTrafficRouter(KubeApi api, EventRecorder events, LoadBalancerProvider aws) {
    this.api = api;
    this.events = events;
    this.aws = aws;
  }

  /**
   * Whether weights are verified against AWS ({@code --aws-verify-target-group}).
   *
   * @return true when a {@link LoadBalancerProvider} was given
   */
  public boolean verifiesTargetGroups() {
    return aws != null;
  }

  @Override
  public String type() {
    return "ALB";
  }

  /**
   * The Ingresses of {@code trafficRouting.alb}: {@code ingresses} when set, otherwise {@code
   * ingress}.
   *
   * @param alb the configuration
   * @return the names, in order
   */
  public static List<String> ingresses(ALBTrafficRouting alb) {
    if (alb.getIngresses() != null) {
      return alb.getIngresses();
    }
    return alb.getIngress() == null || alb.getIngress().isEmpty()
        ? List.of()
        : List.of(alb.getIngress());
  }

  /**
   * The annotation key prefix: {@code trafficRouting.alb.annotationPrefix}, default {@code
   * alb.ingress.kubernetes.io}.
   *
   * @param alb the configuration
   * @return the prefix
   */
  public static String prefix(ALBTrafficRouting alb) {
    return alb.getAnnotationPrefix() == null || alb.getAnnotationPrefix().isEmpty()
        ? AlbActions.DEFAULT_PREFIX
        : alb.getAnnotationPrefix();
  }

  /**
   * The Service whose action carries the weights: {@code alb.rootService}, else {@code
   * canary.stableService}.
   *
   * @param req the Rollout
   * @return the Service name (empty when neither is set)
   */
  static String actionService(TrafficRequest req) {
    ALBTrafficRouting alb = req.trafficRouting().getAlb();
    if (alb.getRootService() != null && !alb.getRootService().isEmpty()) {
      return alb.getRootService();
    }
    return req.canary().getStableService() == null ? "" : req.canary().getStableService();
  }

  /**
   * The forward action of the weights (pure; exposed for unit tests).
   *
   * @param req the Rollout
   * @param desiredWeight the canary weight
   * @param additional the weighted experiment Services
   * @return the annotation value
   * @throws IllegalArgumentException when {@code servicePort} is missing or the stickiness duration
   *     is out of range
   */
  static String weightAction(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    String port = port(req);
    List<AlbActions.TargetGroup> groups = new ArrayList<>();
    groups.add(new AlbActions.TargetGroup(req.canaryService(), port, desiredWeight));
    long stable = req.maxWeight() - desiredWeight;
    for (WeightDestination d : additional) {
      long w = d.getWeight() == null ? 0 : d.getWeight();
      groups.add(new AlbActions.TargetGroup(d.getServiceName(), port, w));
      stable -= w;
    }
    groups.add(new AlbActions.TargetGroup(req.stableService(), port, stable));
    return AlbActions.forwardAction(groups, stickiness(req));
  }

  /**
   * The forward action of a header route: all of its traffic to the canary Service.
   *
   * @param req the Rollout
   * @return the annotation value
   */
  static String headerAction(TrafficRequest req) {
    return AlbActions.forwardAction(
        List.of(new AlbActions.TargetGroup(req.canaryService(), port(req), 100)), stickiness(req));
  }

  /**
   * The conditions of a header route: one {@code http-header} condition per header name with its
   * {@code exact} values, in the order the headers first appear.
   *
   * @param route the step's route
   * @return the annotation value
   * @throws IllegalArgumentException when a match has no header name or no {@code exact} value (ALB
   *     matches header values with wildcards, not prefixes or regular expressions)
   */
  static String headerConditions(SetHeaderRoute route) {
    Map<String, List<String>> byHeader = new LinkedHashMap<>();
    for (int i = 0; i < route.getMatch().size(); i++) {
      HeaderRoutingMatch m = route.getMatch().get(i);
      String field = "setHeaderRoute `" + route.getName() + "` match[" + i + "]";
      if (m.getHeaderName() == null || m.getHeaderName().isEmpty()) {
        throw new IllegalArgumentException(field + ".headerName is required");
      }
      if (m.getHeaderValue() == null || m.getHeaderValue().getExact() == null) {
        throw new IllegalArgumentException(
            field
                + ".headerValue: the ALB router supports only `exact` (with the ALB wildcards * and ?)");
      }
      byHeader
          .computeIfAbsent(m.getHeaderName(), k -> new ArrayList<>())
          .add(m.getHeaderValue().getExact());
    }
    List<AlbActions.HeaderCondition> out = new ArrayList<>();
    byHeader.forEach((k, v) -> out.add(new AlbActions.HeaderCondition(k, v)));
    return AlbActions.conditions(out);
  }

  private static String port(TrafficRequest req) {
    Integer port = req.trafficRouting().getAlb().getServicePort();
    if (port == null) {
      throw new IllegalArgumentException(
          "spec.strategy.canary.trafficRouting.alb.servicePort is required");
    }
    return String.valueOf(port);
  }

  private static Long stickiness(TrafficRequest req) {
    StickinessConfig s = req.trafficRouting().getAlb().getStickinessConfig();
    if (s == null || !Boolean.TRUE.equals(s.getEnabled())) {
      return null;
    }
    long d = s.getDurationSeconds() == null ? 0 : s.getDurationSeconds();
    if (d < 1 || d > AlbActions.MAX_STICKINESS_SECONDS) {
      throw new IllegalArgumentException(
          "spec.strategy.canary.trafficRouting.alb.stickinessConfig.durationSeconds must be between 1 and "
              + AlbActions.MAX_STICKINESS_SECONDS
              + " seconds (7 days), got "
              + d);
    }
    return d;
  }

  /**
   * Records {@code keys} as managed (or no longer managed) by the Rollout in the bookkeeping
   * annotation of {@code annotations} (edited in place).
   *
   * @param annotations the Ingress annotations being built
   * @param rollout the Rollout name
   * @param add true to add the keys, false to remove them
   * @param keys the annotation keys
   * @throws IllegalArgumentException when the stored bookkeeping annotation cannot be read
   */
  static void manage(
      Map<String, String> annotations, String rollout, boolean add, List<String> keys) {
    Map<String, List<String>> managed =
        AlbActions.parseManaged(annotations.get(AlbActions.MANAGED_ANNOTATIONS));
    List<String> mine = new ArrayList<>(managed.getOrDefault(rollout, List.of()));
    for (String k : keys) {
      if (add && !mine.contains(k)) {
        mine.add(k);
      } else if (!add) {
        mine.remove(k);
      }
    }
    managed.put(rollout, mine);
    annotations.put(AlbActions.MANAGED_ANNOTATIONS, AlbActions.formatManaged(managed));
  }

  @Override
  public Future<Void> setWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    String service = actionService(req);
    return eachIngress(
        req,
        (name, ing) -> {
          if (service.isEmpty()) {
            throw new IllegalArgumentException(
                "spec.strategy.canary.trafficRouting.alb.rootService or spec.strategy.canary.stableService is required");
          }
          if (!hasRuleWithService(ing, service)) {
            throw new IllegalArgumentException(
                "ingress `" + name + "` does not have service `" + service + "` in rules");
          }
          Map<String, String> ann = annotations(ing);
          String key = prefix(req.trafficRouting().getAlb()) + AlbActions.ACTION_INFIX + service;
          ann.put(key, weightAction(req, desiredWeight, additional));
          manage(ann, req.name(), true, List.of(key));
          return new Desired(
              ann,
              null,
              "Updating Ingress `" + name + "` to desiredWeight '" + desiredWeight + "'");
        });
  }

  @Override
  public Future<Void> setHeaderRoute(TrafficRequest req, SetHeaderRoute route) {
    boolean add = route.getMatch() != null && !route.getMatch().isEmpty();
    String prefix = prefix(req.trafficRouting().getAlb());
    String actionKey = prefix + AlbActions.ACTION_INFIX + route.getName();
    String conditionKey = prefix + AlbActions.CONDITION_INFIX + route.getName();
    return eachIngress(
        req,
        (name, ing) -> {
          Map<String, String> ann = annotations(ing);
          List<IngressRule> rules = rules(ing);
          if (add) {
            ann.put(actionKey, headerAction(req));
            ann.put(conditionKey, headerConditions(route));
            if (!hasRuleWithService(ing, route.getName())) {
              for (IngressRule r : rules) {
                if (r.getHttp() != null && r.getHttp().getPaths() != null) {
                  r.getHttp().getPaths().add(0, headerPath(route.getName()));
                }
              }
            }
          } else {
            ann.remove(actionKey);
            ann.remove(conditionKey);
            removePaths(rules, route.getName());
          }
          manage(ann, req.name(), add, List.of(actionKey, conditionKey));
          sortPaths(rules, req.managedRoutes());
          return new Desired(
              ann,
              rules,
              "Updating Ingress `"
                  + name
                  + "` to headerRoute '"
                  + route.getName()
                  + "'"
                  + (add ? "" : " (removed)"));
        });
  }

  @Override
  public Future<Void> removeManagedRoutes(TrafficRequest req) {
    List<String> routes = req.managedRoutes();
    if (routes.isEmpty()) {
      return Future.succeededFuture();
    }
    String prefix = prefix(req.trafficRouting().getAlb());
    return eachIngress(
        req,
        (name, ing) -> {
          Map<String, String> ann = annotations(ing);
          List<IngressRule> rules = rules(ing);
          List<String> keys = new ArrayList<>();
          for (String route : routes) {
            keys.add(prefix + AlbActions.ACTION_INFIX + route);
            keys.add(prefix + AlbActions.CONDITION_INFIX + route);
            removePaths(rules, route);
          }
          keys.forEach(ann::remove);
          manage(ann, req.name(), false, keys);
          return new Desired(ann, rules, "Updating Ingress `" + name + "` removing managed routes");
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
  public Future<Void> setMirrorRoute(TrafficRequest req, SetMirrorRoute route) {
    return Future.succeededFuture();
  }

  @Override
  public Future<WeightVerification> verifyWeight(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    return verifyTargetGroups(req, desiredWeight, additional)
        .compose(
            v ->
                v.error() == null
                    ? Future.succeededFuture(v.verdict())
                    : Future.failedFuture(v.error()));
  }

  /**
   * The outcome of one weight verification.
   *
   * @param verdict the value of {@code status.canary.weights.verified}
   * @param writeStatus whether {@link #alb} and {@link #albs} are the new {@code status.alb}/{@code
   *     status.albs} (false: keep the stored ones)
   * @param alb the new {@code status.alb} (null: absent)
   * @param albs the new {@code status.albs} (null: absent)
   * @param error why AWS could not be asked (the verdict is then {@link
   *     WeightVerification#NOT_VERIFIED}), or null
   */
  public record Verification(
      WeightVerification verdict,
      boolean writeStatus,
      ALBStatus alb,
      List<ALBStatus> albs,
      String error) {

    static Verification off() {
      return new Verification(WeightVerification.NOT_IMPLEMENTED, true, null, null, null);
    }

    static Verification skipped() {
      return new Verification(WeightVerification.NOT_IMPLEMENTED, false, null, null, null);
    }
  }

  /** What a verification pass has gathered so far. */
  private static final class Gathered {
    final ALBStatus alb;
    final List<ALBStatus> albs;
    int verified;
    boolean stopped;
    String error;

    Gathered(ALBStatus alb, List<ALBStatus> albs) {
      this.alb = alb;
      this.albs = albs;
    }
  }

  /**
   * Verifies the weights against AWS, as Argo Rollouts' ALB reconciler does with {@code
   * --aws-verify-target-group} (docs/traffic-routers.md "AWS ALB"). For every Ingress in order:
   * each host name of {@code status.loadBalancer.ingress[]} is looked up among the load balancers
   * by DNS name; its target groups are matched to the canary, stable and experiment Services by the
   * resource tag ({@link AlbVerification#resourceId}); the canary group's forward weight must equal
   * {@code desiredWeight} and each experiment group's its weight. The load balancer and the canary
   * and stable groups go into {@code status.albs[i]} and {@code status.alb} (the last Ingress wins
   * there). Verified only when every Ingress's canary group and every experiment group match.
   *
   * <p>Without the flag the answer is {@link WeightVerification#NOT_IMPLEMENTED} with both status
   * fields cleared. AWS is not asked when the pass is neither at a {@code setWeight} step nor at
   * the full weight past the last step ({@link AlbVerification#shouldVerify}) and a status was
   * already recorded (it is then kept). Events: Normal {@code TargetGroupVerified}, Warning {@code
   * TargetGroupUnverified} per checked group, Warning {@code LoadBalancerNotFound} when no load
   * balancer has the host name, Warning {@code TargetGroupVerifyError} when AWS answered with an
   * error (the verdict is then false, with {@link Verification#error} set).
   *
   * @param req the Rollout
   * @param desiredWeight the canary weight just set (percent of {@code maxTrafficWeight})
   * @param additional the weighted experiment Services
   * @return a Future with the outcome; it fails only when the Kubernetes API cannot be read
   */
  public Future<Verification> verifyTargetGroups(
      TrafficRequest req, int desiredWeight, List<WeightDestination> additional) {
    if (aws == null) {
      return Future.succeededFuture(Verification.off());
    }
    RolloutStatus stored = req.rollout().getStatus();
    ALBStatus storedAlb = stored == null ? null : stored.getAlb();
    List<ALBStatus> storedAlbs = stored == null ? null : stored.getAlbs();
    if (!AlbVerification.shouldVerify(req.rollout(), desiredWeight, req.maxWeight())
        && (storedAlb != null || storedAlbs != null)) {
      return Future.succeededFuture(Verification.skipped());
    }
    List<String> names = ingresses(req.trafficRouting().getAlb());
    List<ALBStatus> albs = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      albs.add(
          storedAlbs != null && storedAlbs.size() == names.size()
              ? AlbVerification.startFrom(storedAlbs.get(i))
              : AlbVerification.emptyStatus());
    }
    Gathered g = new Gathered(AlbVerification.startFrom(storedAlb), albs);
    Future<Void> chain = Future.succeededFuture();
    for (int i = 0; i < names.size(); i++) {
      int index = i;
      chain =
          chain.compose(
              v ->
                  g.stopped
                      ? Future.succeededFuture()
                      : verifyIngress(req, g, index, names.get(index), desiredWeight, additional));
    }
    return chain.map(
        v -> {
          boolean ok = !g.stopped && g.verified == names.size() + additional.size();
          LOG.info(
              "{} ALB weight {} {}",
              req.ctx(),
              desiredWeight,
              ok ? "verified" : "not yet verified");
          return new Verification(
              ok ? WeightVerification.VERIFIED : WeightVerification.NOT_VERIFIED,
              true,
              g.alb,
              g.albs,
              g.error);
        });
  }

  private Future<Void> verifyIngress(
      TrafficRequest req,
      Gathered g,
      int index,
      String name,
      int desiredWeight,
      List<WeightDestination> additional) {
    return api.get(Ingress.class, req.namespace(), name)
        .compose(
            ing -> {
              if (ing == null) {
                g.stopped = true;
                g.error = "ingress `" + name + "` not found";
                return Future.succeededFuture();
              }
              int port =
                  req.trafficRouting().getAlb().getServicePort() == null
                      ? 0
                      : req.trafficRouting().getAlb().getServicePort();
              String canaryId =
                  AlbVerification.resourceId(req.namespace(), name, req.canaryService(), port);
              String stableId =
                  AlbVerification.resourceId(req.namespace(), name, req.stableService(), port);
              Map<String, WeightDestination> byId = new HashMap<>();
              for (WeightDestination d : additional) {
                byId.put(
                    AlbVerification.resourceId(req.namespace(), name, d.getServiceName(), port), d);
              }
              List<String> hosts = hostnames(ing);
              if (hosts.isEmpty()) {
                LOG.info(
                    "{} ALB Ingress {}: load balancer not yet allocated (no status.loadBalancer.ingress[].hostname)",
                    req.ctx(),
                    name);
              }
              Future<Void> chain = Future.succeededFuture();
              for (String host : hosts) {
                chain =
                    chain.compose(
                        v ->
                            g.stopped
                                ? Future.succeededFuture()
                                : verifyHost(
                                    req,
                                    g,
                                    index,
                                    name,
                                    host,
                                    canaryId,
                                    stableId,
                                    desiredWeight,
                                    byId));
              }
              return chain;
            });
  }

  private Future<Void> verifyHost(
      TrafficRequest req,
      Gathered g,
      int index,
      String ingress,
      String host,
      String canaryId,
      String stableId,
      int desiredWeight,
      Map<String, WeightDestination> byId) {
    String canaryService = req.canaryService();
    return aws.findByDnsName(host)
        .compose(
            found -> {
              if (found.isEmpty()) {
                String msg =
                    "Failed to find load balancer: " + host + " (ingress `" + ingress + "`)";
                LOG.warn("{} {}", req.ctx(), msg);
                events.warning(req.rollout(), AlbVerification.NOT_FOUND_REASON, msg);
                g.stopped = true;
                return Future.succeededFuture();
              }
              LoadBalancerProvider.LoadBalancer lb = found.get();
              AlbVerification.recordLoadBalancer(g.albs.get(index), ingress, lb);
              AlbVerification.recordLoadBalancer(g.alb, ingress, lb);
              return aws.targetGroups(lb.arn())
                  .map(
                      groups -> {
                        for (LoadBalancerProvider.TargetGroup tg : groups) {
                          AlbVerification.recordTargetGroup(
                              g.albs.get(index), tg, canaryId, stableId);
                          AlbVerification.recordTargetGroup(g.alb, tg, canaryId, stableId);
                        }
                        for (AlbVerification.Check c :
                            AlbVerification.checks(
                                groups, canaryId, canaryService, desiredWeight, byId)) {
                          LOG.info("{} ALB Ingress {}: {}", req.ctx(), ingress, c.message());
                          if (c.verified()) {
                            g.verified++;
                            events.normal(
                                req.rollout(), AlbVerification.VERIFIED_REASON, c.message());
                          } else {
                            events.warning(
                                req.rollout(), AlbVerification.UNVERIFIED_REASON, c.message());
                          }
                        }
                        return (Void) null;
                      });
            })
        .recover(
            err -> {
              String reason =
                  "ingress `" + ingress + "`, load balancer " + host + ": " + err.getMessage();
              LOG.warn("{} ALB target-group verification failed: {}", req.ctx(), reason);
              events.warning(
                  req.rollout(),
                  AlbVerification.VERIFY_ERROR_REASON,
                  "Failed to verify Service "
                      + canaryService
                      + " (TargetGroup unknown): "
                      + reason);
              g.stopped = true;
              g.error = reason;
              return Future.succeededFuture();
            });
  }

  /**
   * The load balancer host names the AWS Load Balancer Controller wrote on an Ingress.
   *
   * @param ing the Ingress
   * @return the non-empty {@code status.loadBalancer.ingress[].hostname} values, in order
   */
  static List<String> hostnames(Ingress ing) {
    List<String> out = new ArrayList<>();
    if (ing.getStatus() != null
        && ing.getStatus().getLoadBalancer() != null
        && ing.getStatus().getLoadBalancer().getIngress() != null) {
      for (var lb : ing.getStatus().getLoadBalancer().getIngress()) {
        if (lb.getHostname() != null && !lb.getHostname().isEmpty()) {
          out.add(lb.getHostname());
        }
      }
    }
    return out;
  }

  /**
   * Releases the Ingresses of a deleted Rollout (as Argo's Ingress controller does): on every
   * Ingress of the namespace whose bookkeeping annotation lists the Rollout, each action it managed
   * whose Service is one of that action's own target groups is reset to send 100% to that Service
   * (port and stickiness kept), the Rollout's entry is removed from the bookkeeping (the annotation
   * itself when it was the last one), and the earlier {@code managed-alb-actions} annotation is
   * removed. Other managed annotations (header routes, an action of a {@code rootService} that is
   * not a target group) are left as they are.
   *
   * @param namespace the Rollout's namespace
   * @param rollout the Rollout's name (missing from the cache; nothing is done when the API server
   *     still has it)
   * @return a Future completing when every such Ingress is patched; fails with the first API or
   *     parse error
   */
  public Future<Void> releaseAfterDeletion(String namespace, String rollout) {
    return api.list(Ingress.class, namespace)
        .compose(
            all -> {
              List<Ingress> managed = new ArrayList<>();
              for (Ingress ing : all) {
                String value = annotations(ing).get(AlbActions.MANAGED_ANNOTATIONS);
                if (value != null && value.contains("\"" + rollout + "\"")) {
                  managed.add(ing);
                }
              }
              if (managed.isEmpty()) {
                return Future.succeededFuture();
              }
              return api.get(Rollout.class, namespace, rollout)
                  .compose(
                      existing ->
                          existing != null
                              ? Future.succeededFuture()
                              : reset(namespace, rollout, managed));
            });
  }

  private Future<Void> reset(String namespace, String rollout, List<Ingress> managed) {
    Future<Void> chain = Future.succeededFuture();
    for (Ingress ing : managed) {
      chain =
          chain.compose(
              v -> {
                String patch;
                try {
                  patch = patch(ing, released(ing, rollout), null);
                } catch (IllegalArgumentException e) {
                  return Future.failedFuture(
                      "ingress `" + ing.getMetadata().getName() + "`: " + e.getMessage());
                }
                if (patch == null) {
                  return Future.succeededFuture();
                }
                LOG.info(
                    "Rollout {}/{} deleted: resetting ALB Ingress {}",
                    namespace,
                    rollout,
                    ing.getMetadata().getName());
                return api.patch(Ingress.class, namespace, ing.getMetadata().getName(), null, patch)
                    .mapEmpty();
              });
    }
    return chain;
  }

  /**
   * The annotations of an Ingress once a deleted Rollout is released from it (pure; exposed for
   * unit tests).
   *
   * @param ing the Ingress
   * @param rollout the deleted Rollout's name
   * @return the complete desired annotations
   * @throws IllegalArgumentException when the bookkeeping annotation cannot be read
   */
  static Map<String, String> released(Ingress ing, String rollout) {
    Map<String, String> ann = annotations(ing);
    Map<String, List<String>> managed =
        AlbActions.parseManaged(ann.get(AlbActions.MANAGED_ANNOTATIONS));
    List<String> keys = managed.remove(rollout);
    if (keys == null) {
      return ann;
    }
    for (String key : keys) {
      int at = key.indexOf(AlbActions.ACTION_INFIX);
      if (at < 0 || !ann.containsKey(key)) {
        continue;
      }
      String service = key.substring(at + AlbActions.ACTION_INFIX.length());
      List<AlbActions.TargetGroup> groups;
      try {
        groups = AlbActions.parseTargetGroups(ann.get(key));
      } catch (IllegalArgumentException e) {
        continue;
      }
      for (AlbActions.TargetGroup g : groups) {
        if (service.equals(g.serviceName()) && !g.servicePort().isEmpty()) {
          ann.put(
              key,
              AlbActions.forwardAction(
                  List.of(new AlbActions.TargetGroup(service, g.servicePort(), 100)),
                  AlbActions.parseStickiness(ann.get(key))));
          break;
        }
      }
    }
    if (managed.isEmpty()) {
      ann.remove(AlbActions.MANAGED_ANNOTATIONS);
    } else {
      ann.put(AlbActions.MANAGED_ANNOTATIONS, AlbActions.formatManaged(managed));
    }
    ann.remove(AlbActions.MANAGED_ACTIONS_LEGACY);
    return ann;
  }

  /**
   * What one Ingress should look like: all annotations, the rules (null: leave them), and the event
   * message.
   */
  private record Desired(
      Map<String, String> annotations, List<IngressRule> rules, String message) {}

  /** Reads each Ingress in order, computes its desired state and patches what differs. */
  private Future<Void> eachIngress(TrafficRequest req, BiFunction<String, Ingress, Desired> want) {
    Future<Void> chain = Future.succeededFuture();
    for (String name : ingresses(req.trafficRouting().getAlb())) {
      chain =
          chain.compose(
              v ->
                  api.get(Ingress.class, req.namespace(), name)
                      .compose(
                          ing -> {
                            if (ing == null) {
                              return Future.failedFuture("ingress `" + name + "` not found");
                            }
                            Desired d;
                            try {
                              d = want.apply(name, ing);
                            } catch (IllegalArgumentException e) {
                              return Future.failedFuture(e.getMessage());
                            }
                            return apply(req, ing, d);
                          }));
    }
    return chain;
  }

  private Future<Void> apply(TrafficRequest req, Ingress ing, Desired d) {
    String patch = patch(ing, d.annotations(), d.rules());
    if (patch == null) {
      LOG.debug("{} ALB Ingress {} already up to date", req.ctx(), ing.getMetadata().getName());
      return Future.succeededFuture();
    }
    LOG.info("{} {}", req.ctx(), d.message());
    events.normal(req.rollout(), "PatchingALBIngress", d.message());
    return api.patch(Ingress.class, req.namespace(), ing.getMetadata().getName(), null, patch)
        .recover(
            err ->
                Future.failedFuture(
                    "error patching alb ingress `"
                        + ing.getMetadata().getName()
                        + "`: "
                        + err.getMessage()))
        .mapEmpty();
  }

  /**
   * The JSON merge patch that takes an Ingress to the desired annotations and rules, with its
   * resourceVersion.
   *
   * @param ing the stored Ingress
   * @param annotations the complete desired annotations
   * @param rules the desired {@code spec.rules}, or null to leave them
   * @return the patch, or null when nothing differs
   */
  static String patch(Ingress ing, Map<String, String> annotations, List<IngressRule> rules) {
    Map<String, String> have =
        ing.getMetadata().getAnnotations() == null ? Map.of() : ing.getMetadata().getAnnotations();
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode meta = patch.putObject("metadata");
    ObjectNode ann = JSON.createObjectNode();
    annotations.forEach(
        (k, v) -> {
          if (!v.equals(have.get(k))) {
            ann.put(k, v);
          }
        });
    for (String k : have.keySet()) {
      if (!annotations.containsKey(k)) {
        ann.putNull(k);
      }
    }
    boolean changed = !ann.isEmpty();
    if (changed) {
      meta.set("annotations", ann);
    }
    if (rules != null) {
      JsonNode want = JSON.valueToTree(rules);
      JsonNode current =
          JSON.valueToTree(
              ing.getSpec() == null || ing.getSpec().getRules() == null
                  ? List.of()
                  : ing.getSpec().getRules());
      if (!Objects.equals(want, current)) {
        patch.putObject("spec").set("rules", want);
        changed = true;
      }
    }
    if (!changed) {
      return null;
    }
    meta.put("resourceVersion", ing.getMetadata().getResourceVersion());
    return patch.toString();
  }

  private static Map<String, String> annotations(Ingress ing) {
    return ing.getMetadata().getAnnotations() == null
        ? new LinkedHashMap<>()
        : new LinkedHashMap<>(ing.getMetadata().getAnnotations());
  }

  private static List<IngressRule> rules(Ingress ing) {
    if (ing.getSpec() == null || ing.getSpec().getRules() == null) {
      return new ArrayList<>();
    }
    List<IngressRule> copy = new ArrayList<>();
    for (IngressRule r : ing.getSpec().getRules()) {
      IngressRule c = ModelJson.deepCopy(r);
      if (c.getHttp() != null && c.getHttp().getPaths() != null) {
        c.getHttp().setPaths(new ArrayList<>(c.getHttp().getPaths()));
      }
      copy.add(c);
    }
    return copy;
  }

  /**
   * Whether a rule of the Ingress routes a path to the Service.
   *
   * @param ing the Ingress
   * @param service the Service name
   * @return true when some {@code spec.rules[].http.paths[].backend.service.name} is {@code
   *     service}
   */
  static boolean hasRuleWithService(Ingress ing, String service) {
    for (IngressRule r : rules(ing)) {
      if (r.getHttp() != null && r.getHttp().getPaths() != null) {
        for (HTTPIngressPath p : r.getHttp().getPaths()) {
          if (service.equals(serviceOf(p))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static String serviceOf(HTTPIngressPath p) {
    return p.getBackend() == null || p.getBackend().getService() == null
        ? null
        : p.getBackend().getService().getName();
  }

  static HTTPIngressPath headerPath(String route) {
    return new HTTPIngressPathBuilder()
        .withPath(HEADER_ROUTE_PATH)
        .withPathType("ImplementationSpecific")
        .withNewBackend()
        .withNewService()
        .withName(route)
        .withNewPort()
        .withName(USE_ANNOTATION)
        .endPort()
        .endService()
        .endBackend()
        .build();
  }

  private static void removePaths(List<IngressRule> rules, String service) {
    for (IngressRule r : rules) {
      if (r.getHttp() != null && r.getHttp().getPaths() != null) {
        r.getHttp().getPaths().removeIf(p -> service.equals(serviceOf(p)));
      }
    }
  }

  /**
   * Managed-route paths first, in {@code managedRoutes} order; other paths keep their order after
   * them.
   */
  private static void sortPaths(List<IngressRule> rules, List<String> managedRoutes) {
    Map<String, Integer> rank = new HashMap<>();
    for (int i = 0; i < managedRoutes.size(); i++) {
      rank.put(managedRoutes.get(i), i);
    }
    int last = managedRoutes.size();
    for (IngressRule r : rules) {
      if (r.getHttp() != null && r.getHttp().getPaths() != null) {
        r.getHttp()
            .getPaths()
            .sort(Comparator.comparingInt(p -> rank.getOrDefault(serviceOf(p), last)));
      }
    }
  }
}
