package io.rollgate.e2e.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.WebhookProcess;
import java.time.Duration;
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
 * The admission webhook registered with the real API server through {@code clientConfig.url} on
 * 127.0.0.1: bad Rollouts are refused at create with every field path, good ones are admitted and
 * defaulted, the status subresource never goes through the webhook, and a deleted certificate
 * Secret is recreated while admissions keep working.
 *
 * <p>The webhook configurations are cluster-wide, so they only select namespaces labelled {@code
 * rollgate.io/webhook-e2e=<this class's namespace>} and are deleted after the class.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebhookE2E {

  static final String SELECTOR_KEY = "rollgate.io/webhook-e2e";
  static final String SECRET = "rollgate-webhook-certs";
  static final AtomicInteger SEQ = new AtomicInteger();

  static TestCluster cluster;
  static KubernetesClient client;
  static String ns;
  static String configName;
  static Rollouts rollouts;
  static WebhookProcess webhook;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    client = cluster.client();
    ns = cluster.createNamespace("webhook");
    client
        .namespaces()
        .withName(ns)
        .edit(
            n -> {
              n.getMetadata().getLabels().put(SELECTOR_KEY, ns);
              return n;
            });
    configName = "rollgate-webhook-e2e-" + ns;
    rollouts = new Rollouts(client, ns);
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
            "--cert-check-interval",
            "2");
    awaitWebhookEffective();
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
    }
    if (ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  static String uniqueName(String prefix) {
    return prefix + "-" + SEQ.incrementAndGet();
  }

  /**
   * Waits until the API server calls the webhook: an invalid Rollout is refused (one that slips
   * through is removed).
   */
  static void awaitWebhookEffective() {
    Awaitility.await("webhook registered and serving")
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(
            () -> {
              String name = uniqueName("probe");
              try {
                rollouts.create("webhook/rollout.yaml", Map.of("NAME", name, "WEIGHT", "150"));
              } catch (KubernetesClientException e) {
                return e.getCode() == 422 && e.getMessage().contains("setWeight");
              }
              client.resources(Rollout.class).inNamespace(ns).withName(name).delete();
              return false;
            });
  }

  @Test
  @Order(1)
  void deniesRolloutAtCreate_withEveryFieldPathInTheMessage() {
    KubernetesClientException e =
        assertThrows(
            KubernetesClientException.class,
            () ->
                rollouts.create(
                    "webhook/rollout-no-selector.yaml", Map.of("NAME", "bad", "WEIGHT", "150")));
    assertEquals(422, e.getCode(), e.getMessage());
    assertTrue(e.getMessage().contains("spec.selector: Required value"), e.getMessage());
    assertTrue(
        e.getMessage().contains("spec.strategy.canary.steps[0].setWeight: Invalid value: 150"),
        e.getMessage());
    assertEquals(null, rollouts.get("bad"));
  }

  @Test
  @Order(2)
  void admitsValidRollout_andDefaultsAbsentReplicas() {
    Rollout created =
        rollouts.create("webhook/rollout.yaml", Map.of("NAME", "good", "WEIGHT", "20"));
    assertEquals(1, created.getSpec().getReplicas());
    assertEquals(1, rollouts.get("good").getSpec().getReplicas());
    // Applying the stored object again changes nothing (the mutation is idempotent).
    Rollout again =
        client.resources(Rollout.class).inNamespace(ns).resource(rollouts.get("good")).update();
    assertEquals(created.getMetadata().getGeneration(), again.getMetadata().getGeneration());
  }

  @Test
  @Order(3)
  void statusPatchesBypassTheWebhook_whileRolloutWritesFailClosed() {
    webhook.close();
    // The status subresource is not in the webhook rules: the controller's writes never depend on
    // the webhook.
    Rollout patched =
        client
            .resources(Rollout.class)
            .inNamespace(ns)
            .withName("good")
            .subresource("status")
            .patch(
                PatchContext.of(PatchType.JSON_MERGE),
                "{\"status\":{\"phase\":\"Paused\",\"message\":\"e2e\"}}");
    assertEquals("e2e", patched.getStatus().getMessage());
    // failurePolicy Fail: while the webhook is down, Rollout creates and updates in covered
    // namespaces are refused.
    KubernetesClientException down =
        assertThrows(
            KubernetesClientException.class,
            () ->
                rollouts.create(
                    "webhook/rollout.yaml", Map.of("NAME", "while-down", "WEIGHT", "20")));
    assertTrue(down.getMessage().contains("failed calling webhook"), down.getMessage());
    // Other kinds are unaffected.
    assertNotNull(
        client
            .configMaps()
            .inNamespace(ns)
            .resource(
                new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("unaffected")
                    .endMetadata()
                    .addToData("k", "v")
                    .build())
            .create());

    webhook.restart();
    awaitWebhookEffective();
    assertEquals(
        1,
        rollouts
            .create("webhook/rollout.yaml", Map.of("NAME", "after-restart", "WEIGHT", "20"))
            .getSpec()
            .getReplicas());
  }

  @Test
  @Order(4)
  void recreatesDeletedSecret_andAdmissionsKeepWorking() {
    Secret before = client.secrets().inNamespace(ns).withName(SECRET).get();
    assertNotNull(before, "certificate Secret created on start");
    assertTrue(
        before.getData().keySet().containsAll(java.util.List.of("ca.crt", "tls.crt", "tls.key")));
    client.secrets().inNamespace(ns).withName(SECRET).delete();
    Awaitility.await("Secret recreated")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              Secret s = client.secrets().inNamespace(ns).withName(SECRET).get();
              return s != null && !s.getMetadata().getUid().equals(before.getMetadata().getUid());
            });
    ValidatingWebhookConfiguration config =
        client
            .admissionRegistration()
            .v1()
            .validatingWebhookConfigurations()
            .withName(configName)
            .get();
    Secret after = client.secrets().inNamespace(ns).withName(SECRET).get();
    String caBundle =
        new String(
            java.util.Base64.getDecoder()
                .decode(config.getWebhooks().get(0).getClientConfig().getCaBundle()),
            java.nio.charset.StandardCharsets.UTF_8);
    String ca =
        new String(
            java.util.Base64.getDecoder().decode(after.getData().get("ca.crt")),
            java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(caBundle.contains(ca.trim()), "registered caBundle trusts the Secret's CA");
    for (int i = 0; i < 5; i++) {
      Rollout r =
          rollouts.create(
              "webhook/rollout.yaml", Map.of("NAME", "after-secret-" + i, "WEIGHT", "20"));
      assertEquals(1, r.getSpec().getReplicas());
    }
    assertThrows(
        KubernetesClientException.class,
        () ->
            rollouts.create(
                "webhook/rollout.yaml", Map.of("NAME", "still-checked", "WEIGHT", "150")));
  }

  @Test
  @Order(5)
  void stepAnalysisWhoseMetricWouldRunForeverIsRefusedOnApply_aTemplateNotAppliedYetIsAWarning() {
    String forever =
        "apiVersion: argoproj.io/v1alpha1\nkind: AnalysisTemplate\nmetadata:\n  name: forever\nspec:\n  metrics:\n"
            + "  - name: rate\n    interval: 30s\n    successCondition: result == 1\n    provider:\n"
            + "      web:\n        url: http://127.0.0.1:1/check\n";
    client
        .resource(
            client
                .getKubernetesSerialization()
                .unmarshal(forever, io.rollgate.api.AnalysisTemplate.class))
        .inNamespace(ns)
        .create();
    // The webhook sees the template through its informer: the denial comes once it has arrived.
    Awaitility.await("a step analysis of a template without count refused")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              String name = uniqueName("forever");
              try {
                rollouts.create(
                    "webhook/step-analysis.yaml", Map.of("NAME", name, "TEMPLATE", "forever"));
              } catch (KubernetesClientException e) {
                assertEquals(422, e.getCode(), e.getMessage());
                assertTrue(
                    e.getMessage()
                        .contains(
                            "spec.strategy.canary.steps[1].analysis.templates: Invalid value: "
                                + "\"templateNames: [forever]\": AnalysisTemplate forever has metric rate which runs "
                                + "indefinitely. Invalid value for count: <nil>"),
                    e.getMessage());
                return true;
              }
              client.resources(Rollout.class).inNamespace(ns).withName(name).delete();
              return false;
            });
    // A template applied after the Rollout (kubectl apply of a folder) must not make the Rollout
    // fail to apply; the admission answer carries a warning instead (AdmissionHandlerTest checks
    // its text).
    Rollout later =
        rollouts.create(
            "webhook/step-analysis.yaml", Map.of("NAME", "later", "TEMPLATE", "not-yet"));
    assertNotNull(later, "a Rollout naming a template that does not exist yet is admitted");
  }
}
