package io.rollgate.controller;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.rollgate.controller.metrics.ControllerMetrics;
import io.rollgate.controller.options.ControllerOptions;
import io.rollgate.defaults.GoDurations;
import io.rollgate.kube.ProgramFlags;
import io.rollgate.kube.lease.LeaderElection;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
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
 * <p>Flag names follow Argo Rollouts' controller where one exists. The process reconciles until it
 * receives SIGTERM, then stops taking work, lets the reconciles in flight finish (bounded),
 * releases the leader Lease, and exits. It exits with status 1 when it loses the leader Lease or an
 * informer stops for good, so that it restarts clean.
 */
@Command(
    name = "rollgate-controller",
    mixinStandardHelpOptions = true,
    version = "rollgate-controller 0.1.0",
    description =
        "Reconciles argoproj.io/v1alpha1 Rollouts: canary steps, pauses, promotion and abort.")
public final class Main implements Callable<Integer> {

  /** The command line that parsed this object's flags; flag errors are reported through it. */
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  private static final Logger LOG = LoggerFactory.getLogger(Main.class);
  private static final String VERSION = "0.1.0";
  private static final long SHUTDOWN_SECONDS = 25;
  private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(15);
  private static final long START_SECONDS = 120;
  private static final Duration API_TIMEOUT = Duration.ofSeconds(30);
  private static final int WORKER_THREADS = 4;

  @Option(
      names = "--kubeconfig",
      description = "Path of a kubeconfig file (default: $KUBECONFIG, then in-cluster).")
  String kubeconfig;

  @Option(
      names = "--instance-id",
      defaultValue = "",
      description =
          "Reconcile only objects labelled argo-rollouts.argoproj.io/controller-instance-id=<id>; empty: only"
              + " objects without that label.")
  String instanceId;

  @Option(
      names = "--namespace",
      description = "Watch only this namespace (default: all namespaces).")
  String namespace;

  @Option(
      names = "--namespaced",
      description =
          "Watch one namespace only, so namespaced RBAC (Role/RoleBinding) suffices, as Argo Rollouts' --namespaced:"
              + " --namespace if given, else $POD_NAMESPACE, else the kubeconfig context's namespace.")
  boolean namespaced;

  @Option(
      names = "--rollout-threads",
      defaultValue = "10",
      description = "Number of Rollouts reconciled concurrently (default: ${DEFAULT-VALUE}).")
  int rolloutThreads;

  @Option(
      names = "--analysis-threads",
      defaultValue = "30",
      description = "Number of AnalysisRuns reconciled concurrently (default: ${DEFAULT-VALUE}).")
  int analysisThreads;

