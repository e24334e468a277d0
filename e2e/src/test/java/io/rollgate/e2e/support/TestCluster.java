package io.rollgate.e2e.support;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The cluster the e2e suite runs against: the one named by {@code KUBECONFIG} when set, otherwise
 * the local control plane started (or reused) by {@code e2e/cluster/up}. Installs the generated
 * CRDs once.
 */
public final class TestCluster {

  private static TestCluster instance;

  private final Path kubeconfig;
  private final KubernetesClient client;

  private TestCluster(Path kubeconfig) {
    this.kubeconfig = kubeconfig;
    try {
      Config config =
          Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString());
      this.client = new KubernetesClientBuilder().withConfig(config).build();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read kubeconfig " + kubeconfig, e);
    }
  }

  /**
   * Returns the shared cluster, starting the local control plane if no KUBECONFIG is given.
   *
   * @return the cluster
   */
  public static synchronized TestCluster get() {
    if (instance == null) {
      String env = System.getenv("KUBECONFIG");
      Path kc = env != null && !env.isEmpty() ? Path.of(env.split(":")[0]) : startLocal();
      instance = new TestCluster(kc);
      instance.installCrds();
    }
    return instance;
  }

  /** The kubeconfig path, passed to the controller process. */
  public Path kubeconfig() {
    return kubeconfig;
  }

  /** A client for the test's own reads and writes. */
  public KubernetesClient client() {
    return client;
  }

  /**
   * Creates a fresh namespace for a test class (deleted only when the class passed, so failures can
   * be inspected).
   *
   * @param prefix a short name prefix
   * @return the namespace name
   */
  public String createNamespace(String prefix) {
    String name = prefix + "-" + Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }

  /**
   * Deletes a namespace.
   *
   * @param name the namespace
   */
  public void deleteNamespace(String name) {
    client.namespaces().withName(name).delete();
  }

  private void installCrds() {
    Path dir =
        Path.of(
            System.getProperty("rollgate.crd.dir", "../common/target/classes/META-INF/fabric8"));
    try (var files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith("-v1.yml")).toList()) {
        try (InputStream in = Files.newInputStream(f)) {
          List<HasMetadata> items = client.load(in).items();
          for (HasMetadata item : items) {
            if (item instanceof CustomResourceDefinition crd) {
              crd.getMetadata().setResourceVersion(null);
              client
                  .apiextensions()
                  .v1()
                  .customResourceDefinitions()
                  .resource(crd)
                  .fieldManager("rollgate-e2e")
                  .forceConflicts()
                  .serverSideApply();
              client
                  .apiextensions()
                  .v1()
                  .customResourceDefinitions()
                  .withName(crd.getMetadata().getName())
                  .waitUntilCondition(
                      c ->
                          c.getStatus() != null
                              && c.getStatus().getConditions() != null
                              && c.getStatus().getConditions().stream()
                                  .anyMatch(
                                      x ->
                                          "Established".equals(x.getType())
                                              && "True".equals(x.getStatus())),
                      60,
                      TimeUnit.SECONDS);
            }
          }
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot read CRDs from " + dir + " (run mvn package first)", e);
    }
  }

  private static Path startLocal() {
    Path up =
        Path.of(System.getProperty("rollgate.cluster.dir", "cluster"))
            .resolve("up")
            .toAbsolutePath();
    try {
      Process p =
          new ProcessBuilder(up.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String last = null;
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          System.out.println("[cluster] " + line);
          if (!line.isBlank()) {
            last = line;
          }
        }
      }
      if (!p.waitFor(Duration.ofMinutes(40).toMillis(), TimeUnit.MILLISECONDS)
          || p.exitValue() != 0) {
        throw new IllegalStateException(up + " failed");
      }
      if (last == null || !last.startsWith("KUBECONFIG=")) {
        throw new IllegalStateException(up + " did not print KUBECONFIG=<path> last, got: " + last);
      }
      return Path.of(last.substring("KUBECONFIG=".length()));
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + up, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
