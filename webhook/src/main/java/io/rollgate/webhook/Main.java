package io.rollgate.webhook;

import ch.qos.logback.classic.Level;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.kube.KubeClientFactory;
import io.rollgate.kube.ProgramFlags;
import io.rollgate.kube.TokenBucket;
import io.rollgate.kube.lease.LeaderElection;
import io.rollgate.kube.lease.WriteFence;
import io.rollgate.webhook.kube.WebhookApi;
import io.rollgate.webhook.policy.PolicyAuditor;
import io.rollgate.webhook.tls.CertificateIssuer;
import io.rollgate.webhook.tls.CertificateManager;
import io.rollgate.webhook.tls.CertificateSource;
import io.rollgate.webhook.tls.ProvidedCertificates;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Entry point of the Rollgate admission webhook: {@code java -jar rollgate-webhook.jar [flags]}.
 *
 * <p>Serves {@code /validate}, {@code /mutate}, {@code /healthz}, {@code /readyz} and {@code
 * /metrics} over HTTPS with a certificate it keeps in a Secret, until SIGTERM.
 */
@Command(
    name = "rollgate-webhook",
    mixinStandardHelpOptions = true,
    version = "rollgate-webhook 0.1.0",
    description =
        "Admission webhook for argoproj.io/v1alpha1 Rollouts: validation, defaults, own TLS certificates.")
public final class Main implements Callable<Integer> {

  /** The command line that parsed this object's flags; flag errors are reported through it. */
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  private static final Logger LOG = LoggerFactory.getLogger(Main.class);
  private static final long START_SECONDS = 120;
  private static final long SHUTDOWN_SECONDS = 20;
  private static final long RELEASE_SECONDS = 5;

  /**
   * The webhook's API-server budget: few calls (a Secret check and a caBundle check per
   * --cert-check-interval, one audit per --audit-interval), so a small pool, a rate of 20 calls per
   * second with bursts of 40, and 30 s per call, the client's own request timeout.
   */
  private static final int KUBE_API_THREADS = 4;

  private static final double KUBE_API_QPS = 20;
  private static final int KUBE_API_BURST = 40;
  private static final Duration KUBE_API_TIMEOUT = Duration.ofSeconds(30);
  private static final Path SA_NAMESPACE =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

  @Option(
      names = "--kubeconfig",
      description = "Path of a kubeconfig file (default: $KUBECONFIG, then in-cluster).")
  String kubeconfig;

  /** The file {@code --kubeconfig} names, parsed by the flag checks; null without the flag. */
  private Config parsedKubeconfig;

  @Option(
      names = "--port",
      defaultValue = "9443",
      description = "HTTPS port (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--bind-address",
      defaultValue = "0.0.0.0",
      description = "Address to bind (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(
      names = "--namespace",
      description =
          "Namespace of the webhook's Service (default: $POD_NAMESPACE, the pod's namespace, or default).")
  String namespace;

  @Option(
      names = "--service-name",
      defaultValue = "rollgate-webhook",
      description =
          "Name of the webhook's Service, for the certificate's DNS SANs (default: ${DEFAULT-VALUE}).")
  String serviceName;

  @Option(
      names = "--tls-san",
      description = "Extra SAN for the serving certificate: a DNS name or an IP (repeatable).")
  List<String> tlsSans = new ArrayList<>();

  @Option(
      names = "--secret-namespace",
      description = "Namespace of the certificate Secret (default: --namespace).")
  String secretNamespace;

  @Option(
      names = "--secret-name",
      defaultValue = "rollgate-webhook-certs",
      description = "Name of the certificate Secret (default: ${DEFAULT-VALUE}).")
  String secretName;

  @Option(
      names = "--cert-validity",
      defaultValue = "365",
      description =
          "Lifetime of the serving certificate: days, or a Go duration such as 2h (default: ${DEFAULT-VALUE} days).")
  String certValidityText;

  @Option(
      names = "--ca-validity",
      defaultValue = "3650",
      description = "Lifetime of the CA: days, or a Go duration (default: ${DEFAULT-VALUE} days).")
  String caValidityText;

