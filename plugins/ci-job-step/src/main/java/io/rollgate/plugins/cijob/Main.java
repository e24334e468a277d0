package io.rollgate.plugins.cijob;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.rollgate.plugin.sdk.PluginServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Entry point of the {@code ci-job} step plugin, started by the Rollgate controller
 * (docs/plugins.md).
 *
 * <p>Flags: {@code --kubeconfig <file>} names the kubeconfig used to read token Secrets (default:
 * in-cluster credentials, {@code KUBECONFIG}, or {@code ~/.kube/config}, as the Kubernetes client
 * finds them). The Kubernetes client is only created when a step names a {@code tokenSecret}.
 */
public final class Main {

  private Main() {}

  /**
   * Serves the plugin until the controller stops the process.
   *
   * @param args {@code [--kubeconfig <file>]}
   */
  public static void main(String[] args) {
    String kubeconfig = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--kubeconfig") && i + 1 < args.length) {
        kubeconfig = args[++i];
      } else if (args[i].startsWith("--kubeconfig=")) {
        kubeconfig = args[i].substring("--kubeconfig=".length());
      } else {
        System.err.println(
            "unknown argument: " + args[i] + " (usage: ci-job-step [--kubeconfig <file>])");
        System.exit(2);
      }
    }
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(2));
    WebClient http =
        WebClient.create(vertx, new WebClientOptions().setUserAgent("rollgate-ci-job-step/1"));
    PluginServer.serve(new CiJobStepPlugin(http, new LazySecrets(vertx, kubeconfig)));
  }

  /** Creates the Kubernetes client on the first Secret read. */
  private static final class LazySecrets implements TokenSource {
    private final Vertx vertx;
    private final String kubeconfig;
    private SecretTokenSource delegate;

    LazySecrets(Vertx vertx, String kubeconfig) {
      this.vertx = vertx;
      this.kubeconfig = kubeconfig;
    }

    @Override
    public synchronized Future<String> token(String namespace, String name, String key) {
      if (delegate == null) {
        try {
          delegate = new SecretTokenSource(vertx, client(kubeconfig));
        } catch (IOException | RuntimeException e) {
          return Future.failedFuture(
              new IllegalStateException("cannot build a Kubernetes client: " + e.getMessage(), e));
        }
      }
      return delegate.token(namespace, name, key);
    }

    private static KubernetesClient client(String kubeconfig) throws IOException {
      KubernetesClientBuilder builder = new KubernetesClientBuilder();
      if (kubeconfig != null) {
        builder.withConfig(Config.fromKubeconfig(Files.readString(Path.of(kubeconfig))));
      }
      return builder.build();
    }
  }
}
