package io.rollgate.controller.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.EndpointAddress;
import io.fabric8.kubernetes.api.model.EndpointPort;
import io.fabric8.kubernetes.api.model.EndpointSubset;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.controller.aws.LoadBalancerProvider;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.runtime.ReconcileContext;
import io.rollgate.kube.KubeApiException;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Target registration check of {@code --aws-verify-target-group} (docs/traffic-routers.md "AWS
 * ALB", as Argo Rollouts' {@code awsVerifyTargetGroups}): before the previous pods of a Service go
 * away, every endpoint of the Service must be registered in the AWS target group of each {@code
 * TargetGroupBinding} ({@code elbv2.k8s.aws/v1beta1}) that binds it with target type {@code ip}.
 * Registration is enough; target health is not looked at.
 *
 * <p>Used after a canary's full promotion (stable Service, before old ReplicaSets get their
 * scale-down deadline) and after a blue-green active switch (active Service, before the new
 * ReplicaSet becomes stable and post-promotion analysis starts).
 */
public final class TargetGroupVerifier {

  /** The apiVersion of the AWS Load Balancer Controller's TargetGroupBinding. */
  public static final String TARGET_GROUP_BINDING_API_VERSION = "elbv2.k8s.aws/v1beta1";

  /** Its kind. */
  public static final String TARGET_GROUP_BINDING_KIND = "TargetGroupBinding";

  private static final Logger LOG = LoggerFactory.getLogger(TargetGroupVerifier.class);

  private final KubeApi api;
  private final EventRecorder events;
  private final LoadBalancerProvider aws;

  /**
   * Creates the verifier.
   *
   * @param api the API facade (TargetGroupBindings, Endpoints)
   * @param events the event recorder ({@code TargetGroupVerified}, {@code TargetGroupUnverified},
   *     {@code TargetGroupVerifyError})
   * @param aws the AWS reads
   */
  public TargetGroupVerifier(KubeApi api, EventRecorder events, LoadBalancerProvider aws) {
    this.api = api;
    this.events = events;
    this.aws = aws;
  }