  @Option(
      names = "--cert-renew-before",
      defaultValue = "30",
      description =
          "Renew a certificate expiring within this window: days, or a Go duration (default: ${DEFAULT-VALUE} days).")
  String renewBeforeText;

  @Option(
      names = "--plugin-config-namespace",
      description =
          "Namespace of the plugin registry ConfigMap argo-rollouts-config, i.e. the controller's (default: --namespace).")
  String pluginConfigNamespace;

  @Option(
      names = "--leader-elect",
      defaultValue = "true",
      // Without arity and fallbackValue, picocli 4.7 takes a bare --leader-elect of a
      // true-by-default negatable
      // option as its negation (false); --leader-elect, --leader-elect=true|false and
      // --no-leader-elect all mean
      // what they say, as the controller's flag of the same name.
      arity = "0..1",
      fallbackValue = "true",
      negatable = true,
      description =
          "Elect one replica (Lease) to renew the certificate and audit RolloutPolicies (default: ${DEFAULT-VALUE}).")
  boolean leaderElect;

  @Option(
      names = "--leader-election-lease-name",
      defaultValue = "rollgate-webhook-leader",
      description = "Name of the Lease in --namespace (default: ${DEFAULT-VALUE}).")
  String leaseName;

  @Option(
      names = "--audit-interval",
      defaultValue = "60",
      description =
          "Seconds between audits of existing Rollouts against RolloutPolicies (default: ${DEFAULT-VALUE}).")
  long auditSeconds;

  @Option(
      names = "--audit-page-size",
      defaultValue = "500",
      description =
          "Rollouts per list request during an audit (API limit; the audit holds one page in memory at a time)"
              + " (default: ${DEFAULT-VALUE}).")
  long auditPageSize;

  @Option(
      names = "--cert-check-interval",
      defaultValue = "60",
      description =
          "How often the Secret is checked, repaired and reloaded, in seconds (default: ${DEFAULT-VALUE}).")
  long certCheckSeconds;

  @Option(
      names = "--cert-source",
      defaultValue = "generate",
      description =
          "Where the serving certificate comes from: generate (own CA, kept and rotated in --secret-name), files "
              + "(tls.crt, tls.key, ca.crt in --cert-dir, e.g. a mounted cert-manager Secret; reloaded when they "
              + "change) or secret (read --secret-name, never written) (default: ${DEFAULT-VALUE}).")
  String certSource;

  @Option(
      names = "--cert-dir",
      defaultValue = "/etc/rollgate/tls",
      description =
          "Directory holding tls.crt, tls.key and ca.crt for --cert-source=files (default: ${DEFAULT-VALUE}).")
  String certDir;

  @Option(
      names = "--patch-ca-bundle",
      description =
          "Patch our CA into caBundle of the existing webhook configurations named by --validating-webhook-name and "
              + "--mutating-webhook-name (as installed by the Helm chart) instead of registering them.")
  boolean patchCaBundle;

  @Option(
      names = "--register-url",
      description = "Create or update the webhook configurations pointing at this https base URL.")
  String registerUrl;

  @Option(
      names = "--validating-webhook-name",
      defaultValue = "rollgate-webhook",
      description = "Name of the ValidatingWebhookConfiguration (default: ${DEFAULT-VALUE}).")
  String validatingName;

  @Option(
      names = "--mutating-webhook-name",
      defaultValue = "rollgate-webhook",
      description = "Name of the MutatingWebhookConfiguration (default: ${DEFAULT-VALUE}).")
  String mutatingName;

  @Option(
      names = "--namespace-selector",
      description =
          "key=value label a namespace must carry to be covered by the registered webhooks (repeatable).")
  List<String> namespaceSelector = new ArrayList<>();

  @Option(
      names = "--no-mutate",
      description = "Do not patch defaults: /mutate allows everything unchanged.")
  boolean noMutate;

  @Option(
      names = "--max-request-bytes",
      defaultValue = "3145728",
      description =
          "Largest accepted request body, in bytes; larger ones get 413 (default: ${DEFAULT-VALUE}).")
  long bodyLimit;

