package io.rollgate.controller;

import ch.qos.logback.classic.Level;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Entry point of the Rollgate controller: {@code java -jar rollgate-controller.jar [flags]}.
 *
 * <p>Flag names follow Argo Rollouts' controller where one exists. The process reconciles until it receives SIGTERM,
 * then stops taking work, lets the reconciles in flight finish, and exits.
 */
@Command(
    name = "rollgate-controller",
    mixinStandardHelpOptions = true,
    version = "rollgate-controller 0.1.0",
    description = "Reconciles argoproj.io/v1alpha1 Rollouts: canary steps, pauses, promotion and abort.")
public final class Main implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(Main.class);
  private static final long SHUTDOWN_SECONDS = 20;
  private static final long START_SECONDS = 120;

  @Option(names = "--kubeconfig", description = "Path of a kubeconfig file (default: $KUBECONFIG, then in-cluster).")
  String kubeconfig;

  @Option(
      names = "--instance-id",
      defaultValue = "",
      description =
          "Reconcile only objects labelled argo-rollouts.argoproj.io/controller-instance-id=<id>; empty: only"
              + " objects without that label.")
  String instanceId;

  @Option(names = "--namespace", description = "Watch only this namespace (default: all namespaces).")
  String namespace;

  @Option(
      names = "--rollout-threads",
      defaultValue = "10",
      description = "Number of Rollouts reconciled concurrently (default: ${DEFAULT-VALUE}).")
  int rolloutThreads;

  @Option(
      names = "--rollout-resync",
      defaultValue = "900",
      description = "Informer resync period, in seconds (default: ${DEFAULT-VALUE}).")
  long resyncSeconds;

  @Option(
      names = "--kube-api-threads",
      defaultValue = "16",
      description = "Worker threads for API-server calls (default: ${DEFAULT-VALUE}).")
  int kubeApiThreads;

  @Option(
      names = "--loglevel",
      defaultValue = "info",
      description = "Log level: debug, info, warn, error (default: ${DEFAULT-VALUE}).")
  String logLevel;

  /**
   * Parses the flags and runs the controller until SIGTERM.
   *
   * @param args command-line flags; {@code --help} lists them
   */
  public static void main(String[] args) {
    CommandLine cmd = new CommandLine(new Main());
    int code = cmd.execute(args);
    if (code != 0 || cmd.isUsageHelpRequested() || cmd.isVersionHelpRequested()) {
      System.exit(code);
    }
  }

  @Override
  public Integer call() throws Exception {
    ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME))
        .setLevel(Level.toLevel(logLevel, Level.INFO));
    if (rolloutThreads < 1) {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "--rollout-threads must be at least 1, got " + rolloutThreads);
    }
    if (kubeconfig != null && !Files.isReadable(Path.of(kubeconfig))) {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "--kubeconfig: cannot read " + kubeconfig);
    }
    String envKubeconfig = System.getenv("KUBECONFIG");
    if (kubeconfig == null && envKubeconfig != null && !envKubeconfig.isEmpty()) {
      boolean any = false;
      for (String part : envKubeconfig.split(java.io.File.pathSeparator)) {
        any |= !part.isEmpty() && Files.isReadable(Path.of(part));
      }
      if (!any) {
        throw new CommandLine.ParameterException(
            new CommandLine(this), "KUBECONFIG=" + envKubeconfig + ": no readable kubeconfig file");
      }
    }
    ControllerOptions options =
        new ControllerOptions(
            kubeconfig,
            instanceId,
            namespace,
            rolloutThreads,
            Duration.ofSeconds(resyncSeconds),
            kubeApiThreads,
            Duration.ofSeconds(30));
    Vertx vertx = Vertx.vertx(new VertxOptions().setWorkerPoolSize(Math.max(4, kubeApiThreads)));
    KubernetesClient client = buildClient(vertx, options);
    LOG.info(
        "starting rollgate-controller server={} instanceId={} namespace={} rolloutThreads={}",
        client.getMasterUrl(),
        instanceId.isEmpty() ? "<none>" : instanceId,
        namespace == null ? "<all>" : namespace,
        rolloutThreads);
    ControllerVerticle verticle = new ControllerVerticle(options, client, Clock.systemUTC());
    // The JVM runs shutdown hooks on SIGTERM; this one is the only place that waits, bounded, for the graceful stop.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  LOG.info("shutting down: draining reconciles in flight");
                  try {
                    verticle
                        .shutdown()
                        .eventually(vertx::close)
                        .toCompletionStage()
                        .toCompletableFuture()
                        .get(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
                  } catch (Exception e) {
                    LOG.warn("graceful shutdown incomplete: {}", e.toString());
                  }
                  client.close();
                },
                "shutdown"));
    try {
      // Start-up happens on the main thread, before any reconcile runs; Vert.x threads keep the process alive after.
      vertx.deployVerticle(verticle).toCompletionStage().toCompletableFuture().get(START_SECONDS, TimeUnit.SECONDS);
      verticle
          .fatal()
          .onFailure(
              err -> {
                LOG.error("exiting: {}", err.getMessage());
                // Exit from a plain thread: the shutdown hook needs the event loops to drain.
                new Thread(() -> System.exit(1), "exit").start();
              });
    } catch (Exception e) {
      Throwable cause = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause() : e;
      LOG.error("controller failed to start: {}", cause.toString());
      LOG.debug("start failure", cause);
      vertx.close();
      client.close();
      return 1;
    }
    return 0;
  }

  private static KubernetesClient buildClient(Vertx vertx, ControllerOptions options) {
    Config config =
        options.kubeconfig() != null
            ? Config.fromKubeconfig(null, readFile(options.kubeconfig()), options.kubeconfig())
            : Config.autoConfigure(null);
    config.setRequestTimeout((int) options.apiTimeout().toMillis());
    return new KubernetesClientBuilder()
        .withHttpClientFactory(new Vertx5HttpClientFactory(vertx))
        .withConfig(config)
        .build();
  }

  private static String readFile(String path) {
    try {
      return Files.readString(Path.of(path));
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("cannot read kubeconfig " + path + ": " + e.getMessage(), e);
    }
  }
}