  /**
   * The parts of a TargetGroupBinding the check reads.
   *
   * @param name its name
   * @param targetGroupArn {@code spec.targetGroupARN}
   * @param targetType {@code spec.targetType} ({@code ip}, {@code instance}), or null
   * @param serviceName {@code spec.serviceRef.name}
   * @param portNumber {@code spec.serviceRef.port} when a number, else 0
   * @param portName {@code spec.serviceRef.port} when a name, else null
   */
  public record Binding(
      String name,
      String targetGroupArn,
      String targetType,
      String serviceName,
      int portNumber,
      String portName) {

    /**
     * Reads a TargetGroupBinding.
     *
     * @param r the object
     * @return the binding (missing fields empty)
     */
    public static Binding of(GenericKubernetesResource r) {
      JsonNode spec = ModelJson.toTree(r).path("spec");
      JsonNode port = spec.path("serviceRef").path("port");
      return new Binding(
          r.getMetadata().getName(),
          spec.path("targetGroupARN").asText(""),
          spec.hasNonNull("targetType") ? spec.get("targetType").asText() : null,
          spec.path("serviceRef").path("name").asText(""),
          port.isNumber() ? port.asInt() : 0,
          port.isTextual() ? port.asText() : null);
    }

    /**
     * Whether it binds a port of the Service (by number or by name), as Argo Rollouts matches them.
     *
     * @param svc the Service
     * @return true when {@code serviceRef} names the Service and one of its ports
     */
    public boolean binds(Service svc) {
      if (!serviceName.equals(svc.getMetadata().getName())
          || svc.getSpec() == null
          || svc.getSpec().getPorts() == null) {
        return false;
      }
      for (ServicePort p : svc.getSpec().getPorts()) {
        if (portNumber > 0 && p.getPort() != null && p.getPort() == portNumber) {
          return true;
        }
        if (portName != null && !portName.isEmpty() && portName.equals(p.getName())) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * The container port the target group's targets use: the bound Service port's numeric {@code
   * targetPort}, or, for a named one, the Endpoints port of that name.
   *
   * @param b the binding
   * @param svc the Service
   * @param endpoints its Endpoints (may be null)
   * @return the port, or 0 when the binding's port matches no Service port
   */
  public static int targetPort(Binding b, Service svc, Endpoints endpoints) {
    for (ServicePort p : svc.getSpec().getPorts()) {
      boolean match =
          (b.portNumber() > 0 && p.getPort() != null && p.getPort() == b.portNumber())
              || (b.portName() != null && b.portName().equals(p.getName()));
      if (!match) {
        continue;
      }
      if (p.getTargetPort() != null
          && p.getTargetPort().getIntVal() != null
          && p.getTargetPort().getIntVal() > 0) {
        return p.getTargetPort().getIntVal();
      }
      String named = p.getTargetPort() == null ? null : p.getTargetPort().getStrVal();
      for (EndpointSubset s : subsets(endpoints)) {
        for (EndpointPort ep : s.getPorts() == null ? List.<EndpointPort>of() : s.getPorts()) {
          if (named != null && named.equals(ep.getName()) && ep.getPort() != null) {
            return ep.getPort();
          }
        }
      }
    }
    return 0;
  }

  /**
   * How many of the Service's endpoints are registered in the target group.
   *
   * @param registered how many {@code <ip>:<port>} endpoints are among the targets
   * @param total how many endpoints the Service has
   */
  public record Registration(int registered, int total) {

    /**
     * Whether every endpoint is registered.
     *
     * @return true when none is missing
     */
    public boolean verified() {
      return registered == total;
    }
  }

  /**
   * Compares the Service's ready endpoint addresses (at the target port) with the registered
   * targets; targets that are no endpoint (old pods still draining) are ignored.
   *
   * @param endpoints the Service's Endpoints (may be null)
   * @param port the target port ({@link #targetPort})
   * @param targets the target group's targets
   * @return the counts
   */
  public static Registration registration(
      Endpoints endpoints, int port, List<LoadBalancerProvider.Target> targets) {
    Set<String> wanted = new LinkedHashSet<>();
    for (EndpointSubset s : subsets(endpoints)) {
      for (EndpointAddress a :
          s.getAddresses() == null ? List.<EndpointAddress>of() : s.getAddresses()) {
        wanted.add(a.getIp() + ":" + port);
      }
    }
    Set<String> seen = new HashSet<>();
    for (LoadBalancerProvider.Target t : targets) {
      String key = t.id() + ":" + t.port();
      if (wanted.contains(key)) {
        seen.add(key);
      }
    }
    return new Registration(seen.size(), wanted.size());
  }

  private static List<EndpointSubset> subsets(Endpoints endpoints) {
    return endpoints == null || endpoints.getSubsets() == null ? List.of() : endpoints.getSubsets();
  }

  /**
   * Checks the TargetGroupBindings of a Service.
   *
   * @param ctx the reconcile context, for logs
   * @param rollout the Rollout the events go to
   * @param svc the Service whose endpoints must be registered
   * @return a Future with null when nothing is to verify (no binding of target type {@code ip}),
   *     true when every binding's target group has every endpoint, false otherwise (events say
   *     which); failed when the API server or AWS could not be read (after a {@code
   *     TargetGroupVerifyError} event when AWS failed)
   */
  public Future<Boolean> verify(ReconcileContext ctx, Rollout rollout, Service svc) {
    String ns = svc.getMetadata().getNamespace();
    return api.listGeneric(TARGET_GROUP_BINDING_API_VERSION, TARGET_GROUP_BINDING_KIND, ns)
        .recover(
            err -> {
              if (!KubeApiException.isNotFound(err)) {
                return Future.failedFuture(err);
              }
              // Without the AWS Load Balancer Controller's CRD there is nothing that could be
              // verified.
              LOG.debug(
                  "{} TargetGroupBindings not served ({}); nothing to verify",
                  ctx,
                  err.getMessage());
              return Future.succeededFuture(List.of());
            })
        .compose(
            all -> {
              List<Binding> bindings = new ArrayList<>();
              for (GenericKubernetesResource r : all) {
                Binding b = Binding.of(r);
                if (b.binds(svc)) {
                  bindings.add(b);
                }
              }
              if (bindings.isEmpty()) {
                return Future.succeededFuture(null);
              }
              return api.get(Endpoints.class, ns, svc.getMetadata().getName())
                  .compose(endpoints -> check(ctx, rollout, svc, endpoints, bindings, 0, null));
            });
  }

  private Future<Boolean> check(
      ReconcileContext ctx,
      Rollout rollout,
      Service svc,
      Endpoints endpoints,
      List<Binding> bindings,
      int i,
      Boolean sofar) {
    if (i >= bindings.size()) {
      return Future.succeededFuture(sofar);
    }
    Binding b = bindings.get(i);
    String service = svc.getMetadata().getName();
    if (!"ip".equals(b.targetType())) {
      return check(ctx, rollout, svc, endpoints, bindings, i + 1, sofar);
    }
    int port = targetPort(b, svc, endpoints);
    if (port == 0) {
      LOG.warn(
          "{} TargetGroupBinding {}: spec.serviceRef.port matches no port of Service {}",
          ctx,
          b.name(),
          service);
      return check(ctx, rollout, svc, endpoints, bindings, i + 1, sofar);
    }
    return aws.targets(b.targetGroupArn())
        .recover(
            err -> {
              events.warning(
                  rollout,
                  AlbVerification.VERIFY_ERROR_REASON,
                  "Failed to verify Service "
                      + service
                      + " (TargetGroup "
                      + b.targetGroupArn()
                      + "): "
                      + err.getMessage());
              return Future.failedFuture(err);
            })
        .compose(
            targets -> {
              Registration r = registration(endpoints, port, targets);
              LOG.info(
                  "{} Service {} (TargetGroup {}): {}/{} endpoints registered",
                  ctx,
                  service,
                  b.targetGroupArn(),
                  r.registered(),
                  r.total());
              if (!r.verified()) {
                events.warning(
                    rollout,
                    AlbVerification.UNVERIFIED_REASON,
                    "Service "
                        + service
                        + " (TargetGroup "
                        + b.targetGroupArn()
                        + ") not verified: "
                        + r.registered()
                        + "/"
                        + r.total()
                        + " endpoints registered");
                return Future.succeededFuture(false);
              }
              events.normal(
                  rollout,
                  AlbVerification.VERIFIED_REASON,
                  "Service "
                      + service
                      + " (TargetGroup "
                      + b.targetGroupArn()
                      + ") verified: "
                      + r.registered()
                      + " endpoints registered");
              return check(ctx, rollout, svc, endpoints, bindings, i + 1, true);
            });
  }
}