  @Option(
      names = "--event-loops",
      description =
          "Vert.x event loops serving HTTPS, each taking connections in turn (default: the number of cores the JVM"
              + " sees).")
  Integer eventLoops;

  @Option(
      names = "--loglevel",
      defaultValue = "info",
      description =
          "Log level: panic, fatal, error, warn, info, debug or trace (default: ${DEFAULT-VALUE}).")
  String logLevel;

  /**
   * Parses the flags and runs the webhook until SIGTERM.
   *
   * @param args command-line flags; {@code --help} lists them
   */
  public static void main(String[] args) {
    CommandLine cmd = new CommandLine(new Main());
    cmd.setParameterExceptionHandler(
        (e, badArgs) -> {
          ProgramFlags.printUsageError(
              e.getCommandLine().getErr(), "rollgate-webhook", e.getMessage());
          return e.getCommandLine().getCommandSpec().exitCodeOnInvalidInput();
        });
    int code = cmd.execute(args);
    if (code != 0 || cmd.isUsageHelpRequested() || cmd.isVersionHelpRequested()) {
      System.exit(code);
    }
  }

  @Override
  public Integer call() {
    try {
      ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME))
          .setLevel(Level.toLevel(ProgramFlags.logLevel("--loglevel", logLevel)));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    WebhookOptions options = options();
    // The epoll transport (netty-transport-native-epoll, on the classpath) answers with fewer
    // system calls than NIO;
    // where it cannot load (another OS or libc) Vert.x runs on NIO and the log says why.
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    if (vertx.isNativeTransportEnabled()) {
      LOG.info("network transport: native epoll");
    } else {
      LOG.info(
          "network transport: NIO (native epoll unavailable: {})",
          vertx.unavailableNativeTransportCause());
    }
    LOG.info("TLS engine: {}", WebhookServer.tlsEngine());
    String identity = identity();
    // Only the Lease holder writes policy audit results: those writes are fenced on the Lease
    // (docs/reliability.md). Certificate Secret writes are not: every replica must be able to fill
    // the Secret before anyone leads (the chart creates it empty), and each write carries the
    // resourceVersion it read, so the API server refuses a stale one.
    WriteFence fence =
        new WriteFence((method, path) -> path.startsWith("/apis/" + RolloutPolicy.GROUP + "/"));
    KubernetesClient client = buildClient(vertx, fence, identity);
    WebhookMetrics metrics = new WebhookMetrics();
    WebhookApi api =
        new WebhookApi(
            vertx,
            client,
            KUBE_API_THREADS,
            KUBE_API_TIMEOUT,
            new TokenBucket(KUBE_API_QPS, KUBE_API_BURST, System::nanoTime),
            metrics);
    CertificateIssuer issuer = new CertificateIssuer(Clock.systemUTC());
    CertificateSource certificates =
        switch (certSource) {
          case "files" ->
              ProvidedCertificates.fromDirectory(vertx, issuer, options.sans(), Path.of(certDir));
          case "secret" ->
              ProvidedCertificates.fromSecret(
                  vertx,
                  issuer,
                  options.sans(),
                  api,
                  options.secretNamespace(),
                  options.secretName());
          default ->
              new CertificateManager(
                  vertx,
                  api,
                  issuer,
                  new CertificateManager.Settings(
                      options.secretNamespace(),
                      options.secretName(),
                      options.sans(),
                      options.caValidity(),
                      options.certValidity(),
                      options.renewBefore()));
        };
    CaBundlePublisher registrar =
        patchCaBundle
            ? new CaBundlePatcher(
                api, options.validatingName(), options.mutate() ? options.mutatingName() : null)
            : options.registerUrl() == null
                ? null
                : new WebhookRegistrar(
                    api,
                    new WebhookRegistrar.Settings(
                        options.validatingName(),
                        options.mutatingName(),
                        options.registerUrl(),
                        options.namespaceSelector(),
                        options.mutate()));
    LOG.info(
        "starting rollgate-webhook server={} certs={} sans={} mutate={}",
        client.getMasterUrl(),
        certificates instanceof ProvidedCertificates p
            ? p.where()
            : "generated in Secret " + options.secretNamespace() + "/" + options.secretName(),
        options.sans(),
        options.mutate());
    PolicyAuditor[] auditor = new PolicyAuditor[1];
    ClusterWatch cluster =
        new ClusterWatch(
            client,
            options.pluginConfigNamespace(),
            () -> {
              if (auditor[0] != null) {
                auditor[0].trigger();
              }
            });
    // Every replica serves admissions; only the Lease holder renews the certificate and audits
    // Rollouts. A replica that loses the Lease keeps serving and campaigns again
    // (docs/reliability.md).
    LeaderElection leader =
        (options.leaderElect()
                ? LeaderElection.rejoining(
                    vertx.getOrCreateContext(),
                    client,
                    new LeaderElection.Settings(
                        options.namespace(),
                        options.leaseName(),
                        identity,
                        Duration.ofSeconds(15),
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(2)),
                    "webhook-leader-election")
                : LeaderElection.disabled(vertx.getOrCreateContext()))
            .onElected(
                () -> {
                  if (auditor[0] != null) {
                    auditor[0].trigger();
                  }
                });
    if (options.leaderElect()) {
      fence.guard(leader::holdsLease);
      api.leaderOnly(leader::holdsLease);
    }
    auditor[0] =
        new PolicyAuditor(
            vertx,
            api,
            cluster,
            Clock.systemUTC(),
            options.auditInterval(),
            auditPageSize,
            leader::holdsLease);
    WebhookVerticle verticle =
        new WebhookVerticle(
            options,
            certificates,
            registrar,
            metrics,
            new AdmissionHandler(cluster),
            options.leaderElect() ? leader : null,
            () -> {
              cluster.start();
              auditor[0].start();
              leader.start();
            });
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  api.fence("shutting down");
                  try {
                    // Releases the Lease when held, so that a standby takes over at once.
                    leader
                        .release()
                        .toCompletionStage()
                        .toCompletableFuture()
                        .get(RELEASE_SECONDS, TimeUnit.SECONDS);
                  } catch (Exception e) {
                    LOG.warn("Lease release incomplete: {}", e.toString());
                  }
                  cluster.close();
                  try {
                    vertx
                        .close()
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
      // Start-up happens on the main thread; Vert.x threads keep the process alive after.
      vertx
          .deployVerticle(verticle)
          .toCompletionStage()
          .toCompletableFuture()
          .get(START_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      Throwable cause =
          e instanceof java.util.concurrent.ExecutionException && e.getCause() != null
              ? e.getCause()
              : e;
      LOG.error("webhook failed to start: {}", cause.toString());
      LOG.debug("start failure", cause);
      vertx.close();
      client.close();
      return 1;
    }
    return 0;
  }

