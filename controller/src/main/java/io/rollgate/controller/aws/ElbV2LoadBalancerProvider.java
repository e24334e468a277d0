package io.rollgate.controller.aws;

import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2AsyncClient;
import software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2AsyncClientBuilder;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.Action;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.Listener;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.Rule;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TagDescription;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetGroupTuple;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetHealthDescription;

/**
 * {@link LoadBalancerProvider} on the AWS SDK for Java v2 ({@code elasticloadbalancingv2}),
 * configured as the CloudWatch metric provider is (docs/metric-providers.md): the SDK's default
 * chains give the region ({@code AWS_REGION} or the profile), the credentials (environment, web
 * identity / IRSA, profile, instance profile) and the endpoint ({@code
 * AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2} or {@code AWS_ENDPOINT_URL} when set). Transport,
 * worker pool and timeouts are those of {@link AwsSdkClient} (the SDK's retries back off on
 * throttling).
 */
public final class ElbV2LoadBalancerProvider implements LoadBalancerProvider {

  /** {@code DescribeLoadBalancers} page size, as Argo Rollouts asks for. */
  static final int LOAD_BALANCER_PAGE_SIZE = 300;

  /** {@code DescribeTags} takes at most 20 resource ARNs a call. */
  static final int DESCRIBE_TAGS_LIMIT = 20;

  private final AwsSdkClient<ElasticLoadBalancingV2AsyncClient> client;

  /**
   * Creates the provider; the SDK client is built on the first call.
   *
   * @param http the controller's outbound HTTP client (its Vert.x instance runs the worker pool)
   */
  public ElbV2LoadBalancerProvider(MetricHttpClient http) {
    this(http, b -> {});
  }

  /**
   * Creates the provider with extra client settings (tests: region, credentials, endpoint).
   *
   * @param http the controller's outbound HTTP client
   * @param configure applied to the SDK client builder after the transport and timeouts
   */
  ElbV2LoadBalancerProvider(
      MetricHttpClient http, Consumer<ElasticLoadBalancingV2AsyncClientBuilder> configure) {
    this.client = new AwsSdkClient<>(http, ElasticLoadBalancingV2AsyncClient::builder, configure);
  }

  @Override
  public Future<Optional<LoadBalancer>> findByDnsName(String dnsName) {
    return findByDnsName(dnsName, null);
  }

  private Future<Optional<LoadBalancer>> findByDnsName(String dnsName, String marker) {
    return call(
            "DescribeLoadBalancers",
            c -> c.describeLoadBalancers(b -> b.pageSize(LOAD_BALANCER_PAGE_SIZE).marker(marker)))
        .compose(
            page -> {
              for (var lb : page.loadBalancers()) {
                if (dnsName.equals(lb.dnsName())) {
                  return Future.succeededFuture(
                      Optional.of(
                          new LoadBalancer(
                              lb.loadBalancerName(), lb.loadBalancerArn(), lb.dnsName())));
                }
              }
              return isEmpty(page.nextMarker())
                  ? Future.succeededFuture(Optional.empty())
                  : findByDnsName(dnsName, page.nextMarker());
            });
  }

  @Override
  public Future<List<TargetGroup>> targetGroups(String loadBalancerArn) {
    Map<String, software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetGroup> groups =
        new LinkedHashMap<>();
    Map<String, Map<String, String>> tags = new HashMap<>();
    Map<String, Integer> weights = new HashMap<>();
    return describeTargetGroups(loadBalancerArn, null, groups)
        .compose(v -> describeTags(new ArrayList<>(groups.keySet()), 0, tags))
        .compose(v -> describeListeners(loadBalancerArn, null, new ArrayList<>()))
        .compose(listeners -> describeRules(listeners, 0, null, groups.keySet(), weights))
        .map(
            v -> {
              List<TargetGroup> out = new ArrayList<>();
              groups.forEach(
                  (arn, tg) ->
                      out.add(
                          new TargetGroup(
                              tg.targetGroupName(),
                              arn,
                              Map.copyOf(tags.getOrDefault(arn, Map.of())),
                              weights.get(arn))));
              return out;
            });
  }