  @Option(
      names = "--experiment-threads",
      defaultValue = "10",
      description = "Number of Experiments reconciled concurrently (default: ${DEFAULT-VALUE}).")
  int experimentThreads;

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
      description =
          "Log level: panic, fatal, error, warn, info, debug or trace (default: ${DEFAULT-VALUE}).")
  String logLevel;

  @Option(
      names = "--logformat",
      defaultValue = "text",
      description =
          "Log format: text, or json (one JSON object per line) (default: ${DEFAULT-VALUE}).")
  String logFormat;

  @Option(
      names = {"--metricsport", "--metricsPort"},
      defaultValue = "8090",
      description = "Port of the Prometheus /metrics endpoint (default: ${DEFAULT-VALUE}).")
  int metricsPort;

  @Option(
      names = "--healthzPort",
      defaultValue = "8080",
      description =
          "Port of the /healthz (liveness) and /readyz (readiness) endpoints (default: ${DEFAULT-VALUE}).")
  int healthzPort;

  @Option(
      names = "--qps",
      defaultValue = "40",
      description =
          "Client-side limit of API calls per second, for each API client as in Argo Rollouts: Kubernetes kinds,"
              + " argoproj.io kinds, other custom resources (default: ${DEFAULT-VALUE}).")
  float qps;

  @Option(
      names = "--burst",
      defaultValue = "80",
      description =
          "Client-side burst of API calls above --qps, for each API client (default: ${DEFAULT-VALUE}).")
  int burst;

  @Option(
      names = "--leader-elect",
      defaultValue = "true",
      arity = "0..1",
      fallbackValue = "true",
      description =
          "Elect a leader on a Lease; only the leader reconciles (default: ${DEFAULT-VALUE}).")
  boolean leaderElect;

  @Option(
      names = "--leader-election-namespace",
      description = "Namespace of the leader Lease (default: $POD_NAMESPACE, else default).")
  String leaderElectionNamespace;

  @Option(
      names = "--leader-election-lease-duration",
      defaultValue = "15s",
      description =
          "How long standbys wait before taking over an unrenewed Lease (default: ${DEFAULT-VALUE}).")
  String leaseDuration;

  @Option(
      names = "--leader-election-renew-deadline",
      defaultValue = "10s",
      description =
          "How long the leader retries renewing before it gives up and exits (default: ${DEFAULT-VALUE}).")
  String renewDeadline;

  @Option(
      names = "--leader-election-retry-period",
      defaultValue = "2s",
      description = "How often to try to acquire or renew the Lease (default: ${DEFAULT-VALUE}).")
  String retryPeriod;

  @Option(
      names = "--plugin-dir",
      description =
          "Folder executable plugins are copied or downloaded into (default: ${java.io.tmpdir}/rollgate-plugins).")
  Path pluginDir;

  @Option(
      names = "--plugin-bridge",
      description =
          "The plugin bridge that runs Argo Rollouts' Go plugins (go-plugin over net/rpc) (default: the "
              + "environment variable ROLLGATE_PLUGIN_BRIDGE, else rollgate-plugin-bridge beside the controller's jar, else on PATH).")
  Path pluginBridge;

  @Option(
      names = "--self-service-notification-enabled",
      description =
          "Also read argo-rollouts-notification-configmap and argo-rollouts-notification-secret from each Rollout's own"
              + " namespace, as Argo Rollouts' flag of the same name (docs/notifications.md).")
  boolean selfServiceNotifications;

  @Option(
      names = {"--aws-verify-target-group", "--alb-verify-weight"},
      description =
          "Verify ALB canary weights against the AWS target groups before a step completes (needs"
              + " elasticloadbalancing:Describe* permissions; docs/traffic-routers.md). --alb-verify-weight is the"
              + " deprecated name Argo Rollouts still accepts.")
  boolean awsVerifyTargetGroup;

  @Option(
      names = "--plugin-call-timeout",
      defaultValue = "30",
      description = "Bound of one plugin call, in seconds (default: ${DEFAULT-VALUE}).")
  long pluginCallTimeoutSeconds;

  @Option(
      names = "--plugin-handshake-timeout",
      defaultValue = "10",
      description =
          "How long an executable plugin has to write its handshake line, in seconds (default: ${DEFAULT-VALUE}).")
  long pluginHandshakeTimeoutSeconds;

  @Option(
      names = "--plugin-config-namespace",
      description =
          "Namespace of the plugin registry ConfigMap argo-rollouts-config (default: $POD_NAMESPACE, else --namespace,"
              + " else the kubeconfig context's namespace, else argo-rollouts).")
  String pluginConfigNamespace;

  @Option(
      names = "--traefik-api-group",
      defaultValue = io.rollgate.controller.traffic.RouterApiVersions.DEFAULT_TRAEFIK_API_GROUP,
      description =
          "API group of TraefikService objects; traefik.containo.us for Traefik v2 (default: ${DEFAULT-VALUE}).")
  String traefikApiGroup;

  @Option(
      names = "--traefik-api-version",
      defaultValue = io.rollgate.controller.traffic.RouterApiVersions.DEFAULT_TRAEFIK_API_VERSION,
      description =
          "apiVersion of TraefikService objects, <group>/<version>; its group must be --traefik-api-group"
              + " (default: ${DEFAULT-VALUE}).")
  String traefikApiVersion;

  @Option(
      names = "--ambassador-api-version",
      defaultValue =
          io.rollgate.controller.traffic.RouterApiVersions.DEFAULT_AMBASSADOR_API_VERSION,
      description =
          "apiVersion of Ambassador Mappings, e.g. getambassador.io/v3alpha1 (default: ${DEFAULT-VALUE}).")
  String ambassadorApiVersion;

  @Option(
      names = "--appmesh-crd-version",
      defaultValue = io.rollgate.controller.traffic.RouterApiVersions.DEFAULT_APPMESH_CRD_VERSION,
      description = "Version of the appmesh.k8s.aws objects (default: ${DEFAULT-VALUE}).")
  String appMeshCrdVersion;

  /**
   * Parses the flags and runs the controller until SIGTERM.
   *
   * @param args command-line flags; {@code --help} lists them
   */
  public static void main(String[] args) {
    CommandLine cmd = commandLine();
    int code = cmd.execute(args);
    if (code != 0 || cmd.isUsageHelpRequested() || cmd.isVersionHelpRequested()) {
      System.exit(code);
    }
  }

  @Override
  public Integer call() throws Exception {
    Config kubeConfig;
    try {
      ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME))
          .setLevel(Level.toLevel(ProgramFlags.logLevel("--loglevel", logLevel)));
      ProgramFlags.port("--metricsport", metricsPort);
      ProgramFlags.port("--healthzPort", healthzPort);
      ProgramFlags.rate(qps, burst);
      if (resyncSeconds < 0) {
        throw new IllegalArgumentException(
            "--rollout-resync must be 0 (no resync) or more seconds, got " + resyncSeconds);
      }
      kubeConfig =
          kubeconfig == null ? null : ProgramFlags.kubeconfig("--kubeconfig", kubeconfig, true);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    if (!"text".equals(logFormat) && !"json".equals(logFormat)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--logformat must be text or json, got " + logFormat);
    }
    if ("json".equals(logFormat)) {
      useJsonLogs();
    }
    if (leaderElect) {
      electionDurations();
    }
    if (rolloutThreads < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--rollout-threads must be at least 1, got " + rolloutThreads);
    }
    if (analysisThreads < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--analysis-threads must be at least 1, got " + analysisThreads);
    }
    if (experimentThreads < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--experiment-threads must be at least 1, got " + experimentThreads);
    }
    if (pluginHandshakeTimeoutSeconds < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--plugin-handshake-timeout must be at least 1 (seconds), got "
              + pluginHandshakeTimeoutSeconds);
    }
    if (pluginCallTimeoutSeconds < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--plugin-call-timeout must be at least 1 (seconds), got " + pluginCallTimeoutSeconds);
    }
    io.rollgate.controller.traffic.RouterApiVersions routerVersions;
    try {
      routerVersions =
          new io.rollgate.controller.traffic.RouterApiVersions(
              traefikApiGroup, traefikApiVersion, ambassadorApiVersion, appMeshCrdVersion);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    Path plugins =
        pluginDir != null
            ? pluginDir
            : Path.of(System.getProperty("java.io.tmpdir"), "rollgate-plugins");
    String envKubeconfig = System.getenv("KUBECONFIG");
    if (kubeconfig == null && envKubeconfig != null && !envKubeconfig.isEmpty()) {
      boolean any = false;
      String[] parts = envKubeconfig.split(java.io.File.pathSeparator);
      for (String part : parts) {
        if (!part.isEmpty() && Files.isRegularFile(Path.of(part))) {
          try {
            ProgramFlags.kubeconfig("KUBECONFIG", part, parts.length == 1);
          } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
          }
          any = true;
        }
      }
      if (!any) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "KUBECONFIG=" + envKubeconfig + ": no readable kubeconfig file");
      }
    }
    // API calls run on their own pool (--kube-api-threads); Vert.x's shared worker pool only takes
    // the metrics scrape, the periodic sweep and plugin file work, and a thread pool grows to its
    // full size over time, so it stays small.
    Vertx vertx = Vertx.vertx(new VertxOptions().setWorkerPoolSize(WORKER_THREADS));
    io.rollgate.kube.lease.WriteFence fence = new io.rollgate.kube.lease.WriteFence();
    KubernetesClient client = buildClient(vertx, kubeConfig, API_TIMEOUT, fence);
    // A process pause of 2 s or more is logged with the writes it caught in flight
    // (docs/reliability.md).
    new io.rollgate.controller.leader.PauseDetector(fence, 250, 2_000, System::nanoTime)
        .start(vertx);
    String watched = watchedNamespace(client);
    LeaderElection.Settings election = leaderElect ? electionSettings(watched) : null;
    ControllerOptions options =
        new ControllerOptions(
            kubeconfig,
            instanceId,
            watched,
            rolloutThreads,
            Duration.ofSeconds(resyncSeconds),
            kubeApiThreads,
            API_TIMEOUT,
            qps,
            burst,
            metricsPort,
            healthzPort,
            election,
            DRAIN_TIMEOUT,
            analysisThreads,
            !namespaced,
            plugins,
            Duration.ofSeconds(pluginCallTimeoutSeconds),
            Duration.ofSeconds(pluginHandshakeTimeoutSeconds),
            pluginNamespace(client, watched),
            experimentThreads,
            routerVersions,
            pluginBridge,
            selfServiceNotifications,
            awsVerifyTargetGroup);
    LOG.info(
        "starting rollgate-controller server={} instanceId={} namespace={} rolloutThreads={} qps={} burst={}"
            + " leaderElect={}",
        client.getMasterUrl(),
        instanceId.isEmpty() ? "<none>" : instanceId,
        watched == null ? "<all>" : watched,
        rolloutThreads,
        qps,
        burst,
        leaderElect);
    ControllerMetrics metrics = new ControllerMetrics(VERSION);
    ControllerVerticle verticle =
        new ControllerVerticle(options, client, Clock.systemUTC(), metrics, fence);
    // The JVM runs shutdown hooks on SIGTERM; this one is the only place that waits, bounded, for
    // the graceful stop.
    Thread shutdownHook =
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
              metrics.close();
              LOG.info("stopped");
              flushLogs();
            },
            "shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    try {
      // Start-up happens on the main thread, before any reconcile runs; Vert.x threads keep the
      // process alive after.
      vertx
          .deployVerticle(verticle)
          .toCompletionStage()
          .toCompletableFuture()
          .get(START_SECONDS, TimeUnit.SECONDS);
      verticle
          .fatal()
          .onFailure(
              err -> {
                LOG.error("exiting: {}", err.getMessage());
                // Exit from a plain thread: the shutdown hook needs the event loops to drain.
                new Thread(() -> System.exit(1), "exit").start();
              });
    } catch (Exception e) {
      Throwable cause =
          e instanceof java.util.concurrent.ExecutionException && e.getCause() != null
              ? e.getCause()
              : e;
      LOG.error("controller failed to start: {}", startFailure(cause));
      LOG.debug("start failure", cause);
      // Nothing to drain: the graceful stop would wait for a Vert.x that is closed below.
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
      vertx.close();
      client.close();
      metrics.close();
      return 1;
    }
    return 0;
  }

  /**
   * The namespace to watch: {@code --namespace}; with {@code --namespaced} and no {@code
   * --namespace}, {@code $POD_NAMESPACE}, else the client's namespace (kubeconfig context, or the
   * in-cluster service account's).
   */
  private String watchedNamespace(KubernetesClient client) {
    if (namespace != null && !namespace.isEmpty()) {
      return namespace;
    }
    if (!namespaced) {
      return null;
    }
    String podNamespace = System.getenv("POD_NAMESPACE");
    if (podNamespace != null && !podNamespace.isEmpty()) {
      return podNamespace;
    }
    String configured = client.getConfiguration().getNamespace();
    if (configured == null || configured.isEmpty()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--namespaced: no namespace to watch (set --namespace, $POD_NAMESPACE or the kubeconfig context's"
              + " namespace)");
    }
    return configured;
  }

  /**
   * The namespace of {@code argo-rollouts-config}: {@code --plugin-config-namespace}, else {@code
   * $POD_NAMESPACE} (docs/compatibility.md §10.1), else the watched namespace, else the client's
   * namespace, else {@code argo-rollouts}.
   */
  private String pluginNamespace(KubernetesClient client, String watched) {
    if (pluginConfigNamespace != null && !pluginConfigNamespace.isEmpty()) {
      return pluginConfigNamespace;
    }
    String podNamespace = System.getenv("POD_NAMESPACE");
    if (podNamespace != null && !podNamespace.isEmpty()) {
      return podNamespace;
    }
    if (watched != null) {
      return watched;
    }
    String configured = client.getConfiguration().getNamespace();
    return configured == null || configured.isEmpty() ? "argo-rollouts" : configured;
  }

  private void electionDurations() {
    Duration lease = duration("--leader-election-lease-duration", leaseDuration);
    Duration renew = duration("--leader-election-renew-deadline", renewDeadline);
    Duration retry = duration("--leader-election-retry-period", retryPeriod);
    if (lease.compareTo(renew) <= 0 || renew.compareTo(retry) <= 0) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "leader election needs lease-duration > renew-deadline > retry-period, got "
              + leaseDuration
              + " / "
              + renewDeadline
              + " / "
              + retryPeriod);
    }
  }

  /**
   * Leader-election settings; the Lease lives in {@code --leader-election-namespace}, else {@code
   * $POD_NAMESPACE}, else (with {@code --namespaced}, where cluster-wide access may be missing) the
   * watched namespace, else {@code default}.
   */
  private LeaderElection.Settings electionSettings(String watched) {
    Duration lease = duration("--leader-election-lease-duration", leaseDuration);
    Duration renew = duration("--leader-election-renew-deadline", renewDeadline);
    Duration retry = duration("--leader-election-retry-period", retryPeriod);
    String ns = leaderElectionNamespace;
    if (ns == null || ns.isEmpty()) {
      String podNamespace = System.getenv("POD_NAMESPACE");
      if (podNamespace != null && !podNamespace.isEmpty()) {
        ns = podNamespace;
      } else {
        ns = namespaced && watched != null ? watched : "default";
      }
    }
    return new LeaderElection.Settings(
        ns,
        LeaderElection.Settings.lockName(instanceId),
        hostname() + "_" + UUID.randomUUID(),
        lease,
        renew,
        retry);
  }

  private Duration duration(String flag, String text) {
    return GoDurations.parse(text)
        .filter(d -> !d.isNegative() && !d.isZero())
        .orElseThrow(
            () ->
                new CommandLine.ParameterException(
                    spec.commandLine(), flag + ": not a positive Go duration: " + text));
  }

  private static String hostname() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isEmpty()) {
      return env;
    }
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }

  /**
   * Swaps the console encoder for logback's JSON encoder: one JSON object per line, without the
   * context map.
   */
  private static void useJsonLogs() {
    LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
    ch.qos.logback.classic.Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(ctx);
    appender.setName("STDOUT");
    JsonEncoder encoder = new JsonEncoder();
    encoder.setContext(ctx);
    encoder.setWithContext(false);
    encoder.setWithSequenceNumber(false);
    encoder.setWithNanoseconds(false);
    encoder.setWithArguments(false);
    encoder.setWithMessage(false);
    encoder.setWithFormattedMessage(true);
    encoder.start();
    appender.setEncoder(encoder);
    appender.start();
    root.detachAndStopAllAppenders();
    root.addAppender(appender);
  }

  private static void flushLogs() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx) {
      ctx.stop();
    }
  }

  private static KubernetesClient buildClient(
      Vertx vertx,
      Config kubeConfig,
      Duration apiTimeout,
      io.rollgate.kube.lease.WriteFence fence) {
    Config config = kubeConfig != null ? kubeConfig : Config.autoConfigure(null);
    config.setRequestTimeout((int) apiTimeout.toMillis());
    // Names this process in the API server's audit log (docs/reliability.md): which replica sent a
    // request.
    String version = Main.class.getPackage().getImplementationVersion();
    config.setUserAgent(
        "rollgate-controller/"
            + (version == null ? "dev" : version)
            + " (pid "
            + ProcessHandle.current().pid()
            + ")");
    return new KubernetesClientBuilder()
        .withHttpClientFactory(new io.rollgate.controller.kube.NativeTlsClientFactory(vertx))
        .withHttpClientBuilderConsumer(
            b -> b.addOrReplaceInterceptor(io.rollgate.kube.lease.WriteFence.NAME, fence))
        .withConfig(config)
        .build();
  }

  /**
   * Says why the start failed in one line: for a kind the API server does not serve (HTTP 404),
   * that its CRD is missing; otherwise the failure itself.
   */
  static String startFailure(Throwable cause) {
    return io.rollgate.kube.KubeApiException.clientFailure(cause)
        .filter(k -> k.getCode() == 404)
        .map(
            k -> {
              String what = k.getMessage() == null ? "" : k.getMessage();
              int at = what.indexOf("/apis/");
              int end = what.indexOf('?', Math.max(at, 0));
              String path =
                  at < 0 ? "a kind it needs" : what.substring(at, end < 0 ? what.length() : end);
              return "the API server does not serve "
                  + path
                  + " (HTTP 404): are the CRDs installed? (docs/install.md)";
            })
        .orElseGet(cause::toString);
  }

  /** The command line of a new {@link Main}, answering flag errors with {@code shortUsageError}. */
  static CommandLine commandLine() {
    CommandLine cmd = new CommandLine(new Main());
    cmd.setParameterExceptionHandler(Main::shortUsageError);
    return cmd;
  }

  /**
   * Answers a flag error with one line naming the flag and the reason, and where to find the flags,
   * instead of the whole usage text.
   */
  private static int shortUsageError(CommandLine.ParameterException e, String[] args) {
    ProgramFlags.printUsageError(
        e.getCommandLine().getErr(), "rollgate-controller", e.getMessage());
    return e.getCommandLine().getCommandSpec().exitCodeOnInvalidInput();
  }
}
