package io.rollgate.e2e.support;

import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * Writes a kubeconfig that authenticates as a ServiceAccount, with a token obtained through the
 * TokenRequest API, so a controller or webhook process can be run with exactly the permissions that
 * ServiceAccount's RBAC grants.
 */
public final class ServiceAccountKubeconfig {

  private ServiceAccountKubeconfig() {}

  /**
   * Requests a token for a ServiceAccount and writes a kubeconfig for it.
   *
   * @param cluster the cluster (its admin client requests the token; its server and CA are reused)
   * @param namespace the ServiceAccount's namespace, also written as the context's default
   *     namespace
   * @param serviceAccount the ServiceAccount's name (it must exist)
   * @param file where to write the kubeconfig
   * @return {@code file}
   */
  public static Path write(
      TestCluster cluster, String namespace, String serviceAccount, Path file) {
    TokenRequest request =
        new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build();
    String token =
        cluster
            .client()
            .serviceAccounts()
            .inNamespace(namespace)
            .withName(serviceAccount)
            .tokenRequest(request)
            .getStatus()
            .getToken();
    Config admin = cluster.client().getConfiguration();
    String ca = admin.getCaCertData();
    try {
      if ((ca == null || ca.isEmpty()) && admin.getCaCertFile() != null) {
        ca = Base64.getEncoder().encodeToString(Files.readAllBytes(Path.of(admin.getCaCertFile())));
      }
      String caLine =
          ca == null || ca.isEmpty()
              ? "    insecure-skip-tls-verify: true\n"
              : "    certificate-authority-data: " + ca + "\n";
      String yaml =
          "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: "
              + admin.getMasterUrl()
              + "\n"
              + caLine
              + "users:\n- name: u\n  user:\n    token: "
              + token
              + "\n"
              + "contexts:\n- name: ctx\n  context:\n    cluster: c\n    user: u\n    namespace: "
              + namespace
              + "\n"
              + "current-context: ctx\n";
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, yaml);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
