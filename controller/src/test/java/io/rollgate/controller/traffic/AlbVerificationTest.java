package io.rollgate.controller.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.rollgate.api.ALBStatus;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.aws.LoadBalancerProvider;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pure rules of ALB target-group weight verification (docs/traffic-routers.md, "AWS ALB"). */
class AlbVerificationTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  static final String LB_ARN =
      "arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/app/k8s-shop-web/50dc6c495c0c9188";
  static final String CANARY_ARN =
      "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/k8s-shop-webcanar/73e2d6bc24d8a067";
  static final String STABLE_ARN =
      "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/k8s-shop-webstabl/1b2c3d4e5f607182";
  static final String EXPERIMENT_ARN =
      "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/k8s-shop-webex1/0a0b0c0d0e0f1011";

  private static <T> T yaml(String text, Class<T> type) throws Exception {
    return ModelJson.fromJson(YAML.readTree(text).toString(), type);
  }

  private static Rollout rollout(String status) throws Exception {
    return yaml(
        """
        metadata: {name: web, namespace: shop}
        spec:
          strategy:
            canary:
              canaryService: web-canary
              stableService: web-stable
              trafficRouting: {alb: {ingress: web, servicePort: 80}}
              steps: [{setWeight: 20}, {pause: {}}, {setWeight: 60}]
        status:
        """
            + status,
        Rollout.class);
  }

  private static LoadBalancerProvider.TargetGroup group(
      String name, String arn, String resource, Integer weight) {
    return new LoadBalancerProvider.TargetGroup(
        name,
        arn,
        resource == null
            ? Map.of("elbv2.k8s.aws/cluster", "prod")
            : Map.of(AlbVerification.RESOURCE_TAG, resource),
        weight);
  }

  private static WeightDestination destination(String service, int weight) {
    WeightDestination d = new WeightDestination();
    d.setServiceName(service);
    d.setWeight(weight);
    return d;
  }

  @Test
  void resourceIdIsNamespaceSlashIngressDashServiceColonPort() {
    assertEquals(
        "shop/web-web-canary:80", AlbVerification.resourceId("shop", "web", "web-canary", 80));
  }

  @Test
  void fullNamesAreTheArnResourcePaths_orEmptyForAMalformedArn() {
    // The ARN prefix and, for a load balancer, the type segment (app) are dropped, as Argo Rollouts
    // writes them.
    assertEquals("k8s-shop-web/50dc6c495c0c9188", AlbVerification.loadBalancerFullName(LB_ARN));
    assertEquals(
        "k8s-shop-webcanar/73e2d6bc24d8a067", AlbVerification.targetGroupFullName(CANARY_ARN));
    assertEquals(
        "", AlbVerification.loadBalancerFullName("arn:aws:elasticloadbalancing:loadbalancer/app"));
    assertEquals("", AlbVerification.targetGroupFullName("not-an-arn"));
  }

  @Test
  void verifiesOnlyDuringAnUpdateAtASetWeightStep_orAtFullWeightPastTheLastStep() throws Exception {
    String update = "  stableRS: aaa\n  currentPodHash: bbb\n";
    assertTrue(AlbVerification.shouldVerify(rollout(update + "  currentStepIndex: 0\n"), 20, 100));
    assertFalse(
        AlbVerification.shouldVerify(rollout(update + "  currentStepIndex: 1\n"), 20, 100),
        "pause step");
    assertTrue(AlbVerification.shouldVerify(rollout(update + "  currentStepIndex: 2\n"), 60, 100));
    assertTrue(AlbVerification.shouldVerify(rollout(update + "  currentStepIndex: 3\n"), 100, 100));
    assertFalse(
        AlbVerification.shouldVerify(rollout(update + "  currentStepIndex: 3\n"), 60, 100),
        "not at full weight");
    assertFalse(
        AlbVerification.shouldVerify(
            rollout("  stableRS: bbb\n  currentPodHash: bbb\n  currentStepIndex: 0\n"), 20, 100),
        "fully promoted");
    assertFalse(
        AlbVerification.shouldVerify(rollout("  currentPodHash: bbb\n"), 0, 100), "first deploy");
  }

  @Test
  void checksTheCanaryAndExperimentGroupsByTag_andIgnoresStableUnweightedAndForeignGroups() {
    String canaryId = AlbVerification.resourceId("shop", "web", "web-canary", 80);
    String stableId = AlbVerification.resourceId("shop", "web", "web-stable", 80);
    String exId = AlbVerification.resourceId("shop", "web", "web-ex-1", 80);
    List<LoadBalancerProvider.TargetGroup> groups =
        List.of(
            group("k8s-shop-webcanar", CANARY_ARN, canaryId, 20),
            group("k8s-shop-webstabl", STABLE_ARN, stableId, 70),
            group("k8s-shop-webex1", EXPERIMENT_ARN, exId, 5),
            group("other", "arn:x:targetgroup/other/1", null, 50),
            group(
                "idle",
                "arn:x:targetgroup/idle/2",
                AlbVerification.resourceId("shop", "web", "idle", 80),
                null));
    List<AlbVerification.Check> checks =
        AlbVerification.checks(
            groups, canaryId, "web-canary", 20, Map.of(exId, destination("web-ex-1", 10)));
    assertEquals(2, checks.size(), checks::toString);
    assertTrue(checks.get(0).verified());
    assertEquals(
        "Service web-canary (TargetGroup " + CANARY_ARN + ") verified: canary weight 20 set",
        checks.get(0).message());
    assertFalse(checks.get(1).verified());
    assertEquals(
        "Service web-ex-1 (TargetGroup "
            + EXPERIMENT_ARN
            + ") not verified: canary weight 10 not yet set (current: 5)",
        checks.get(1).message());
  }

  @Test
  void statusHoldsTheLoadBalancerAndTheCanaryAndStableGroups_withFullNames() throws Exception {
    String canaryId = AlbVerification.resourceId("shop", "web", "web-canary", 80);
    String stableId = AlbVerification.resourceId("shop", "web", "web-stable", 80);
    ALBStatus status = AlbVerification.emptyStatus();
    assertEquals(
        "{\"loadBalancer\":{\"name\":\"\",\"arn\":\"\",\"fullName\":\"\"},"
            + "\"canaryTargetGroup\":{\"name\":\"\",\"arn\":\"\",\"fullName\":\"\"},"
            + "\"stableTargetGroup\":{\"name\":\"\",\"arn\":\"\",\"fullName\":\"\"}}",
        ModelJson.toJson(status));
    AlbVerification.recordLoadBalancer(
        status,
        "web",
        new LoadBalancerProvider.LoadBalancer(
            "k8s-shop-web", LB_ARN, "k8s-shop-web.elb.amazonaws.com"));
    AlbVerification.recordTargetGroup(
        status, group("k8s-shop-webcanar", CANARY_ARN, canaryId, 20), canaryId, stableId);
    AlbVerification.recordTargetGroup(
        status, group("k8s-shop-webstabl", STABLE_ARN, stableId, 80), canaryId, stableId);
    AlbVerification.recordTargetGroup(
        status, group("other", "arn:x:targetgroup/other/1", null, 50), canaryId, stableId);
    assertEquals("web", status.getIngress());
    assertEquals("k8s-shop-web", status.getLoadBalancer().getName());
    assertEquals(LB_ARN, status.getLoadBalancer().getArn());
    assertEquals("k8s-shop-web/50dc6c495c0c9188", status.getLoadBalancer().getFullName());
    assertEquals(CANARY_ARN, status.getCanaryTargetGroup().getArn());
    assertEquals("k8s-shop-webcanar/73e2d6bc24d8a067", status.getCanaryTargetGroup().getFullName());
    assertEquals("k8s-shop-webstabl", status.getStableTargetGroup().getName());
  }

  @Test
  void startsFromACopyOfTheStoredEntry() {
    ALBStatus stored = new ALBStatus();
    stored.setIngress("web");
    ALBStatus copy = AlbVerification.startFrom(stored);
    copy.setIngress("other");
    assertEquals("web", stored.getIngress());
    assertEquals("", copy.getLoadBalancer().getArn());
    assertEquals(AlbVerification.emptyStatus(), AlbVerification.startFrom(null));
  }

  @Test
  void hostnamesAreTheNonEmptyLoadBalancerHostnamesOfTheIngressStatus() throws Exception {
    Ingress ing =
        yaml(
            """
            metadata: {name: web}
            status: {loadBalancer: {ingress: [{hostname: a.elb.amazonaws.com}, {ip: 10.0.0.1}, {hostname: ""}]}}
            """,
            Ingress.class);
    assertEquals(List.of("a.elb.amazonaws.com"), AlbTrafficRouter.hostnames(ing));
    assertEquals(
        List.of(), AlbTrafficRouter.hostnames(yaml("metadata: {name: web}", Ingress.class)));
  }
}
