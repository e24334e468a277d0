package io.rollgate.controller.aws;

import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The AWS Elastic Load Balancing v2 reads the ALB target-group verification needs (controller flag
 * {@code --aws-verify-target-group}, docs/traffic-routers.md "AWS ALB"): find a load balancer by
 * DNS name, list its target groups with their tags and the weights its listener rules give them,
 * and list the targets registered in a target group. Read-only: nothing in AWS is ever changed.
 *
 * <p>Every method returns at once; a failed Future carries the AWS error (no credentials, access
 * denied, throttling, an unreachable endpoint) with a message that names the API call.
 */
public interface LoadBalancerProvider {

  /**
   * A load balancer as {@code DescribeLoadBalancers} answers it.
   *
   * @param name {@code LoadBalancerName}
   * @param arn {@code LoadBalancerArn}
   * @param dnsName {@code DNSName}
   */
  record LoadBalancer(String name, String arn, String dnsName) {}

  /**
   * A target group of a load balancer with its tags and the weight a listener rule's forward action
   * gives it.
   *
   * @param name {@code TargetGroupName}
   * @param arn {@code TargetGroupArn}
   * @param tags the target group's tags, key to value
   * @param weight the weight in the last forward action (over all listeners and rules) naming the
   *     group, or null when no forward action names it
   */
  record TargetGroup(String name, String arn, Map<String, String> tags, Integer weight) {}

  /**
   * A target registered in a target group ({@code DescribeTargetHealth}): a pod IP (target type
   * {@code ip}) or an instance id, with its port.
   *
   * @param id {@code Target.Id}
   * @param port {@code Target.Port}
   */
  record Target(String id, int port) {}

  /**
   * Finds the load balancer whose DNS name is {@code dnsName} ({@code DescribeLoadBalancers}, every
   * page).
   *
   * @param dnsName the host name the AWS Load Balancer Controller wrote on the Ingress status
   * @return a Future with the load balancer, or empty when none has that DNS name; failed on an AWS
   *     error
   */
  Future<Optional<LoadBalancer>> findByDnsName(String dnsName);

  /**
   * Lists the target groups of a load balancer ({@code DescribeTargetGroups}), with their tags
   * ({@code DescribeTags}, at most 20 ARNs a call) and the weights of the forward actions of every
   * rule of every listener ({@code DescribeListeners}, {@code DescribeRules}).
   *
   * @param loadBalancerArn the load balancer
   * @return a Future with the target groups in the order AWS lists them; failed on an AWS error
   */
  Future<List<TargetGroup>> targetGroups(String loadBalancerArn);

  /**
   * Lists the targets registered in a target group ({@code DescribeTargetHealth}), whatever their
   * health.
   *
   * @param targetGroupArn the target group
   * @return a Future with the targets; failed on an AWS error
   */
  Future<List<Target>> targets(String targetGroupArn);
}
