package io.rollgate.controller.traffic;

import io.rollgate.api.ALBStatus;
import io.rollgate.api.AwsResourceRef;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.aws.LoadBalancerProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The pure rules of ALB target-group weight verification ({@code --aws-verify-target-group},
 * docs/traffic-routers.md "AWS ALB"), kept apart from the AWS calls so that they can be tested
 * alone: which target group belongs to which Service, what {@code status.alb} holds, when a pass
 * needs to ask AWS at all, and which weights count as verified.
 */
public final class AlbVerification {

  /**
   * The tag the AWS Load Balancer Controller puts on every target group it creates for an Ingress
   * backend ({@code --alb-tag-key-resource-id} in Argo Rollouts, default {@code
   * ingress.k8s.aws/resource}).
   */
  public static final String RESOURCE_TAG = "ingress.k8s.aws/resource";

  /** Event reason when a weight (or target registration) matches, as Argo Rollouts. */
  public static final String VERIFIED_REASON = "TargetGroupVerified";

  /** Warning reason when a weight (or target registration) does not match yet, as Argo Rollouts. */
  public static final String UNVERIFIED_REASON = "TargetGroupUnverified";

  /** Warning reason when AWS could not be asked, as Argo Rollouts. */
  public static final String VERIFY_ERROR_REASON = "TargetGroupVerifyError";

  /** Warning reason when no load balancer has the Ingress's host name, as Argo Rollouts. */
  public static final String NOT_FOUND_REASON = "LoadBalancerNotFound";

  private AlbVerification() {}

  /**
   * The value of the resource tag on the target group of one Ingress backend: {@code
   * <namespace>/<ingress>-<service>:<port>} (the AWS Load Balancer Controller's target-group
   * resource id).
   *
   * @param namespace the Ingress's namespace
   * @param ingress the Ingress name
   * @param service the backend Service name
   * @param port the backend port ({@code trafficRouting.alb.servicePort})
   * @return the tag value
   */
  public static String resourceId(String namespace, String ingress, String service, int port) {
    return namespace + "/" + ingress + "-" + service + ":" + port;
  }

  /**
   * The full name of a load balancer ({@code status.alb.loadBalancer.fullName}) as Argo Rollouts
   * computes it: the ARN's {@code /}-separated parts from the third on, e.g. {@code
   * my-alb/50dc6c495c0c9188} for {@code ...:loadbalancer/app/my-alb/50dc6c495c0c9188} (the type
   * segment {@code app} is dropped too).
   *
   * @param arn the load balancer ARN
   * @return the full name, or empty when the ARN has fewer than three {@code /}-separated parts
   */
  public static String loadBalancerFullName(String arn) {
    String[] parts = arn.split("/", -1);
    return parts.length > 2 ? String.join("/", List.of(parts).subList(2, parts.length)) : "";
  }

  /**
   * The full name of a target group ({@code status.alb.canaryTargetGroup.fullName}) as Argo
   * Rollouts computes it: the ARN's {@code /}-separated parts from the second on, e.g. {@code
   * web-canary/73e2d6bc24d8a067} for {@code ...:targetgroup/web-canary/73e2d6bc24d8a067}.
   *
   * @param arn the target group ARN
   * @return the full name, or empty when the ARN has no {@code /}
   */
  public static String targetGroupFullName(String arn) {
    String[] parts = arn.split("/", -1);
    return parts.length > 1 ? String.join("/", List.of(parts).subList(1, parts.length)) : "";
  }

  /**
   * Whether a pass should ask AWS (Argo's {@code ShouldVerifyWeight}): during an update (a stable
   * ReplicaSet exists and is not the current one) at a {@code setWeight} step, or past the last
   * step at the full weight. The status is the stored one, as read at the start of the pass.
   *
   * @param rollout the Rollout
   * @param desiredWeight the canary weight just set
   * @param maxWeight the total weight ({@code trafficRouting.maxTrafficWeight}, default 100)
   * @return true when the weights should be checked against AWS
   */
  public static boolean shouldVerify(Rollout rollout, int desiredWeight, int maxWeight) {
    RolloutStatus s = rollout.getStatus();
    if (s == null
        || s.getStableRS() == null
        || s.getStableRS().isEmpty()
        || Objects.equals(s.getStableRS(), s.getCurrentPodHash())) {
      return false;
    }
    List<CanaryStep> steps = rollout.getSpec().getStrategy().getCanary().getSteps();
    if (steps == null || steps.isEmpty()) {
      return false;
    }
    int index = s.getCurrentStepIndex() == null ? 0 : s.getCurrentStepIndex();
    if (index < steps.size()) {
      return steps.get(index).getSetWeight() != null;
    }
    return desiredWeight == maxWeight;
  }

  /**
   * A fresh entry of {@code status.alb}/{@code status.albs[]}: the three references present with
   * empty strings, as Argo Rollouts writes a not yet filled entry.
   *
   * @return the entry
   */
  public static ALBStatus emptyStatus() {
    ALBStatus s = new ALBStatus();
    s.setLoadBalancer(ref("", "", ""));
    s.setCanaryTargetGroup(ref("", "", ""));
    s.setStableTargetGroup(ref("", "", ""));
    return s;
  }

