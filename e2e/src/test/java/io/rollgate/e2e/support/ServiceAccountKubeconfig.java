package io.rollgate.e2e.support;

import io.fabric8.kubernetes.api.model.Cluster;
import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.ConfigBuilder;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * A kubeconfig that authenticates as a ServiceAccount: a token from the TokenRequest API (as the kubelet gets one for
 * a pod) and the admin kubeconfig's cluster entry (server URL and CA). Processes started with it have exactly the
 * permissions the ServiceAccount's RBAC grants.
 */
public final class ServiceAccountKubeconfig {

  private ServiceAccountKubeconfig() {}

  /**
   * Requests a token for a ServiceAccount and writes a kubeconfig using it.
   *
   * @param client an admin client (creates the TokenRequest)
   * @param adminKubeconfig the admin kubeconfig, whose current context's cluster is copied
   * @param namespace the ServiceAccount's namespace
   * @param serviceAccount the ServiceAccount's name
   * @param out where to write the kubeconfig
   * @return {@code out}
   */
  public static Path write(
      KubernetesClient client, Path adminKubeconfig, String namespace, String serviceAccount, Path out) {
    TokenRequest request =
        new TokenRequestBuilder().withNewSpec().withExpirationSeconds(2L * 3600).endSpec().build();
    String token =
        client.serviceAccounts().inNamespace(namespace).withName(serviceAccount).tokenRequest(request).getStatus()
            .getToken();
    try {
      Config admin = Serialization.unmarshal(Files.readString(adminKubeconfig), Config.class);
      String contextName = admin.getCurrentContext();
      NamedContext ctx =
          admin.getContexts().stream()
              .filter(c -> c.getName().equals(contextName))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("no current context in " + adminKubeconfig));
      NamedCluster named =
          admin.getClusters().stream()
              .filter(c -> c.getName().equals(ctx.getContext().getCluster()))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("no cluster " + ctx.getContext().getCluster()));
      Cluster cluster = named.getCluster();
      if (cluster.getCertificateAuthority() != null && cluster.getCertificateAuthorityData() == null) {
        Path ca = adminKubeconfig.toAbsolutePath().getParent().resolve(cluster.getCertificateAuthority());
        cluster.setCertificateAuthorityData(Base64.getEncoder().encodeToString(Files.readAllBytes(ca)));
        cluster.setCertificateAuthority(null);
      }
      String user = "system:serviceaccount:" + namespace + ":" + serviceAccount;
      Config config =
          new ConfigBuilder()
              .withApiVersion("v1")
              .withKind("Config")
              .addNewCluster()
              .withName("cluster")
              .withCluster(cluster)
              .endCluster()
              .addNewUser()
              .withName(user)
              .withNewUser()
              .withToken(token)
              .endUser()
              .endUser()
              .addNewContext()
              .withName(user)
              .withNewContext()
              .withCluster("cluster")
              .withUser(user)
              .withNamespace(namespace)
              .endContext()
              .endContext()
              .withCurrentContext(user)
              .build();
      Files.createDirectories(out.toAbsolutePath().getParent());
      Files.writeString(out, Serialization.asYaml(config));
      return out;
    } catch (IOException e) {
      throw new IllegalStateException("cannot write kubeconfig " + out, e);
    }
  }
}
