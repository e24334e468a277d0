package io.rollgate.e2e.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rollgate.api.ALBStatus;
import io.rollgate.api.Rollout;
import io.rollgate.api.TrafficWeights;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.MotoServer;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.Action;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.ActionTypeEnum;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancer;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.ProtocolEnum;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetGroupTuple;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetTypeEnum;

/**
 * ALB canary weights verified against AWS ({@code --aws-verify-target-group},
 * docs/traffic-routers.md "AWS ALB"), with moto's server standing in for AWS. The test plays the
 * AWS Load Balancer Controller: it creates the load balancer, the target groups tagged {@code
 * ingress.k8s.aws/resource = <ns>/<ingress>-<service>:80} and a listener rule forwarding to both,
 * writes the load balancer's DNS name on the Ingress status, and sets the rule's weights with
 * {@code ModifyRule}. The controller finds the emulator through the AWS SDK's standard environment
 * variables. The last test stops the emulator.
 */
@ExtendWith(AlbTargetGroupVerificationE2E.FailureTracker.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AlbTargetGroupVerificationE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final String PREFIX = "alb.ingress.kubernetes.io";

  static TestCluster cluster;
  static KubernetesClient client;
  static String ns;
  static Rollouts rollouts;
  static MotoServer moto;
  static ElasticLoadBalancingV2Client elb;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    client = cluster.client();
    // The AWS Load Balancer Controller's CRD, so that TargetGroupBindings can be created (kept:
    // cluster-scoped). A cluster that has the real one (an existing cluster running the AWS
    // controller) keeps it untouched.
    if (client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .withName("targetgroupbindings.elbv2.k8s.aws")
            .get()
        == null) {
      try (InputStream in =
          AlbTargetGroupVerificationE2E.class
              .getClassLoader()
              .getResourceAsStream("traffic/targetgroupbinding-crd.yaml")) {
        client.load(in).serverSideApply();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
    Awaitility.await("TargetGroupBinding CRD established")
        .atMost(TIMEOUT)
        .ignoreExceptions()
        .until(
            () ->
                client
                        .genericKubernetesResources("elbv2.k8s.aws/v1beta1", "TargetGroupBinding")
                        .inNamespace("default")
                        .list()
                    != null);
    ns = cluster.createNamespace("albverify");
    rollouts = new Rollouts(client, ns);
    moto = MotoServer.start("alb-verify");
    elb = moto.elbv2();
    controller =
        ControllerProcess.start(
            cluster,
            "albverify",
            moto.sdkEnvironment(),
            "--namespace",
            ns,
            "--aws-verify-target-group");
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (elb != null) {
      elb.close();
    }
    if (moto != null) {
      moto.close();
    }
    if (!failed && ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  /** Keeps the namespace of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Fixtures

  /** What the AWS Load Balancer Controller would have created for one Ingress. */
  record Alb(LoadBalancer lb, String canaryTg, String stableTg, String rule) {}

  static void apply(String resource, Map<String, String> vars) {
    String yaml;
    try (InputStream in =
        AlbTargetGroupVerificationE2E.class.getClassLoader().getResourceAsStream(resource)) {
      yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    for (Map.Entry<String, String> e : vars.entrySet()) {
      yaml = yaml.replace("${" + e.getKey() + "}", e.getValue());
    }
    for (HasMetadata item :
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(item).inNamespace(ns).create();
    }
  }

  /**
   * Services {@code <name>-stable}, {@code -canary}, {@code -root} and the Ingress {@code
   * <name>-web}.
   */
  static void kubernetesObjects(String name) {
    Map<String, String> v = new HashMap<>();
    v.put("NAME", name);
    apply("traffic/services.yaml", v);
    apply("traffic/alb-root-service.yaml", v);
    v.put("INGRESS", name + "-web");
    v.put("BACKEND", name + "-root");
    apply("traffic/alb-ingress.yaml", v);
  }

  /**
   * Writes the load balancer host name on the Ingress status, as the AWS Load Balancer Controller
   * does.
   */
  static void publishHostname(String ingress, String hostname) {
    client
        .network()
        .v1()
        .ingresses()
        .inNamespace(ns)
        .withName(ingress)
        .editStatus(
            i -> {
              i.setStatus(
                  new io.fabric8.kubernetes.api.model.networking.v1.IngressStatusBuilder()
                      .withNewLoadBalancer()
                      .addNewIngress()
                      .withHostname(hostname)
                      .endIngress()
                      .endLoadBalancer()
                      .build());
              return i;
            });
  }

  static String tag(String ingress, String service) {
    return ns + "/" + ingress + "-" + service + ":80";
  }

  /**
   * A load balancer, its canary and stable target groups (tagged) and one rule forwarding canary 0
   * / stable 100.
   */
  static Alb createAlb(String name) {
    String ingress = name + "-web";
    List<String> subnets = moto.defaultSubnets();
    LoadBalancer lb =
        elb.createLoadBalancer(b -> b.name("k8s-" + name).subnets(subnets.subList(0, 2)))
            .loadBalancers()
            .get(0);
    String vpc = lb.vpcId();
    String canary = targetGroup(name + "-c", vpc, tag(ingress, name + "-canary"));
    String stable = targetGroup(name + "-s", vpc, tag(ingress, name + "-stable"));
    String listener =
        elb.createListener(
                b ->
                    b.loadBalancerArn(lb.loadBalancerArn())
                        .protocol(ProtocolEnum.HTTP)
                        .port(80)
                        .defaultActions(
                            Action.builder()
                                .type(ActionTypeEnum.FIXED_RESPONSE)
                                .fixedResponseConfig(f -> f.statusCode("404"))
                                .build()))
            .listeners()
            .get(0)
            .listenerArn();
    String rule =
        elb.createRule(
                b ->
                    b.listenerArn(listener)
                        .priority(1)
                        .conditions(c -> c.field("path-pattern").values("/*"))
                        .actions(forward(canary, 0, stable, 100)))
            .rules()
            .get(0)
            .ruleArn();
    return new Alb(lb, canary, stable, rule);
  }

  static String targetGroup(String name, String vpc, String resourceTag) {
    String arn =
        elb.createTargetGroup(
                b ->
                    b.name(name)
                        .protocol(ProtocolEnum.HTTP)
                        .port(80)
                        .vpcId(vpc)
                        .targetType(TargetTypeEnum.IP))
            .targetGroups()
            .get(0)
            .targetGroupArn();
    elb.addTags(
        b ->
            b.resourceArns(arn)
                .tags(
                    t -> t.key("ingress.k8s.aws/resource").value(resourceTag),
                    t -> t.key("elbv2.k8s.aws/cluster").value("e2e")));
    return arn;
  }

  static Action forward(String canary, int canaryWeight, String stable, int stableWeight) {
    return Action.builder()
        .type(ActionTypeEnum.FORWARD)
        .forwardConfig(
            f ->
                f.targetGroups(
                    TargetGroupTuple.builder().targetGroupArn(canary).weight(canaryWeight).build(),
                    TargetGroupTuple.builder().targetGroupArn(stable).weight(stableWeight).build()))
        .build();
  }

  /** What the AWS Load Balancer Controller does once it has read the action annotation. */
  static void applyWeights(Alb alb, int canary) {
    elb.modifyRule(
        b ->
            b.ruleArn(alb.rule())
                .actions(forward(alb.canaryTg(), canary, alb.stableTg(), 100 - canary)));
  }

  static Rollout create(String name) {
    Map<String, String> v = new HashMap<>();
    v.put("NAME", name);
    v.put("REPLICAS", "2");
    v.put(
        "CANARY",
        "{\"stableService\":\""
            + name
            + "-stable\",\"canaryService\":\""
            + name
            + "-canary\","
            + "\"trafficRouting\":{\"alb\":{\"ingress\":\""
            + name
            + "-web\",\"rootService\":\""
            + name
            + "-root\","
            + "\"servicePort\":80}},"
            + "\"steps\":[{\"setWeight\":20},{\"pause\":{}},{\"setWeight\":50},{\"pause\":{}}]}");
    rollouts.create("traffic/rollout.yaml", v);
    return rollouts.await(
        name,
        name + " Healthy",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && r.getStatus().getCurrentPodHash() != null
                && r.getStatus().getCurrentPodHash().equals(r.getStatus().getStableRS()));
  }

  static TrafficWeights weights(Rollout r) {
    return r == null || r.getStatus() == null || r.getStatus().getCanary() == null
        ? null
        : r.getStatus().getCanary().getWeights();
  }

  static Boolean verified(Rollout r) {
    TrafficWeights w = weights(r);
    return w == null ? null : w.getVerified();
  }

  static Predicate<Rollout> atStep(int step) {
    return r ->
        r != null
            && r.getStatus() != null
            && Integer.valueOf(step).equals(r.getStatus().getCurrentStepIndex());
  }

  static List<String> awaitEvent(String name, String reason, Predicate<String> message) {
    java.util.concurrent.atomic.AtomicReference<List<String>> last =
        new java.util.concurrent.atomic.AtomicReference<>();
    try {
      Awaitility.await(name + " event " + reason)
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(500))
          .until(
              () -> {
                last.set(rollouts.eventMessages(name, reason));
                return last.get().stream().anyMatch(message);
              });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError(
          "timed out waiting for a "
              + reason
              + " event on "
              + name
              + "; seen: "
              + last.get()
              + "; all: "
              + rollouts.events(name).stream()
                  .map(x -> x.getReason() + ": " + x.getMessage())
                  .toList(),
          e);
    }
    return last.get();
  }

  static String annotation(String ingress, String key) {
    Ingress ing = client.network().v1().ingresses().inNamespace(ns).withName(ingress).get();
    return ing.getMetadata().getAnnotations() == null
        ? null
        : ing.getMetadata().getAnnotations().get(key);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Tests

  @Test
  @Order(1)
  void stepWaitsUntilAwsAppliesTheWeight_thenAdvancesWithStatusAlbAndVerifiedTrue() {
    String name = "albv";
    kubernetesObjects(name);
    Alb alb = createAlb(name);
    publishHostname(name + "-web", alb.lb().dnsName());
    Rollout r = create(name);
    String v1 = r.getStatus().getStableRS();

    // Once the stable side takes the traffic, the (not yet recorded) load balancer status is filled
    // in: canary 0 in AWS.
    r =
        rollouts.await(
            name,
            "status.alb recorded",
            TIMEOUT,
            x ->
                x.getStatus().getAlb() != null
                    && alb.lb()
                        .loadBalancerArn()
                        .equals(x.getStatus().getAlb().getLoadBalancer().getArn()));
    ALBStatus s = r.getStatus().getAlb();
    assertEquals(name + "-web", s.getIngress());
    assertEquals("k8s-" + name, s.getLoadBalancer().getName());
    String lbId =
        alb.lb().loadBalancerArn().substring(alb.lb().loadBalancerArn().lastIndexOf('/') + 1);
    assertEquals("k8s-" + name + "/" + lbId, s.getLoadBalancer().getFullName());
    assertEquals(alb.canaryTg(), s.getCanaryTargetGroup().getArn());
    assertEquals(name + "-c", s.getCanaryTargetGroup().getName());
    assertEquals(
        alb.canaryTg().substring(alb.canaryTg().indexOf('/') + 1),
        s.getCanaryTargetGroup().getFullName());
    assertEquals(alb.stableTg(), s.getStableTargetGroup().getArn());
    assertEquals(
        List.of(s),
        r.getStatus().getAlbs(),
        "status.albs[0] mirrors status.alb for a single Ingress");

    // The update: the annotation says 20, AWS still says 0, so setWeight 20 is not verified and the
    // step holds.
    rollouts.setImage(name, "registry.example/app:v2");
    String rootKey = PREFIX + "/actions." + name + "-root";
    Awaitility.await("annotation at 20")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(
            () ->
                String.valueOf(annotation(name + "-web", rootKey))
                    .contains(
                        "\"ServiceName\":\""
                            + name
                            + "-canary\",\"ServicePort\":\"80\",\"Weight\":20"));
    r =
        rollouts.await(
            name, "weights.verified false", TIMEOUT, x -> Boolean.FALSE.equals(verified(x)));
    assertEquals(0, r.getStatus().getCurrentStepIndex());
    awaitEvent(
        name,
        "TargetGroupUnverified",
        m ->
            m.equals(
                "Service "
                    + name
                    + "-canary (TargetGroup "
                    + alb.canaryTg()
                    + ") not verified: canary weight 20 not yet set"
                    + " (current: 0)"));
    // Past one re-check (every 10 s) the step still waits: nothing advances while AWS disagrees.
    rollouts.holdsFor(
        name,
        "step 0 while AWS has canary 0",
        Duration.ofSeconds(12),
        x -> atStep(0).test(x) && !Boolean.TRUE.equals(verified(x)));

    // The AWS controller catches up: the next re-check verifies and the Rollout moves on to the
    // pause.
    applyWeights(alb, 20);
    r =
        rollouts.await(
            name,
            "paused at step 1",
            TIMEOUT,
            x -> atStep(1).test(x) && "Paused".equals(x.getStatus().getPhase()));
    awaitEvent(
        name,
        "TargetGroupVerified",
        m ->
            m.equals(
                "Service "
                    + name
                    + "-canary (TargetGroup "
                    + alb.canaryTg()
                    + ") verified: canary weight 20 set"));
    assertTrue(
        rollouts
            .eventMessages(name, "RolloutStepCompleted")
            .contains("Rollout step 1/4 completed (setWeight: 20)"),
        rollouts.eventMessages(name, "RolloutStepCompleted").toString());

    // Weights already applied in AWS: the next setWeight step is verified at once and the Rollout
    // goes straight on.
    applyWeights(alb, 50);
    rollouts.promote(name);
    r =
        rollouts.await(
            name,
            "paused at step 3",
            TIMEOUT,
            x -> atStep(3).test(x) && "Paused".equals(x.getStatus().getPhase()));
    assertEquals(50, weights(r).getCanary().getWeight());
    awaitEvent(
        name,
        "TargetGroupVerified",
        m ->
            m.equals(
                "Service "
                    + name
                    + "-canary (TargetGroup "
                    + alb.canaryTg()
                    + ") verified: canary weight 50 set"));
    assertEquals(alb.lb().loadBalancerArn(), r.getStatus().getAlb().getLoadBalancer().getArn());

    // The stable Service's pods are registered in the stable target group through a
    // TargetGroupBinding; none is yet.
    Map<String, String> tgb = new HashMap<>();
    tgb.put("NAME", name + "-stable");
    tgb.put("ARN", alb.stableTg());
    tgb.put("SERVICE", name + "-stable");
    apply("traffic/targetgroupbinding.yaml", tgb);

    // The end of the update is verified at the full weight before the new revision becomes stable.
    applyWeights(alb, 100);
    rollouts.promote(name);
    String v2 = r.getStatus().getCurrentPodHash();
    r = rollouts.await(name, "v2 stable", TIMEOUT, x -> v2.equals(x.getStatus().getStableRS()));
    assertEquals(
        alb.stableTg(),
        r.getStatus().getAlb().getStableTargetGroup().getArn(),
        "status.alb is kept");

    // The new stable pods are not registered in AWS yet: the previous ReplicaSet keeps its pods and
    // gets no deadline.
    awaitEvent(
        name,
        "TargetGroupUnverified",
        m ->
            m.matches(
                "Service "
                    + name
                    + "-stable \\(TargetGroup "
                    + java.util.regex.Pattern.quote(alb.stableTg())
                    + "\\) not verified: 0/\\d+ endpoints registered"));
    Awaitility.await("v1 waits")
        .during(Duration.ofSeconds(12))
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> rollouts.specReplicas(name, v1) == 2 && deadline(name, v1) == null);

    // The AWS controller registers the endpoints: the next check verifies and the previous
    // ReplicaSet is let go.
    Awaitility.await("endpoints registered and verified")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () -> {
              registerEndpoints(name + "-stable", alb.stableTg());
              return rollouts.eventMessages(name, "TargetGroupVerified").stream()
                  .anyMatch(
                      m ->
                          m.equals(
                              "Service "
                                  + name
                                  + "-stable (TargetGroup "
                                  + alb.stableTg()
                                  + ") verified: 2 endpoints registered"));
            });
    Awaitility.await("v1 gets a scale-down deadline")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .until(() -> deadline(name, v1) != null);
  }

  static String deadline(String name, String hash) {
    var rs = rollouts.replicaSet(name, hash);
    return rs.getMetadata().getAnnotations() == null
        ? null
        : rs.getMetadata().getAnnotations().get("scale-down-deadline");
  }

  /**
   * Registers the Service's endpoint addresses (port 8080) in the target group, as the AWS
   * controller would.
   */
  static void registerEndpoints(String service, String targetGroup) {
    var ep = client.endpoints().inNamespace(ns).withName(service).get();
    List<software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetDescription> targets =
        new java.util.ArrayList<>();
    if (ep != null && ep.getSubsets() != null) {
      for (var subset : ep.getSubsets()) {
        for (var a :
            subset.getAddresses() == null
                ? List.<io.fabric8.kubernetes.api.model.EndpointAddress>of()
                : subset.getAddresses()) {
          targets.add(
              software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetDescription
                  .builder()
                  .id(a.getIp())
                  .port(8080)
                  .build());
        }
      }
    }
    if (!targets.isEmpty()) {
      elb.registerTargets(b -> b.targetGroupArn(targetGroup).targets(targets));
    }
  }

  @Test
  @Order(2)
  void unknownLoadBalancerIsReportedWithTheIngress_andTheStepWaits() {
    String name = "albnf";
    kubernetesObjects(name);
    String host = "k8s-missing-0123456789.us-east-1.elb.amazonaws.com";
    publishHostname(name + "-web", host);
    create(name);
    rollouts.setImage(name, "registry.example/app:v2");
    awaitEvent(
        name,
        "LoadBalancerNotFound",
        m -> m.equals("Failed to find load balancer: " + host + " (ingress `" + name + "-web`)"));
    Rollout r =
        rollouts.await(
            name,
            "weights.verified false at step 0 with the step's weight",
            TIMEOUT,
            // Before the canary pod is available the router weight is 0, and that status can be
            // unverified too; the step's weight 20 follows.
            x ->
                atStep(0).test(x)
                    && Boolean.FALSE.equals(verified(x))
                    && weights(x) != null
                    && weights(x).getCanary() != null
                    && Integer.valueOf(20).equals(weights(x).getCanary().getWeight()));
    assertEquals(
        20,
        weights(r).getCanary().getWeight(),
        "the annotation weight is recorded, only unverified");
    rollouts.holdsFor(
        name, "step 0 while the load balancer is unknown", Duration.ofSeconds(12), atStep(0));
  }

  @Test
  @Order(3)
  void unreachableAwsIsAVerifyErrorNamingTheIngress_andOtherRolloutsKeepWorking() {
    String name = "albnf";
    moto.close();
    List<String> errors =
        awaitEvent(
            name,
            "TargetGroupVerifyError",
            m ->
                m.startsWith(
                    "Failed to verify Service "
                        + name
                        + "-canary (TargetGroup unknown): ingress `"
                        + name
                        + "-web`, load balancer k8s-missing-0123456789.us-east-1.elb.amazonaws.com: DescribeLoadBalancers: "));
    assertFalse(errors.isEmpty());
    List<String> weightErrors =
        awaitEvent(
            name,
            "WeightVerifyError",
            m -> m.startsWith("Failed to verify weight: ingress `" + name + "-web`"));
    assertNotNull(weightErrors);
    Rollout r = rollouts.get(name);
    assertEquals(0, r.getStatus().getCurrentStepIndex());
    assertEquals(Boolean.FALSE, verified(r));
    assertTrue(controller.isAlive(), "the controller keeps running");
    // The first Rollout (fully promoted, nothing to verify) is unaffected: a scale reaches it.
    rollouts.scale("albv", 3);
    rollouts.await(
        "albv",
        "albv scaled to 3",
        TIMEOUT,
        x ->
            Integer.valueOf(3).equals(x.getStatus().getAvailableReplicas())
                && "Healthy".equals(x.getStatus().getPhase()));
  }
}