  private WebhookOptions options() {
    CommandLine cmd = spec.commandLine();
    try {
      ProgramFlags.port("--port", port);
      parsedKubeconfig =
          kubeconfig == null ? null : ProgramFlags.kubeconfig("--kubeconfig", kubeconfig, true);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cmd, e.getMessage(), e);
    }
    Duration certValidity = lifetime(cmd, "--cert-validity", certValidityText);
    Duration caValidity = lifetime(cmd, "--ca-validity", caValidityText);
    Duration renewBefore = lifetime(cmd, "--cert-renew-before", renewBeforeText);
    if (certValidity.toSeconds() < 1
        || caValidity.toSeconds() < 1
        || renewBefore.isNegative()
        || certCheckSeconds < 1
        || auditSeconds < 1) {
      throw new CommandLine.ParameterException(
          cmd,
          "--cert-validity and --ca-validity must be >= 1s, --cert-renew-before >= 0, --cert-check-interval and"
              + " --audit-interval >= 1");
    }
    if (auditPageSize < 1) {
      throw new CommandLine.ParameterException(
          cmd, "--audit-page-size must be >= 1, got " + auditPageSize);
    }
    if (renewBefore.compareTo(certValidity) >= 0) {
      throw new CommandLine.ParameterException(
          cmd, "--cert-renew-before must be shorter than --cert-validity");
    }
    if (!List.of("generate", "files", "secret").contains(certSource)) {
      throw new CommandLine.ParameterException(
          cmd, "--cert-source must be generate, files or secret, got " + certSource);
    }
    if (patchCaBundle && registerUrl != null) {
      throw new CommandLine.ParameterException(
          cmd,
          "--patch-ca-bundle and --register-url exclude each other: patch configurations installed by the chart, "
              + "or register our own");
    }
    if ("files".equals(certSource) && !Files.isDirectory(Path.of(certDir))) {
      throw new CommandLine.ParameterException(
          cmd, "--cert-dir: " + certDir + " is not a directory");
    }
    if (eventLoops != null && eventLoops < 1) {
      throw new CommandLine.ParameterException(cmd, "--event-loops must be at least 1");
    }
    if (bodyLimit < 1024) {
      throw new CommandLine.ParameterException(cmd, "--max-request-bytes must be at least 1024");
    }
    if (registerUrl != null) {
      URI uri;
      try {
        uri = URI.create(registerUrl);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(cmd, "--register-url: " + e.getMessage());
      }
      if (!"https".equals(uri.getScheme()) || uri.getHost() == null) {
        throw new CommandLine.ParameterException(
            cmd, "--register-url must be an https URL, got " + registerUrl);
      }
    }
    Map<String, String> selector = new LinkedHashMap<>();
    for (String kv : namespaceSelector) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new CommandLine.ParameterException(
            cmd, "--namespace-selector must be key=value, got " + kv);
      }
      selector.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    String ns = namespace != null ? namespace : podNamespace();
    return new WebhookOptions(
        host,
        port,
        ns,
        serviceName,
        List.copyOf(tlsSans),
        secretNamespace != null ? secretNamespace : ns,
        secretName,
        caValidity,
        certValidity,
        renewBefore,
        Duration.ofSeconds(certCheckSeconds),
        registerUrl,
        validatingName,
        mutatingName,
        selector,
        !noMutate,
        bodyLimit,
        pluginConfigNamespace != null ? pluginConfigNamespace : ns,
        leaderElect,
        leaseName,
        Duration.ofSeconds(auditSeconds),
        eventLoops != null ? eventLoops : Runtime.getRuntime().availableProcessors());
  }

  /** A lifetime flag: a whole number of days, or a Go duration ({@code 90s}, {@code 2h}). */
  private static Duration lifetime(CommandLine cmd, String flag, String text) {
    if (text != null && text.matches("\\d+")) {
      return Duration.ofDays(Long.parseLong(text));
    }
    return io.rollgate.defaults.GoDurations.parse(text)
        .orElseThrow(
            () ->
                new CommandLine.ParameterException(
                    cmd, flag + " must be days or a Go duration such as 90s, got " + text));
  }

  private static String identity() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = java.net.InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        host = "webhook";
      }
    }
    return host + "_" + java.util.UUID.randomUUID();
  }

  private static String podNamespace() {
    String env = System.getenv("POD_NAMESPACE");
    if (env != null && !env.isBlank()) {
      return env;
    }
    try {
      if (Files.isReadable(SA_NAMESPACE)) {
        return Files.readString(SA_NAMESPACE).trim();
      }
    } catch (IOException e) {
      LOG.debug("cannot read {}: {}", SA_NAMESPACE, e.toString());
    }
    return "default";
  }

  private KubernetesClient buildClient(Vertx vertx, WriteFence fence, String identity) {
    Config config = parsedKubeconfig != null ? parsedKubeconfig : Config.autoConfigure(null);
    config.setRequestTimeout(30_000);
    // Each replica names itself, so that the API server's audit log tells which one sent what.
    String version = Main.class.getPackage().getImplementationVersion();
    config.setUserAgent(
        "rollgate-webhook/"
            + (version == null ? "dev" : version)
            + " (pid "
            + ProcessHandle.current().pid()
            + ") "
            + identity);
    return new KubernetesClientBuilder()
        .withHttpClientFactory(new KubeClientFactory(vertx))
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor(WriteFence.NAME, fence))
        .withConfig(config)
        .build();
  }
}