  /**
   * The entry to start from: a copy of the stored one, or {@link #emptyStatus()}.
   *
   * @param stored the stored entry, or null
   * @return a copy the caller may change
   */
  public static ALBStatus startFrom(ALBStatus stored) {
    if (stored == null) {
      return emptyStatus();
    }
    ALBStatus copy = ModelJson.deepCopy(stored);
    if (copy.getLoadBalancer() == null) {
      copy.setLoadBalancer(ref("", "", ""));
    }
    if (copy.getCanaryTargetGroup() == null) {
      copy.setCanaryTargetGroup(ref("", "", ""));
    }
    if (copy.getStableTargetGroup() == null) {
      copy.setStableTargetGroup(ref("", "", ""));
    }
    return copy;
  }

  /**
   * Records the load balancer in a status entry.
   *
   * @param status the entry (changed in place)
   * @param ingress the Ingress the load balancer serves
   * @param lb the load balancer
   */
  public static void recordLoadBalancer(
      ALBStatus status, String ingress, LoadBalancerProvider.LoadBalancer lb) {
    status.setIngress(ingress);
    status.setLoadBalancer(ref(lb.name(), lb.arn(), loadBalancerFullName(lb.arn())));
  }

  /**
   * Records a target group in a status entry when its resource tag is the canary's or the stable's.
   *
   * @param status the entry (changed in place)
   * @param tg the target group
   * @param canaryId the canary backend's resource id ({@link #resourceId})
   * @param stableId the stable backend's resource id
   */
  public static void recordTargetGroup(
      ALBStatus status, LoadBalancerProvider.TargetGroup tg, String canaryId, String stableId) {
    String id = tg.tags().get(RESOURCE_TAG);
    if (id == null) {
      return;
    }
    AwsResourceRef r = ref(tg.name(), tg.arn(), targetGroupFullName(tg.arn()));
    if (id.equals(canaryId)) {
      status.setCanaryTargetGroup(r);
    } else if (id.equals(stableId)) {
      status.setStableTargetGroup(r);
    }
  }

  /**
   * What one target group says about the desired weights.
   *
   * @param service the Service whose weight it carries
   * @param arn the target group ARN
   * @param desired the weight the Rollout set
   * @param current the weight in AWS
   */
  public record Check(String service, String arn, int desired, int current) {

    /**
     * Whether AWS applies the desired weight.
     *
     * @return true when the weights are equal
     */
    public boolean verified() {
      return desired == current;
    }

    /**
     * The event message, as Argo Rollouts words it.
     *
     * @return {@code Service <svc> (TargetGroup <arn>) verified: canary weight <w> set}, or the
     *     {@code not verified: ... not yet set (current: <c>)} form
     */
    public String message() {
      return verified()
          ? "Service "
              + service
              + " (TargetGroup "
              + arn
              + ") verified: canary weight "
              + desired
              + " set"
          : "Service "
              + service
              + " (TargetGroup "
              + arn
              + ") not verified: canary weight "
              + desired
              + " not yet set (current: "
              + current
              + ")";
    }
  }

  /**
   * The weight checks of one load balancer's target groups: the canary group against the canary
   * weight, each weighted experiment Service's group against its weight. Groups without a
   * forward-action weight, or with another resource tag (the stable group among them: its weight is
   * whatever is left), are not checked, as in Argo Rollouts.
   *
   * @param groups the load balancer's target groups
   * @param canaryId the canary backend's resource id
   * @param canaryService the canary Service name
   * @param desiredWeight the canary weight
   * @param additional resource id to experiment destination (Service name and weight)
   * @return the checks, in the order of {@code groups}
   */
  public static List<Check> checks(
      List<LoadBalancerProvider.TargetGroup> groups,
      String canaryId,
      String canaryService,
      int desiredWeight,
      Map<String, WeightDestination> additional) {
    List<Check> out = new ArrayList<>();
    for (LoadBalancerProvider.TargetGroup tg : groups) {
      if (tg.weight() == null) {
        continue;
      }
      String id = tg.tags().get(RESOURCE_TAG);
      if (id == null) {
        continue;
      }
      if (id.equals(canaryId)) {
        out.add(new Check(canaryService, tg.arn(), desiredWeight, tg.weight()));
      } else if (additional.containsKey(id)) {
        WeightDestination d = additional.get(id);
        out.add(
            new Check(
                d.getServiceName(),
                tg.arn(),
                d.getWeight() == null ? 0 : d.getWeight(),
                tg.weight()));
      }
    }
    return out;
  }

  private static AwsResourceRef ref(String name, String arn, String fullName) {
    AwsResourceRef r = new AwsResourceRef();
    r.setName(name == null ? "" : name);
    r.setArn(arn == null ? "" : arn);
    r.setFullName(fullName);
    return r;
  }
}