  private Future<Void> describeTargetGroups(
      String loadBalancerArn,
      String marker,
      Map<String, software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetGroup> into) {
    return call(
            "DescribeTargetGroups",
            c -> c.describeTargetGroups(b -> b.loadBalancerArn(loadBalancerArn).marker(marker)))
        .compose(
            page -> {
              page.targetGroups().forEach(tg -> into.put(tg.targetGroupArn(), tg));
              return isEmpty(page.nextMarker())
                  ? Future.succeededFuture()
                  : describeTargetGroups(loadBalancerArn, page.nextMarker(), into);
            });
  }

  private Future<Void> describeTags(
      List<String> arns, int from, Map<String, Map<String, String>> into) {
    if (from >= arns.size()) {
      return Future.succeededFuture();
    }
    List<String> batch = arns.subList(from, Math.min(arns.size(), from + DESCRIBE_TAGS_LIMIT));
    return call("DescribeTags", c -> c.describeTags(b -> b.resourceArns(batch)))
        .compose(
            page -> {
              for (TagDescription d : page.tagDescriptions()) {
                Map<String, String> t = into.computeIfAbsent(d.resourceArn(), k -> new HashMap<>());
                d.tags().forEach(tag -> t.put(tag.key(), tag.value() == null ? "" : tag.value()));
              }
              return describeTags(arns, from + DESCRIBE_TAGS_LIMIT, into);
            });
  }

  private Future<List<String>> describeListeners(
      String loadBalancerArn, String marker, List<String> into) {
    return call(
            "DescribeListeners",
            c -> c.describeListeners(b -> b.loadBalancerArn(loadBalancerArn).marker(marker)))
        .compose(
            page -> {
              page.listeners().stream().map(Listener::listenerArn).forEach(into::add);
              return isEmpty(page.nextMarker())
                  ? Future.succeededFuture(into)
                  : describeListeners(loadBalancerArn, page.nextMarker(), into);
            });
  }

  private Future<Void> describeRules(
      List<String> listeners,
      int index,
      String marker,
      java.util.Set<String> known,
      Map<String, Integer> weights) {
    if (index >= listeners.size()) {
      return Future.succeededFuture();
    }
    String listener = listeners.get(index);
    return call("DescribeRules", c -> c.describeRules(b -> b.listenerArn(listener).marker(marker)))
        .compose(
            page -> {
              for (Rule rule : page.rules()) {
                for (Action action : rule.actions()) {
                  if (action.forwardConfig() == null) {
                    continue;
                  }
                  for (TargetGroupTuple t : action.forwardConfig().targetGroups()) {
                    if (known.contains(t.targetGroupArn())) {
                      weights.put(t.targetGroupArn(), t.weight());
                    }
                  }
                }
              }
              return isEmpty(page.nextMarker())
                  ? describeRules(listeners, index + 1, null, known, weights)
                  : describeRules(listeners, index, page.nextMarker(), known, weights);
            });
  }

  @Override
  public Future<List<Target>> targets(String targetGroupArn) {
    return call(
            "DescribeTargetHealth",
            c -> c.describeTargetHealth(b -> b.targetGroupArn(targetGroupArn)))
        .map(
            r -> {
              List<Target> out = new ArrayList<>();
              for (TargetHealthDescription d : r.targetHealthDescriptions()) {
                if (d.target() != null && d.target().id() != null && d.target().port() != null) {
                  out.add(new Target(d.target().id(), d.target().port()));
                }
              }
              return out;
            });
  }

  /**
   * One SDK call (see {@link AwsSdkClient#call}).
   *
   * @param operation the API name for error messages
   * @param start starts the call
   * @return a Future with the response; failed with {@code <operation>: <AWS message>}
   */
  private <T> Future<T> call(
      String operation, Function<ElasticLoadBalancingV2AsyncClient, CompletableFuture<T>> start) {
    return client
        .call(start)
        .recover(
            e ->
                Future.failedFuture(
                    new IllegalStateException(operation + ": " + AwsSdkClient.message(e), e)));
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
