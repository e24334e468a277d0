package io.rollgate.e2e.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rollgate.api.Rollout;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.api.policy.RolloutPolicyStatus;
import io.rollgate.e2e.support.KubeRequests;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.WebhookProcess;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The webhook's rule families on the real API server, as {@code kubectl apply} users see them: pod
 * template checks, the plugin registry ConfigMap and plugin references, and cluster-wide
 * RolloutPolicies (deny, warn, audit, namespace selection, status written by the audit).
 *
 * <p>Everything cluster-wide (webhook configurations, policies) is named after this class's
 * namespace and selects only namespaces labelled for it, and is deleted after the class.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebhookRulesE2E {

  static final String SELECTOR_KEY = "rollgate.io/webhook-e2e";
  static final String POLICY_KEY = "rollgate.io/policy-e2e";
  static final AtomicInteger SEQ = new AtomicInteger();

  static TestCluster cluster;
  static KubernetesClient client;
  static KubeRequests requests;
  static String ns;
  static String other;
  static String configName;
  static WebhookProcess webhook;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    client = cluster.client();
    requests = new KubeRequests(client);
    ns = cluster.createNamespace("rules");
    other = cluster.createNamespace("rules-other");
    label(ns, Map.of(SELECTOR_KEY, ns, POLICY_KEY, ns));
    label(other, Map.of(SELECTOR_KEY, ns));
    configName = "rollgate-webhook-e2e-" + ns;
    int port = WebhookProcess.freePort();
    webhook =
        WebhookProcess.start(
            cluster,
            ns,
            "--port",
            String.valueOf(port),
            "--bind-address",
            "127.0.0.1",
            "--namespace",
            ns,
            "--tls-san",
            "127.0.0.1",
            "--register-url",
            "https://127.0.0.1:" + port,
            "--validating-webhook-name",
            configName,
            "--mutating-webhook-name",
            configName,
            "--namespace-selector",
            SELECTOR_KEY + "=" + ns,
            "--audit-interval",
            "2",
            // Small pages, so the audit's paging (limit/continue) is exercised by the few Rollouts
            // of these tests.
            "--audit-page-size",
            "2");
    Awaitility.await("webhook registered and serving")
        .atMost(Duration.ofSeconds(240))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                post(ns, rollout(name("probe"), "replicas: 1", CONTAINER, STEPS, "")).code()
                    == 422);
  }

  @AfterAll
  static void tearDown() {
    if (webhook != null) {
      webhook.close();
    }
    if (client != null && configName != null) {
      client
          .admissionRegistration()
          .v1()
          .validatingWebhookConfigurations()
          .withName(configName)
          .delete();
      client
          .admissionRegistration()
          .v1()
          .mutatingWebhookConfigurations()
          .withName(configName)
          .delete();
      client.resources(RolloutPolicy.class).withLabel(POLICY_KEY, ns).delete();
    }
    if (ns != null) {
      cluster.deleteNamespace(ns);
      cluster.deleteNamespace(other);
    }
  }

  static void label(String namespace, Map<String, String> labels) {
    client
        .namespaces()
        .withName(namespace)
        .edit(
            n -> {
              n.getMetadata().getLabels().putAll(labels);
              return n;
            });
  }

  static String name(String prefix) {
    return prefix + "-" + SEQ.incrementAndGet();
  }

  static final String CONTAINER = "[{name: web, image: nginx}]";
  static final String STEPS = "[{setWeight: 20}, {pause: {}}]";

  /**
   * A Rollout as JSON; the probe (no template labels matching) is refused, every other call passes
   * its parts.
   */
  static String rollout(
      String name, String replicas, String containers, String steps, String metadataExtra) {
    boolean probe = name.startsWith("probe");
    String yaml =
        "apiVersion: argoproj.io/v1alpha1\n"
            + "kind: Rollout\n"
            + "metadata:\n"
            + "  name: "
            + name
            + "\n"
            + "  labels: {argo-rollouts.argoproj.io/controller-instance-id: nobody}\n"
            + metadataExtra
            + "spec:\n"
            + "  "
            + replicas
            + "\n"
            + "  selector: {matchLabels: {app: "
            + name
            + "}}\n"
            + "  template:\n"
            + "    metadata: {labels: {app: "
            + (probe ? "other" : name)
            + "}}\n"
            + "    spec: {containers: "
            + containers
            + "}\n"
            + "  strategy: {canary: {steps: "
            + steps
            + "}}\n";
    Object tree = client.getKubernetesSerialization().unmarshal(yaml, Map.class);
    return client.getKubernetesSerialization().asJson(tree);
  }

  static KubeRequests.Answer post(String namespace, String json) {
    return requests.post("/apis/argoproj.io/v1alpha1/namespaces/" + namespace + "/rollouts", json);
  }

  static void assertDenied(KubeRequests.Answer a, String... expected) {
    assertEquals(422, a.code(), a.body());
    for (String e : expected) {
      assertTrue(a.body().contains(e), "expected «" + e + "» in " + a.body());
    }
  }

  @Test
  @Order(1)
  void podTemplateProblemsAreDeniedWithTheFieldPath() {
    KubeRequests.Answer a =
        post(
            ns,
            rollout(
                name("bad-template"),
                "replicas: 1",
                "[{name: web, image: nginx, resources: {limits: {cpu: '1.5.5'}, requests: {memory: 1GB}},"
                    + " ports: [{name: HTTP_PORT, containerPort: 8080}]}, {name: web, image: sidecar}]",
                STEPS,
                "  annotations: {}\n"));
    assertDenied(
        a,
        "spec.template.spec.containers[0].resources.limits.cpu: Invalid value: \\\"1.5.5\\\"",
        "spec.template.spec.containers[0].resources.requests.memory: Invalid value: \\\"1GB\\\"",
        "spec.template.spec.containers[0].ports[0].name: Invalid value: \\\"HTTP_PORT\\\"",
        "spec.template.spec.containers[1].name: Invalid value: \\\"web\\\": Duplicate value");
    String labels =
        rollout(name("bad-labels"), "replicas: 1", CONTAINER, STEPS, "")
            .replace("\"app\":", "\"bad key!\":\"x\",\"app\":");
    assertDenied(
        post(ns, labels), "spec.template.metadata.labels: Invalid value: \\\"bad key!\\\"");
    KubeRequests.Answer good =
        post(
            ns,
            rollout(
                name("good-template"),
                "replicas: 1",
                "[{name: web, image: nginx, resources: {limits: {cpu: 500m, memory: 1Gi}, requests: {cpu: 250m}},"
                    + " ports: [{name: http, containerPort: 8080}]}]",
                STEPS,
                ""));
    assertEquals(201, good.code(), good.body());
  }

  @Test
  @Order(2)
  void pluginReferencesWarnWhileTheRegistryIsAbsent() {
    KubeRequests.Answer a =
        post(
            ns,
            rollout(
                name("plugin-early"),
                "replicas: 1",
                CONTAINER,
                "[{plugin: {name: acme/step}}]",
                ""));
    assertEquals(201, a.code(), a.body());
    assertTrue(
        a.warnings().stream()
            .anyMatch(
                w ->
                    w.startsWith(
                        "spec.strategy.canary.steps[0].plugin.name: plugin \"acme/step\" not checked")),
        String.valueOf(a.warnings()));
  }

  @Test
  @Order(3)
  void pluginRegistryConfigMapIsValidated_andOtherConfigMapsAreNotSent() {
    KubernetesClientException e =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .configMaps()
                    .inNamespace(ns)
                    .resource(
                        registry(
                            "- name: noslash\n  location: ftp://x\n- name: acme/step\n  location: file://a\n"
                                + "  sha256: xyz\n"))
                    .create());
    assertEquals(422, e.getCode(), e.getMessage());
    assertTrue(
        e.getMessage().contains("data.stepPlugins[0].name: Invalid value: \"noslash\""),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("data.stepPlugins[0].location: Invalid value: \"ftp://x\""),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("data.stepPlugins[1].sha256: Invalid value: \"xyz\""),
        e.getMessage());
    // A ConfigMap with another name is never sent (matchConditions), whatever it holds.
    assertNotNull(
        client
            .configMaps()
            .inNamespace(ns)
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("not-the-registry")
                    .endMetadata()
                    .addToData("stepPlugins", "- name: noslash")
                    .build())
            .create());
    assertNotNull(
        client
            .configMaps()
            .inNamespace(ns)
            .resource(
                registry(
                    "- name: acme/step\n  location: file://./step\n  sha256: "
                        + "ab".repeat(32)
                        + "\n"))
            .create());
  }

  static ConfigMap registry(String stepPlugins) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("argo-rollouts-config")
        .endMetadata()
        .addToData("stepPlugins", stepPlugins)
        .addToData(
            "trafficRouterPlugins", "- name: acme/router\n  location: https://example.com/router\n")
        .build();
  }

  @Test
  @Order(4)
  void rolloutPluginStepsMustNameARegisteredPlugin() {
    Awaitility.await("unregistered step plugin refused")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                post(
                            ns,
                            rollout(
                                name("plugin-bad"),
                                "replicas: 1",
                                CONTAINER,
                                "[{plugin: {name: acme/nope}}]",
                                ""))
                        .code()
                    == 422);
    KubeRequests.Answer a =
        post(
            ns,
            rollout(
                name("plugin-bad"), "replicas: 1", CONTAINER, "[{plugin: {name: acme/nope}}]", ""));
    assertDenied(
        a,
        "spec.strategy.canary.steps[0].plugin.name: Invalid value: \\\"acme/nope\\\": not a registered stepPlugins"
            + " entry in "
            + ns
            + "/argo-rollouts-config (registered: acme/step)");
    KubeRequests.Answer ok =
        post(
            ns,
            rollout(
                name("plugin-ok"), "replicas: 1", CONTAINER, "[{plugin: {name: acme/step}}]", ""));
    assertEquals(201, ok.code(), ok.body());
    assertEquals(List.of(), ok.warnings());
  }

  @Test
  @Order(5)
  void invalidPolicyIsDeniedOnApply() {
    KubernetesClientException e =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .resources(RolloutPolicy.class)
                    .resource(policy("bad", "block", "{maxWeightIncrease: 0}"))
                    .create());
    assertEquals(422, e.getCode(), e.getMessage());
    assertTrue(
        e.getMessage().contains("spec.enforcementAction: Invalid value: \"block\""),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("spec.rules.maxWeightIncrease: Invalid value: 0"), e.getMessage());
  }

  static RolloutPolicy policy(String suffix, String action, String rules) {
    String yaml =
        "apiVersion: rollgate.io/v1alpha1\nkind: RolloutPolicy\nmetadata:\n  name: "
            + ns
            + "-"
            + suffix
            + "\n"
            + "  labels: {"
            + POLICY_KEY
            + ": "
            + ns
            + "}\n"
            + "spec:\n  enforcementAction: "
            + action
            + "\n"
            + "  namespaceSelector: {matchLabels: {"
            + POLICY_KEY
            + ": "
            + ns
            + "}}\n"
            + "  rules: "
            + rules
            + "\n";
    return client.getKubernetesSerialization().unmarshal(yaml, RolloutPolicy.class);
  }

  @Test
  @Order(6)
  void denyPolicyRefusesInSelectedNamespacesOnly() {
    client
        .resources(RolloutPolicy.class)
        .resource(policy("replicas", "deny", "{maxReplicas: 3}"))
        .create();
    String expected =
        "spec.replicas: Invalid value: 5: exceeds maxReplicas 3 (RolloutPolicy \\\""
            + ns
            + "-replicas\\\")";
    Awaitility.await("policy enforced")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                post(ns, rollout(name("big"), "replicas: 5", CONTAINER, STEPS, "")).code() == 422);
    assertDenied(post(ns, rollout(name("big"), "replicas: 5", CONTAINER, STEPS, "")), expected);
    // The other namespace is not selected by the policy.
    KubeRequests.Answer elsewhere =
        post(other, rollout(name("big-elsewhere"), "replicas: 5", CONTAINER, STEPS, ""));
    assertEquals(201, elsewhere.code(), elsewhere.body());
    assertEquals(201, post(ns, rollout(name("small"), "replicas: 3", CONTAINER, STEPS, "")).code());
  }

  @Test
  @Order(7)
  void warnPolicyAdmitsWithAWarning() {
    // A merge patch of the spec: the audit writes the status concurrently, so an update could meet
    // a 409.
    client
        .resources(RolloutPolicy.class)
        .withName(ns + "-replicas")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"enforcementAction\":\"warn\"}}");
    String expected =
        "spec.replicas: Invalid value: 5: exceeds maxReplicas 3 (RolloutPolicy \""
            + ns
            + "-replicas\")";
    Awaitility.await("policy warns")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              KubeRequests.Answer a =
                  post(ns, rollout(name("warned"), "replicas: 5", CONTAINER, STEPS, ""));
              return a.code() == 201 && a.warnings().contains(expected);
            });
  }

  @Test
  @Order(8)
  void auditPolicyAdmitsSilently_andTheAuditWritesTheViolationsIntoItsStatus() {
    RolloutPolicy updated =
        client
            .resources(RolloutPolicy.class)
            .withName(ns + "-replicas")
            .patch(
                PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"enforcementAction\":\"audit\",\"rules\":{\"requiredLabels\":[\"team\"]}}}");
    long generation = updated.getMetadata().getGeneration();
    String name = name("audited");
    Awaitility.await("audit policy admits without warning")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              KubeRequests.Answer a =
                  post(ns, rollout(name("audit-probe"), "replicas: 5", CONTAINER, STEPS, ""));
              return a.code() == 201 && a.warnings().isEmpty();
            });
    assertEquals(201, post(ns, rollout(name, "replicas: 4", CONTAINER, STEPS, "")).code());
    String compliant = name("compliant");
    assertEquals(
        201,
        post(
                ns,
                rollout(compliant, "replicas: 2", CONTAINER, STEPS, "")
                    .replace("\"labels\":{", "\"labels\":{\"team\":\"a\","))
            .code());
    RolloutPolicy audited =
        Awaitility.await("audit recorded in the policy status")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(500))
            .until(
                () -> client.resources(RolloutPolicy.class).withName(ns + "-replicas").get(),
                pol -> {
                  RolloutPolicyStatus s = pol.getStatus();
                  return s != null
                      && Long.valueOf(generation).equals(s.getObservedGeneration())
                      && s.getViolations() != null
                      && s.getViolations().stream().anyMatch(v -> v.getName().equals(name));
                });
    RolloutPolicyStatus s = audited.getStatus();
    assertNotNull(s.getLastAuditTime());
    var mine =
        s.getViolations().stream().filter(v -> v.getName().equals(name)).findFirst().orElseThrow();
    assertEquals(ns, mine.getNamespace());
    assertEquals(
        List.of(
            "spec.replicas: Invalid value: 4: exceeds maxReplicas 3 (RolloutPolicy \""
                + ns
                + "-replicas\")",
            "metadata.labels: Required value: label \"team\" is required (RolloutPolicy \""
                + ns
                + "-replicas\")"),
        mine.getMessages());
    assertTrue(
        s.getViolations().stream().noneMatch(v -> v.getName().equals(compliant)),
        String.valueOf(s));
    // Rollouts of the unselected namespace are not counted; every violating Rollout of ours is.
    assertTrue(
        s.getViolations().stream().allMatch(v -> v.getNamespace().equals(ns)), String.valueOf(s));
    long ours =
        client.resources(Rollout.class).inNamespace(ns).list().getItems().stream()
            .filter(
                r ->
                    r.getMetadata().getLabels() == null
                        || !r.getMetadata().getLabels().containsKey("team"))
            .count();
    assertEquals(ours, s.getTotalViolations().longValue(), String.valueOf(s));
  }

  @Test
  @Order(9)
  void analysisTemplatesAreDeniedWithEveryFieldPath_andGoodOnesPass() {
    String bad =
        "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"AnalysisTemplate\",\"metadata\":{\"name\":\"bad\"},"
            + "\"spec\":{\"args\":[{\"name\":\"service\"}],\"metrics\":["
            + "{\"name\":\"rate\",\"interval\":\"1m\",\"count\":3,\"successCondition\":\"result[0] ==\","
            + "\"provider\":{\"prometheus\":{\"query\":\"q{{args.service}}{{args.missing}}\"}}},"
            + "{\"name\":\"rate\",\"count\":2,\"provider\":{\"plugin\":{\"acme/metrics\":{}}}}]}}";
    KubeRequests.Answer a =
        requests.post("/apis/argoproj.io/v1alpha1/namespaces/" + ns + "/analysistemplates", bad);
    assertDenied(
        a,
        "spec.metrics[0].successCondition: Invalid value: \\\"result[0] ==\\\": does not parse: unexpected token EOF"
            + " (1:13)",
        "spec.metrics[0].provider.prometheus.query: Invalid value: \\\"{{args.missing}}\\\": argument \\\"missing\\\""
            + " is not declared in spec.args",
        "spec.metrics[1].name: Invalid value: \\\"rate\\\": Duplicate value",
        "spec.metrics[1].interval: Required value: interval must be specified when count",
        "spec.metrics[1].provider.plugin: Invalid value: \\\"acme/metrics\\\": not a registered metricProviderPlugins"
            + " entry in "
            + ns
            + "/argo-rollouts-config");
    String good =
        "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"ClusterAnalysisTemplate\",\"metadata\":{\"name\":\""
            + ns
            + "-good\"},\"spec\":{\"args\":[{\"name\":\"threshold\",\"value\":\"0.9\"}],\"metrics\":["
            + "{\"name\":\"rate\",\"interval\":\"1m\",\"count\":3,\"failureLimit\":1,"
            + "\"successCondition\":\"result[0] >= {{args.threshold}}\","
            + "\"provider\":{\"prometheus\":{\"address\":\"http://prometheus:9090\",\"query\":\"up\"}}}]}}";
    KubeRequests.Answer created =
        requests.post("/apis/argoproj.io/v1alpha1/clusteranalysistemplates", good);
    try {
      assertEquals(201, created.code(), created.body());
    } finally {
      client
          .genericKubernetesResources("argoproj.io/v1alpha1", "ClusterAnalysisTemplate")
          .withName(ns + "-good")
          .delete();
    }
  }

  static final String STEP_SCHEMA =
      "  configSchema:\n"
          + "    type: object\n"
          + "    required: [url]\n"
          + "    additionalProperties: false\n"
          + "    properties:\n"
          + "      url: {type: string, pattern: '^https?://'}\n"
          + "      retries: {type: integer, minimum: 0, maximum: 5}\n";

  static final String ROUTER_SCHEMA =
      "  configSchema:\n"
          + "    type: object\n"
          + "    required: [backend]\n"
          + "    properties:\n"
          + "      backend: {type: string}\n"
          + "      servers: {type: array, items: {type: string}}\n";

  static void editRegistry(String stepPlugins, String routerPlugins) {
    client
        .configMaps()
        .inNamespace(ns)
        .withName("argo-rollouts-config")
        .edit(
            cm -> {
              cm.getData().put("stepPlugins", stepPlugins);
              cm.getData().put("trafficRouterPlugins", routerPlugins);
              return cm;
            });
  }

  /** A Rollout whose steps and router plugin configuration are given as JSON. */
  static String pluginRollout(String name, String stepsJson, String routerConfigJson) {
    String json = rollout(name, "replicas: 1", CONTAINER, "[]", "");
    return json.replace(
        "\"strategy\":{\"canary\":{\"steps\":[]",
        "\"strategy\":{\"canary\":{\"canaryService\":\""
            + name
            + "-canary\",\"stableService\":\""
            + name
            + "-stable\",\"trafficRouting\":{\"plugins\":{\"acme/router\":"
            + routerConfigJson
            + "}},"
            + "\"steps\":"
            + stepsJson);
  }

  @Test
  @Order(10)
  void pluginRegistrationsAreChecked_andPluginConfigsMustMatchTheirSchemaWithTheFullFieldPath() {
    // Registry entries: a schema that is not a JSON Schema, both location and endpoint, malformed
    // java: and endpoint.
    KubernetesClientException e =
        assertThrows(
            KubernetesClientException.class,
            () ->
                editRegistry(
                    "- name: acme/step\n  location: java:com.example.Step\n"
                        + "  configSchema: {type: objekt, required: url}\n"
                        + "- name: acme/other\n  location: file://./other\n  endpoint: https://other.tools:8443\n"
                        + "- name: acme/java\n  location: 'java:not a class'\n",
                    "- name: acme/router\n  endpoint: 'ftp://router'\n"));
    assertEquals(422, e.getCode(), e.getMessage());
    for (String expected :
        List.of(
            "data.stepPlugins[0].configSchema.required: Invalid value: \"url\": not a valid JSON Schema: string found,"
                + " array expected",
            "data.stepPlugins[0].configSchema.type: Invalid value: \"objekt\": not a valid JSON Schema",
            "data.stepPlugins[1].endpoint: Forbidden: a plugin has exactly one of location and endpoint, not both",
            "data.stepPlugins[2].location: Invalid value: \"java:not a class\": must be java:<class>",
            "data.trafficRouterPlugins[0].endpoint: Invalid value: \"ftp://router\": must be an http:// or https://"
                + " URL")) {
      assertTrue(
          e.getMessage().contains(expected), "expected «" + expected + "» in " + e.getMessage());
    }
    // A good registry: an in-process step plugin and an endpoint router, each with a schema.
    editRegistry(
        "- name: acme/step\n  location: java:com.example.rollgate.CiStep\n" + STEP_SCHEMA,
        "- name: acme/router\n  endpoint: https://router.tools.svc:8443/v1\n" + ROUTER_SCHEMA);
    String bad =
        pluginRollout(
            name("plugin-config-bad"),
            "[{\"setWeight\":10},{\"plugin\":{\"name\":\"acme/step\",\"config\":{\"url\":\"https://ci\"}}},"
                + "{\"plugin\":{\"name\":\"acme/step\",\"config\":{\"retries\":9,\"token\":\"x\"}}}]",
            "{\"servers\":[\"a\",7]}");
    Awaitility.await("the webhook sees the registry's schemas")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> post(ns, bad).body().contains("plugin.config"));
    assertDenied(
        post(ns, bad),
        "spec.strategy.canary.steps[2].plugin.config.url: Required value: required property 'url' not found",
        "spec.strategy.canary.steps[2].plugin.config.retries: Invalid value: 9: must have a maximum value of 5",
        "spec.strategy.canary.steps[2].plugin.config.token: Invalid value: \\\"x\\\": property 'token' is not defined"
            + " in the schema and the schema does not allow additional properties",
        "spec.strategy.canary.trafficRouting.plugins[acme/router].backend: Required value: required property"
            + " 'backend' not found",
        "spec.strategy.canary.trafficRouting.plugins[acme/router].servers[1]: Invalid value: 7: integer found,"
            + " string expected");
    assertTrue(
        !post(ns, bad).body().contains("steps[1].plugin.config"), "steps[1] matches its schema");
    KubeRequests.Answer ok =
        post(
            ns,
            pluginRollout(
                name("plugin-config-ok"),
                "[{\"plugin\":{\"name\":\"acme/step\",\"config\":{\"url\":\"https://ci.example.com/job\","
                    + "\"retries\":2}}}]",
                "{\"backend\":\"web\",\"servers\":[\"stable\",\"canary\"]}"));
    assertEquals(201, ok.code(), ok.body());
    assertTrue(
        ok.warnings().stream().noneMatch(w -> w.contains("plugin")),
        "no plugin warning: " + ok.warnings());
  }

  @Test
  @Order(11)
  void analysisTemplateProviderFieldsAreCheckedOnApply() {
    String template =
        "apiVersion: argoproj.io/v1alpha1\nkind: AnalysisTemplate\nmetadata:\n  name: "
            + name("providers")
            + "\n"
            + "spec:\n  metrics:\n"
            + "  - name: dd\n    provider: {datadog: {apiVersion: v2, aggregator: median}}\n"
            + "  - name: judge\n    provider: {kayenta: {address: 'http://kayenta:8090', application: app,"
            + " canaryConfigName: c, metricsAccountName: m, storageAccountName: s,"
            + " threshold: {pass: 90, marginal: 95}, scopes: [{name: d, controlScope: {scope: a}, experimentScope: {scope: b}}]}}\n"
            + "  - name: wf\n    provider: {wavefront: {query: 'ts(cpu)'}}\n";
    String json =
        client
            .getKubernetesSerialization()
            .asJson(client.getKubernetesSerialization().unmarshal(template, Map.class));
    assertDenied(
        requests.post("/apis/argoproj.io/v1alpha1/namespaces/" + ns + "/analysistemplates", json),
        "spec.metrics[0].provider.datadog.query: Required value: one of query or queries is required",
        "spec.metrics[0].provider.datadog.aggregator: Invalid value: \\\"median\\\"",
        "spec.metrics[1].provider.kayenta.configurationAccountName: Required value",
        "spec.metrics[1].provider.kayenta.threshold.marginal: Invalid value: 95: must not be greater than pass (90)",
        "spec.metrics[1].provider.kayenta.scopes[0].controlScope.start: Required value",
        "spec.metrics[2].provider.wavefront.address: Required value: address is required");
  }
}
