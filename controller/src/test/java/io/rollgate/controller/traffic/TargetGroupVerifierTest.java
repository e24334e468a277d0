package io.rollgate.controller.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.rollgate.api.ModelJson;
import io.rollgate.controller.aws.LoadBalancerProvider;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pure parts of the ALB target registration check (docs/traffic-routers.md, "AWS ALB"). */
class TargetGroupVerifierTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  private static <T> T yaml(String text, Class<T> type) throws Exception {
    return ModelJson.fromJson(YAML.readTree(text).toString(), type);
  }

  static final String SERVICE =
      """
      metadata: {name: web-stable, namespace: shop}
      spec:
        ports:
        - {name: http, port: 80, targetPort: 8080}
        - {name: admin, port: 9000, targetPort: admin-port}
      """;

  static final String ENDPOINTS =
      """
      metadata: {name: web-stable, namespace: shop}
      subsets:
      - addresses: [{ip: 10.0.0.1}, {ip: 10.0.0.2}]
        notReadyAddresses: [{ip: 10.0.0.9}]
        ports: [{name: http, port: 8080}, {name: admin-port, port: 9090}]
      """;

  private static TargetGroupVerifier.Binding binding(String serviceRef) throws Exception {
    return TargetGroupVerifier.Binding.of(
        yaml(
            """
            apiVersion: elbv2.k8s.aws/v1beta1
            kind: TargetGroupBinding
            metadata: {name: tgb, namespace: shop}
            spec:
              targetGroupARN: arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/1
              targetType: ip
              serviceRef: %s
            """
                .formatted(serviceRef),
            GenericKubernetesResource.class));
  }

  @Test
  void readsABindingAndMatchesTheServiceByPortNumberOrName() throws Exception {
    Service svc = yaml(SERVICE, Service.class);
    TargetGroupVerifier.Binding byNumber = binding("{name: web-stable, port: 80}");
    assertEquals(
        "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/1",
        byNumber.targetGroupArn());
    assertEquals("ip", byNumber.targetType());
    assertEquals(80, byNumber.portNumber());
    assertNull(byNumber.portName());
    assertTrue(byNumber.binds(svc));
    assertTrue(binding("{name: web-stable, port: admin}").binds(svc));
    assertFalse(binding("{name: web-stable, port: 81}").binds(svc));
    assertFalse(binding("{name: web-canary, port: 80}").binds(svc));
  }

  @Test
  void targetPortIsTheNumericTargetPort_orTheNamedEndpointsPort() throws Exception {
    Service svc = yaml(SERVICE, Service.class);
    Endpoints ep = yaml(ENDPOINTS, Endpoints.class);
    assertEquals(
        8080, TargetGroupVerifier.targetPort(binding("{name: web-stable, port: 80}"), svc, ep));
    assertEquals(
        9090, TargetGroupVerifier.targetPort(binding("{name: web-stable, port: admin}"), svc, ep));
    assertEquals(
        0, TargetGroupVerifier.targetPort(binding("{name: web-stable, port: 81}"), svc, ep));
  }

  @Test
  void verifiedWhenEveryReadyEndpointIsATarget_ignoringOtherTargets() throws Exception {
    Endpoints ep = yaml(ENDPOINTS, Endpoints.class);
    TargetGroupVerifier.Registration partial =
        TargetGroupVerifier.registration(
            ep,
            8080,
            List.of(
                new LoadBalancerProvider.Target("10.0.0.1", 8080),
                new LoadBalancerProvider.Target("10.0.0.2", 9090),
                new LoadBalancerProvider.Target("10.0.0.7", 8080)));
    assertEquals(new TargetGroupVerifier.Registration(1, 2), partial);
    assertFalse(partial.verified());
    TargetGroupVerifier.Registration all =
        TargetGroupVerifier.registration(
            ep,
            8080,
            List.of(
                new LoadBalancerProvider.Target("10.0.0.2", 8080),
                new LoadBalancerProvider.Target("10.0.0.1", 8080),
                new LoadBalancerProvider.Target("10.0.0.5", 8080)));
    assertTrue(all.verified());
    assertTrue(
        TargetGroupVerifier.registration(null, 8080, List.of()).verified(),
        "no endpoints: nothing missing");
  }
}
