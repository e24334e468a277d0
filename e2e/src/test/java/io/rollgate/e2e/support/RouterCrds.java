package io.rollgate.e2e.support;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Installs the CustomResourceDefinitions of the traffic routers' objects (Gateway API routes, SMI
 * TrafficSplit, Istio VirtualService and DestinationRule, APISIX ApisixRoute, Traefik
 * TraefikService in both API groups, Ambassador Mapping v2 and v3alpha1, App Mesh VirtualService,
 * VirtualRouter and VirtualNode, Gloo Platform RouteTable for its router plugin) when the cluster
 * does not have them yet. A CRD that already exists (for example the real Gateway API CRDs of a
 * kind cluster) is left as it is, so the suite runs unchanged on any cluster.
 */
public final class RouterCrds {

  private static final List<String> FILES =
      List.of(
          "crds/gateway-httproutes.yaml",
          "crds/gateway-grpcroutes.yaml",
          "crds/gateway-tcproutes.yaml",
          "crds/smi-trafficsplits.yaml",
          "crds/istio-virtualservices.yaml",
          "crds/istio-destinationrules.yaml",
          "crds/apisix-routes.yaml",
          "crds/traefik-traefikservices.yaml",
          "crds/traefik-containous-traefikservices.yaml",
          "crds/ambassador-mappings.yaml",
          "crds/appmesh-virtualservices.yaml",
          "crds/appmesh-virtualrouters.yaml",
          "crds/appmesh-virtualnodes.yaml",
          "crds/gloo-routetables.yaml");

  private RouterCrds() {}

  /**
   * Creates each missing router CRD and waits until every one is Established.
   *
   * @param client the client
   */
  public static synchronized void ensure(KubernetesClient client) {
    for (String file : FILES) {
      CustomResourceDefinition crd;
      try (InputStream in = RouterCrds.class.getClassLoader().getResourceAsStream(file)) {
        if (in == null) {
          throw new IllegalStateException("missing test resource " + file);
        }
        crd = client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
      } catch (IOException e) {
        throw new IllegalStateException("cannot read " + file, e);
      }
      var op =
          client
              .apiextensions()
              .v1()
              .customResourceDefinitions()
              .withName(crd.getMetadata().getName());
      if (op.get() == null) {
        client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
      }
      op.waitUntilCondition(
          c ->
              c != null
                  && c.getStatus() != null
                  && c.getStatus().getConditions() != null
                  && c.getStatus().getConditions().stream()
                      .anyMatch(
                          x -> "Established".equals(x.getType()) && "True".equals(x.getStatus())),
          60,
          TimeUnit.SECONDS);
    }
  }
}
