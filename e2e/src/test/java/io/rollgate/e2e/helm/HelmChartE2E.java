package io.rollgate.e2e.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Helm;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.ServiceAccountKubeconfig;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.WebhookProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.MethodFilter;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The Helm chart on the real API server: lint and render in every certificate mode and in
 * namespaced mode, every rendered object accepted by the API server (server-side dry run), no
 * wildcard in any RBAC rule; then an install whose ServiceAccounts' tokens run the controller and
 * the webhook as local processes, so the canary and blue-green scenarios pass with exactly the
 * chart's RBAC; an upgrade that keeps the webhook certificate and caBundle; an uninstall that
 * leaves only the CRDs.
 *
 * <p>The chart's Deployments are installed with 0 replicas: the local processes stand in for their
 * pods (the local control plane runs no containers). The webhook configurations point at the
 * chart's Service; the local API server has no Service network, so the test re-points them at the
 * local webhook process ({@code clientConfig.url}) when the API server can reach 127.0.0.1, and
 * otherwise (a kind cluster, say) sets {@code failurePolicy: Ignore} and says so.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HelmChartE2E {

  static final String RELEASE = "rg";
  static final String FULLNAME = "rg-rollgate";
  static final String WEBHOOK = FULLNAME + "-webhook";
  static final String SECRET = FULLNAME + "-webhook-certs";
  static final String WEBHOOK_LEASE = WEBHOOK + "-leader";
  static final Duration TIMEOUT = Duration.ofSeconds(90);

  /**
   * Value sets rendered and dry-run: each certificate mode, namespaced mode, and every optional
   * object on.
   */
  static final Map<String, List<String>> VARIANTS =
      Map.of(
          "self", List.of(),
          "certManager", List.of("--set", "certs.mode=certManager"),
          "certManager-issuer",
              List.of(
                  "--set",
                  "certs.mode=certManager",
                  "--set",
                  "certs.certManager.issuerRef.name=ca",
                  "--set",
                  "certs.certManager.issuerRef.kind=ClusterIssuer"),
          "provided", List.of("--set", "certs.mode=provided", "--set", "certs.secretName=mine"),
          "provided-caBundle",
              List.of("--set", "certs.mode=provided", "--set", "certs.caBundle=Zm9v"),
          "namespaced", List.of("--set", "namespaced.enabled=true"),
          "everything",
              List.of(
                  "--set",
                  "serviceMonitor.enabled=true",
                  "--set",
                  "networkPolicy.enabled=true",
                  "--set",
                  "controller.readSecretsForAnalysis=true",
                  "--set",
                  "controller.instanceId=blue",
                  "--set",
                  "controller.selfServiceNotifications=true",
                  "--set",
                  "controller.awsVerifyTargetGroup=true",
                  "--set",
                  "webhook.mutate=false",
                  "--set-json",
                  "config.stepPlugins=[{\"name\":\"x/y\",\"location\":\"file:///p/y\",\"sha256\":\"ab\"}]"));

  static TestCluster cluster;
  static KubernetesClient client;
  static Helm helm;
  static String ns;
  static boolean installed;
  static WebhookProcess webhook;
  static int webhookPort;
  static Path controllerKubeconfig;
  static Path webhookKubeconfig;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    client = cluster.client();
    helm = new Helm(cluster.kubeconfig());
    ns = cluster.createNamespace("helm");
  }

  @AfterAll
  static void tearDown() {
    System.clearProperty("rollgate.controller.kubeconfig");
    System.clearProperty("rollgate.webhook.kubeconfig");
    if (webhook != null) {
      webhook.close();
    }
    if (installed) {
      helm.run("uninstall", RELEASE, "-n", ns, "--wait", "--timeout", "2m");
    }
    // A failed run must never leave a Fail-policy webhook configuration behind to break later
    // tests.
    client
        .admissionRegistration()
        .v1()
        .validatingWebhookConfigurations()
        .withName(WEBHOOK)
        .delete();
    client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(WEBHOOK).delete();
    if (ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  static String template(String variant) {
    List<String> args =
        new ArrayList<>(List.of("template", RELEASE, Helm.chartDir().toString(), "-n", ns));
    args.addAll(VARIANTS.get(variant));
    return helm.run(args.toArray(String[]::new)).orFail("helm template (" + variant + ")").stdout();
  }

  @Test
  @Order(1)
  void lintsAndRendersInEveryMode_andRejectsWrongValueTypes() {
    helm.run("lint", "--strict", Helm.chartDir().toString()).orFail("helm lint");
    for (String variant : VARIANTS.keySet()) {
      List<GenericKubernetesResource> objects = ChartManifests.parse(template(variant));
      assertFalse(objects.isEmpty(), variant);
      List<String> kinds = objects.stream().map(HasMetadata::getKind).toList();
      assertTrue(kinds.contains("Deployment"), variant + ": " + kinds);
    }
    // Mode-specific objects.
    List<String> self = kinds(template("self"));
    assertTrue(self.contains("Secret") && !self.contains("Certificate"), self.toString());
    List<String> cm = kinds(template("certManager"));
    assertTrue(
        cm.contains("Certificate") && cm.contains("Issuer") && !cm.contains("Secret"),
        cm.toString());
    assertTrue(
        template("certManager").contains("cert-manager.io/inject-ca-from: " + ns + "/" + WEBHOOK));
    assertFalse(kinds(template("certManager-issuer")).contains("Issuer"));
    List<String> provided = kinds(template("provided"));
    assertFalse(
        provided.contains("Secret") || provided.contains("Certificate"), provided.toString());
    assertTrue(template("provided").contains("secretName: mine"));
    assertTrue(template("provided-caBundle").contains("caBundle: Zm9v"));
    List<String> clusterScoped =
        ChartManifests.parse(template("namespaced")).stream()
            .filter(o -> o.getKind().startsWith("ClusterRole"))
            .map(o -> o.getMetadata().getName())
            .toList();
    assertFalse(clusterScoped.contains(FULLNAME + "-controller"), clusterScoped.toString());

    // values.schema.json: a wrong type or an unknown mode fails at install/template time, naming
    // the value.
    Helm.Result wrongType =
        helm.run("template", RELEASE, Helm.chartDir().toString(), "--set", "webhook.replicas=two");
    assertNotEquals(0, wrongType.exitCode());
    assertTrue(wrongType.stderr().contains("/webhook/replicas"), wrongType.stderr());
    Helm.Result wrongMode =
        helm.run("template", RELEASE, Helm.chartDir().toString(), "--set", "certs.mode=vault");
    assertNotEquals(0, wrongMode.exitCode());
    assertTrue(wrongMode.stderr().contains("/certs/mode"), wrongMode.stderr());
    Helm.Result typo =
        helm.run("template", RELEASE, Helm.chartDir().toString(), "--set", "webhok.replicas=1");
    assertNotEquals(0, typo.exitCode());
  }

  /**
   * The chart's webhook entries are the ones the webhook registers itself with {@code
   * --register-url}: one per kind, the ConfigMap entry narrowed to {@code argo-rollouts-config}
   * with {@code Ignore}, mutation of Rollouts only.
   */
  @Test
  @Order(1)
  void webhookConfigurationsCoverEveryKindTheWebhookChecks() {
    for (String variant : VARIANTS.keySet()) {
      List<GenericKubernetesResource> objects = ChartManifests.parse(template(variant));
      GenericKubernetesResource v =
          objects.stream()
              .filter(o -> o.getKind().equals("ValidatingWebhookConfiguration"))
              .findFirst()
              .orElseThrow();
      List<ValidatingWebhook> hooks =
          client
              .getKubernetesSerialization()
              .convertValue(v, ValidatingWebhookConfiguration.class)
              .getWebhooks();
      Map<String, ValidatingWebhook> byName =
          hooks.stream().collect(Collectors.toMap(ValidatingWebhook::getName, h -> h));
      assertEquals(
          List.of(
              "validate.rollouts.rollgate.io",
              "validate.rolloutpolicies.rollgate.io",
              "validate.analysistemplates.rollgate.io",
              "validate.plugin-config.rollgate.io"),
          hooks.stream().map(ValidatingWebhook::getName).toList(),
          variant);
      assertEquals(
          List.of("rollouts"),
          byName.get("validate.rollouts.rollgate.io").getRules().get(0).getResources());
      ValidatingWebhook policies = byName.get("validate.rolloutpolicies.rollgate.io");
      assertEquals(List.of("rollgate.io"), policies.getRules().get(0).getApiGroups());
      assertEquals(List.of("rolloutpolicies"), policies.getRules().get(0).getResources());
      assertEquals("Cluster", policies.getRules().get(0).getScope());
      assertEquals(
          List.of(List.of("analysistemplates"), List.of("clusteranalysistemplates")),
          byName.get("validate.analysistemplates.rollgate.io").getRules().stream()
              .map(r -> r.getResources())
              .toList());
      ValidatingWebhook cm = byName.get("validate.plugin-config.rollgate.io");
      assertEquals(List.of("configmaps"), cm.getRules().get(0).getResources());
      assertEquals(
          "object.metadata.name == 'argo-rollouts-config'",
          cm.getMatchConditions().get(0).getExpression());
      assertEquals("Ignore", cm.getFailurePolicy());
      assertEquals(5, cm.getTimeoutSeconds());
      for (ValidatingWebhook h : hooks) {
        assertEquals("None", h.getSideEffects(), h.getName());
        assertEquals(List.of("v1"), h.getAdmissionReviewVersions(), h.getName());
        assertEquals(List.of("CREATE", "UPDATE"), h.getRules().get(0).getOperations(), h.getName());
        if (h != cm) {
          assertEquals("Fail", h.getFailurePolicy(), h.getName());
          assertEquals(10, h.getTimeoutSeconds(), h.getName());
        }
      }
      // The plugin registry lives in the release namespace: the ConfigMap entry must not exclude
      // it.
      assertTrue(
          cm.getNamespaceSelector().getMatchExpressions().stream()
              .noneMatch(e -> e.getValues().contains(ns)),
          variant);
      List<String> mutating =
          objects.stream()
              .filter(o -> o.getKind().equals("MutatingWebhookConfiguration"))
              .map(
                  o ->
                      client
                          .getKubernetesSerialization()
                          .convertValue(o, MutatingWebhookConfiguration.class))
              .flatMap(m -> m.getWebhooks().stream())
              .map(w -> w.getName() + ":" + w.getRules().get(0).getResources())
              .toList();
      assertEquals(
          variant.equals("everything")
              ? List.of()
              : List.of("mutate.rollouts.rollgate.io:[rollouts]"),
          mutating,
          variant);
    }
  }

  /**
   * Whether the Lease has a holder that renewed it after acquiring it (so renewal, not only
   * creation, is allowed).
   */
  static boolean renewedByItsHolder(String lease) {
    Lease l = client.leases().inNamespace(ns).withName(lease).get();
    return l != null
        && l.getSpec().getHolderIdentity() != null
        && !l.getSpec().getHolderIdentity().isEmpty()
        && l.getSpec().getAcquireTime() != null
        && l.getSpec().getRenewTime() != null
        && l.getSpec().getRenewTime().isAfter(l.getSpec().getAcquireTime());
  }

  static List<String> kinds(String yaml) {
    return ChartManifests.parse(yaml).stream().map(HasMetadata::getKind).toList();
  }

  @Test
  @Order(2)
  void everyRenderedObjectIsAcceptedByTheApiServer() {
    List<String> skipped = new ArrayList<>();
    int accepted = 0;
    for (String variant : VARIANTS.keySet()) {
      List<String> args =
          new ArrayList<>(
              List.of("template", RELEASE, Helm.chartDir().toString(), "-n", ns, "--include-crds"));
      args.addAll(VARIANTS.get(variant));
      String yaml = helm.run(args.toArray(String[]::new)).orFail("helm template").stdout();
      for (GenericKubernetesResource o : ChartManifests.parse(yaml)) {
        String group = o.getApiVersion().contains("/") ? o.getApiVersion().split("/")[0] : "";
        if (group.equals("cert-manager.io") || group.equals("monitoring.coreos.com")) {
          if (!crdInstalled(o)) {
            skipped.add(variant + ":" + o.getKind() + "/" + o.getMetadata().getName());
            continue;
          }
        }
        try {
          client
              .resource(o)
              .dryRun()
              .fieldManager("rollgate-e2e-dry-run")
              .forceConflicts()
              .serverSideApply();
          accepted++;
        } catch (KubernetesClientException e) {
          throw new AssertionError(
              variant
                  + ": the API server refused "
                  + o.getKind()
                  + "/"
                  + o.getMetadata().getName()
                  + ": "
                  + e.getMessage(),
              e);
        }
      }
    }
    System.out.println(
        "[helm] dry-run accepted "
            + accepted
            + " objects; not checked (no CRD installed for them): "
            + skipped);
    assertTrue(accepted > 50, "accepted " + accepted);
  }

  boolean crdInstalled(GenericKubernetesResource o) {
    String group = o.getApiVersion().split("/")[0];
    String plural = o.getKind().toLowerCase() + "s";
    return client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .withName(plural + "." + group)
            .get()
        != null;
  }

  @Test
  @Order(3)
  void rbacRulesHaveNoWildcards_andSecretsOnlyWhereNeeded() {
    for (String variant : VARIANTS.keySet()) {
      List<ChartManifests.Rule> rules =
          ChartManifests.rules(ChartManifests.parse(template(variant)));
      assertFalse(rules.isEmpty(), variant);
      assertEquals(List.of(), ChartManifests.wildcards(rules), variant + ": wildcard rules");
      for (ChartManifests.Rule r : rules) {
        if (r.rule().getResources().contains("secrets")) {
          boolean webhookOwnSecret =
              r.kind().equals("Role")
                  && r.name().equals(WEBHOOK)
                  && !variant.startsWith("certManager")
                  && !variant.startsWith("provided");
          boolean analysis =
              variant.equals("everything")
                  && r.name().equals(FULLNAME + "-controller")
                  && r.rule().getVerbs().equals(List.of("get"));
          // docs/notifications.md: the notification Secret, by name only, read by an informer.
          boolean notifications =
              r.name().startsWith(FULLNAME + "-controller")
                  && List.of("argo-rollouts-notification-secret")
                      .equals(r.rule().getResourceNames())
                  && r.rule().getVerbs().equals(List.of("get", "list", "watch"));
          // docs/metric-providers.md: the providers' credential Secrets in the release namespace,
          // by name, get only.
          boolean providers =
              r.name().equals(FULLNAME + "-controller-leader")
                  && List.of("datadog", "newrelic", "wavefront-api-tokens", "influxdb")
                      .equals(r.rule().getResourceNames())
                  && r.rule().getVerbs().equals(List.of("get"));
          assertTrue(
              webhookOwnSecret || analysis || notifications || providers,
              variant + ": unexpected Secret access " + r);
          if (webhookOwnSecret && !r.rule().getVerbs().equals(List.of("create"))) {
            assertEquals(List.of(SECRET), r.rule().getResourceNames(), r.toString());
          }
        }
        if (r.rule().getResources().stream().anyMatch(s -> s.endsWith("webhookconfigurations"))) {
          assertEquals(List.of(WEBHOOK), r.rule().getResourceNames(), r.toString());
        }
      }
    }
    // Namespaced mode: the controller has no cluster-wide role at all.
    List<ChartManifests.Rule> namespaced =
        ChartManifests.rules(ChartManifests.parse(template("namespaced")));
    assertTrue(
        namespaced.stream()
            .noneMatch(r -> r.kind().equals("ClusterRole") && r.name().endsWith("-controller")));
    assertTrue(template("namespaced").contains("--namespace=" + ns));
  }

  @Test
  @Order(4)
  void installs_andItsServiceAccountsRunTheController_andTheWebhook() throws Exception {
    helm.run(
            "install",
            RELEASE,
            Helm.chartDir().toString(),
            "-n",
            ns,
            "--set",
            "controller.replicas=0",
            "--set",
            "webhook.replicas=0",
            "--set",
            "webhook.timeoutSeconds=5",
            "--wait",
            "--timeout",
            "3m")
        .orFail("helm install");
    installed = true;

    // The check on the live objects: the installed roles have no wildcard either.
    List<HasMetadata> roles = new ArrayList<>();
    roles.addAll(
        client
            .rbac()
            .clusterRoles()
            .withLabel("app.kubernetes.io/instance", RELEASE)
            .list()
            .getItems());
    roles.addAll(
        client
            .rbac()
            .roles()
            .inNamespace(ns)
            .withLabel("app.kubernetes.io/instance", RELEASE)
            .list()
            .getItems());
    List<ChartManifests.Rule> live = ChartManifests.rules(roles);
    live.forEach(r -> System.out.println("[helm] " + r));
    assertFalse(live.isEmpty());
    assertEquals(List.of(), ChartManifests.wildcards(live));

    controllerKubeconfig =
        ServiceAccountKubeconfig.write(
            cluster,
            ns,
            FULLNAME + "-controller",
            Path.of("target", "helm", "controller.kubeconfig"));
    webhookKubeconfig =
        ServiceAccountKubeconfig.write(
            cluster, ns, WEBHOOK, Path.of("target", "helm", "webhook.kubeconfig"));

    // The webhook, as the chart's pod runs it in self mode, with the webhook ServiceAccount's
    // token.
    System.setProperty("rollgate.webhook.kubeconfig", webhookKubeconfig.toString());
    webhookPort = WebhookProcess.freePort();
    webhook =
        WebhookProcess.start(
            cluster,
            "helm",
            "--port",
            String.valueOf(webhookPort),
            "--bind-address",
            "127.0.0.1",
            "--namespace",
            ns,
            "--service-name",
            WEBHOOK,
            "--secret-name",
            SECRET,
            "--validating-webhook-name",
            WEBHOOK,
            "--mutating-webhook-name",
            WEBHOOK,
            "--cert-source",
            "generate",
            "--leader-election-lease-name",
            WEBHOOK_LEASE,
            "--plugin-config-namespace",
            ns,
            "--patch-ca-bundle",
            "--tls-san",
            "127.0.0.1",
            "--cert-check-interval",
            "2");
    Awaitility.await("webhook fills the chart's Secret and patches caBundle")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .until(() -> caBundleMatchesSecret());
    Awaitility.await("webhook /readyz answers 200")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .until(() -> httpsGet("/readyz").startsWith("200"));
    // Leader election with the webhook ServiceAccount: its Role covers the Lease the chart names.
    Awaitility.await("webhook with the chart's ServiceAccount holds and renews its Lease")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .until(() -> renewedByItsHolder(WEBHOOK_LEASE));

    // Leader election with the controller ServiceAccount: the Lease Role is enough to lead.
    try (ControllerProcess leader =
        ControllerProcess.start(
            controllerKubeconfig,
            "helm-leader",
            "--leader-elect=true",
            "--leader-election-namespace",
            ns,
            "--namespace",
            ns)) {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      Awaitility.await("controller with the chart's ServiceAccount becomes leader")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(500))
          .ignoreExceptions()
          .until(
              () ->
                  http.send(
                          HttpRequest.newBuilder(
                                  URI.create(
                                      "http://127.0.0.1:" + leader.healthzPort() + "/readyz"))
                              .build(),
                          HttpResponse.BodyHandlers.ofString())
                      .body()
                      .contains("role=leader"));
      Awaitility.await("the controller renews its Lease with the chart's ServiceAccount")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(500))
          .until(() -> renewedByItsHolder("argo-rollouts-controller-lock"));
    }
  }

  @Test
  @Order(5)
  void upgradeKeepsTheCertificateSecret_andTheCaBundle() {
    Secret before = client.secrets().inNamespace(ns).withName(SECRET).get();
    String caBundleBefore = validating().getWebhooks().get(0).getClientConfig().getCaBundle();
    helm.run(
            "upgrade",
            RELEASE,
            Helm.chartDir().toString(),
            "-n",
            ns,
            "--reuse-values",
            "--set",
            "controller.logLevel=debug",
            "--set",
            "webhook.timeoutSeconds=6",
            "--wait",
            "--timeout",
            "3m")
        .orFail("helm upgrade");
    Secret after = client.secrets().inNamespace(ns).withName(SECRET).get();
    assertEquals(
        before.getData(), after.getData(), "certificate Secret data changed by helm upgrade");
    assertEquals(
        before.getMetadata().getResourceVersion(),
        after.getMetadata().getResourceVersion(),
        "helm upgrade wrote the certificate Secret");
    ValidatingWebhookConfiguration v = validating();
    assertEquals(6, v.getWebhooks().get(0).getTimeoutSeconds(), "upgrade applied the new value");
    assertEquals(caBundleBefore, v.getWebhooks().get(0).getClientConfig().getCaBundle());
    assertEquals(caBundleBefore, mutating().getWebhooks().get(0).getClientConfig().getCaBundle());
  }

  @Test
  @Order(6)
  void canaryAndBlueGreenScenariosPassWithTheChartsServiceAccounts() {
    boolean reachable = routeAdmissionToLocalWebhook();
    System.setProperty("rollgate.controller.kubeconfig", controllerKubeconfig.toString());
    System.setProperty("rollgate.webhook.kubeconfig", webhookKubeconfig.toString());
    try {
      LauncherDiscoveryRequest request =
          LauncherDiscoveryRequestBuilder.request()
              .selectors(
                  DiscoverySelectors.selectClass("io.rollgate.e2e.canary.CanaryE2E"),
                  DiscoverySelectors.selectClass("io.rollgate.e2e.bluegreen.BlueGreenE2E"))
              // This scenario creates a Rollout that the webhook refuses at the door (it checks the
              // controller's own verdict on objects that were never admission-checked); with the
              // chart's webhook in the path it cannot be created at all.
              .filters(
                  MethodFilter.excludeMethodNamePatterns(
                      ".*#invalidSpecIsReportedAndOtherRolloutsKeepWorking.*"))
              .build();
      Launcher launcher = LauncherFactory.create();
      SummaryGeneratingListener listener = new SummaryGeneratingListener();
      launcher.execute(request, listener);
      TestExecutionSummary summary = listener.getSummary();
      StringBuilder failures = new StringBuilder();
      summary
          .getFailures()
          .forEach(
              f ->
                  failures
                      .append(f.getTestIdentifier().getDisplayName())
                      .append(": ")
                      .append(f.getException())
                      .append('\n'));
      System.out.println(
          "[helm] scenarios with the chart's ServiceAccounts: "
              + summary.getTestsSucceededCount()
              + " passed, "
              + summary.getTestsFailedCount()
              + " failed");
      assertEquals(0, summary.getTotalFailureCount(), failures.toString());
      assertTrue(
          summary.getTestsSucceededCount() >= 5,
          "scenarios run: " + summary.getTestsSucceededCount());
    } finally {
      System.clearProperty("rollgate.controller.kubeconfig");
    }
    // The webhook's RolloutPolicy audit, as the Lease holder with the chart's webhook
    // ServiceAccount: it lists
    // RolloutPolicies, Namespaces and Rollouts and writes the policy status.
    String policyName = ns + "-audit";
    client
        .resources(RolloutPolicy.class)
        .resource(
            client
                .getKubernetesSerialization()
                .unmarshal(
                    "apiVersion: rollgate.io/v1alpha1\nkind: RolloutPolicy\nmetadata:\n  name: "
                        + policyName
                        + "\n"
                        + "spec:\n  enforcementAction: audit\n"
                        + "  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: "
                        + ns
                        + "}}\n"
                        + "  rules: {maxReplicas: 100}\n",
                    RolloutPolicy.class))
        .create();
    try {
      RolloutPolicy audited =
          Awaitility.await("the webhook's audit writes the RolloutPolicy status")
              .atMost(TIMEOUT)
              .pollInterval(Duration.ofMillis(500))
              .until(
                  () -> client.resources(RolloutPolicy.class).withName(policyName).get(),
                  p -> p.getStatus() != null && p.getStatus().getLastAuditTime() != null);
      assertEquals(
          0, audited.getStatus().getTotalViolations(), String.valueOf(audited.getStatus()));
    } finally {
      client.resources(RolloutPolicy.class).withName(policyName).delete();
    }
    if (reachable) {
      String metrics = httpsGet("/metrics");
      assertTrue(
          metrics.contains(
              "rollgate_webhook_requests_seconds_count{endpoint=\"validate\",kind=\"Rollout\""),
          metrics);
    }
  }

  @Test
  @Order(7)
  void uninstallLeavesOnlyTheCrds() {
    webhook.close();
    helm.run("uninstall", RELEASE, "-n", ns, "--wait", "--timeout", "2m").orFail("helm uninstall");
    installed = false;
    String label = "app.kubernetes.io/instance";
    assertEquals(
        List.of(), names(client.rbac().clusterRoles().withLabel(label, RELEASE).list().getItems()));
    assertEquals(
        List.of(),
        names(client.rbac().clusterRoleBindings().withLabel(label, RELEASE).list().getItems()));
    assertNull(validating());
    assertNull(mutating());
    assertNull(
        client.secrets().inNamespace(ns).withName(SECRET).get(), "certificate Secret left behind");
    assertNull(client.configMaps().inNamespace(ns).withName("argo-rollouts-config").get());
    assertEquals(
        List.of(),
        names(
            client.serviceAccounts().inNamespace(ns).withLabel(label, RELEASE).list().getItems()));
    assertEquals(List.of(), names(client.apps().deployments().inNamespace(ns).list().getItems()));
    assertEquals(List.of(), names(client.services().inNamespace(ns).list().getItems()));
    assertEquals(List.of(), names(client.rbac().roles().inNamespace(ns).list().getItems()));
    assertEquals(
        List.of(),
        names(client.policy().v1().podDisruptionBudget().inNamespace(ns).list().getItems()));
    // The CRDs stay (Helm never deletes crds/), so Rollouts in the cluster survive an uninstall.
    assertNotNull(
        client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .withName("rollouts.argoproj.io")
            .get());
  }

  static List<String> names(List<? extends HasMetadata> items) {
    return items.stream()
        .map(i -> i.getKind() + "/" + i.getMetadata().getName())
        .collect(Collectors.toList());
  }

  static ValidatingWebhookConfiguration validating() {
    return client
        .admissionRegistration()
        .v1()
        .validatingWebhookConfigurations()
        .withName(WEBHOOK)
        .get();
  }

  static MutatingWebhookConfiguration mutating() {
    return client
        .admissionRegistration()
        .v1()
        .mutatingWebhookConfigurations()
        .withName(WEBHOOK)
        .get();
  }

  static boolean caBundleMatchesSecret() {
    Secret s = client.secrets().inNamespace(ns).withName(SECRET).get();
    if (s == null || s.getData() == null || s.getData().get("ca.crt") == null) {
      return false;
    }
    String ca =
        new String(Base64.getDecoder().decode(s.getData().get("ca.crt")), StandardCharsets.UTF_8);
    String expected =
        Base64.getEncoder()
            .encodeToString((ca.endsWith("\n") ? ca : ca + "\n").getBytes(StandardCharsets.UTF_8));
    return Objects.equals(
            expected, validating().getWebhooks().get(0).getClientConfig().getCaBundle())
        && Objects.equals(
            expected, mutating().getWebhooks().get(0).getClientConfig().getCaBundle());
  }

  /**
   * Points both configurations at the local webhook process and waits until an invalid Rollout is
   * refused by it. When the API server cannot reach 127.0.0.1 (it runs elsewhere), sets {@code
   * failurePolicy: Ignore} instead.
   *
   * @return whether admission goes through the local webhook
   */
  static boolean routeAdmissionToLocalWebhook() {
    String base = "https://127.0.0.1:" + webhookPort;
    for (String kind : List.of("validating", "mutating")) {
      String path = kind.equals("validating") ? "/validate" : "/mutate";
      int entries =
          kind.equals("validating")
              ? validating().getWebhooks().size()
              : mutating().getWebhooks().size();
      String patch =
          entryPatches(
              entries,
              i ->
                  "{\"op\":\"remove\",\"path\":\"/webhooks/"
                      + i
                      + "/clientConfig/service\"},{\"op\":\"add\",\"path\":\"/webhooks/"
                      + i
                      + "/clientConfig/url\",\"value\":\""
                      + base
                      + path
                      + "\"}");
      if (kind.equals("validating")) {
        client
            .admissionRegistration()
            .v1()
            .validatingWebhookConfigurations()
            .withName(WEBHOOK)
            .patch(PatchContext.of(PatchType.JSON), patch);
      } else {
        client
            .admissionRegistration()
            .v1()
            .mutatingWebhookConfigurations()
            .withName(WEBHOOK)
            .patch(PatchContext.of(PatchType.JSON), patch);
      }
    }
    String probeNs = cluster.createNamespace("helm-probe");
    Rollouts probe = new Rollouts(client, probeNs);
    try {
      String[] outcome = new String[1];
      Awaitility.await("the API server calls the chart-configured webhook")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(500))
          .until(
              () -> {
                try {
                  probe.create(
                      "webhook/rollout.yaml",
                      Map.of("NAME", "probe-" + System.nanoTime() % 100000, "WEIGHT", "150"));
                  outcome[0] = "admitted";
                  return false;
                } catch (KubernetesClientException e) {
                  if (e.getCode() == 422 && e.getMessage().contains("setWeight")) {
                    outcome[0] = "refused";
                    return true;
                  }
                  outcome[0] = e.getMessage();
                  return e.getMessage() != null
                      && e.getMessage().contains("failed calling webhook")
                      && e.getMessage().contains("connect");
                }
              });
      if ("refused".equals(outcome[0])) {
        return true;
      }
      System.out.println(
          "[helm] the API server cannot reach a webhook on 127.0.0.1 ("
              + outcome[0]
              + "); setting failurePolicy Ignore, admission is not part of this run");
      java.util.function.IntFunction<String> ignore =
          i ->
              "{\"op\":\"replace\",\"path\":\"/webhooks/"
                  + i
                  + "/failurePolicy\",\"value\":\"Ignore\"}";
      client
          .admissionRegistration()
          .v1()
          .validatingWebhookConfigurations()
          .withName(WEBHOOK)
          .patch(
              PatchContext.of(PatchType.JSON),
              entryPatches(validating().getWebhooks().size(), ignore));
      client
          .admissionRegistration()
          .v1()
          .mutatingWebhookConfigurations()
          .withName(WEBHOOK)
          .patch(
              PatchContext.of(PatchType.JSON),
              entryPatches(mutating().getWebhooks().size(), ignore));
      return false;
    } finally {
      cluster.deleteNamespace(probeNs);
    }
  }

  /** A JSON patch of the operations for each webhook entry {@code 0..entries-1}. */
  static String entryPatches(int entries, java.util.function.IntFunction<String> ops) {
    List<String> all = new ArrayList<>();
    for (int i = 0; i < entries; i++) {
      all.add(ops.apply(i));
    }
    return "[" + String.join(",", all) + "]";
  }

  /**
   * GET on the local webhook over HTTPS (the certificate is checked by the API server; here only
   * the answer).
   */
  static String httpsGet(String path) {
    try {
      javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
      ssl.init(
          null,
          new javax.net.ssl.TrustManager[] {
            new javax.net.ssl.X509TrustManager() {
              @Override
              public void checkClientTrusted(java.security.cert.X509Certificate[] c, String a) {}

              @Override
              public void checkServerTrusted(java.security.cert.X509Certificate[] c, String a) {}

              @Override
              public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                return new java.security.cert.X509Certificate[0];
              }
            }
          },
          null);
      HttpClient http =
          HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(2)).build();
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + webhookPort + path)).build(),
              HttpResponse.BodyHandlers.ofString());
      return r.statusCode() + " " + r.body();
    } catch (Exception e) {
      return "-1 " + e;
    }
  }
}
