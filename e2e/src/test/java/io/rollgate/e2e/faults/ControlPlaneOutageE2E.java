package io.rollgate.e2e.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControlPlaneComponent;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.FaultReport;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.TestHttpServer;
import io.rollgate.e2e.support.WebhookEndpoint;
import io.rollgate.e2e.support.WebhookProcess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The control plane goes away under a running controller: kube-apiserver, or separately etcd, is
 * killed with SIGKILL while a canary Rollout waits in a timed pause, a step analysis is measuring
 * and a blue-green Rollout waits for its promotion, and is started again 20 s later. The controller
 * must not die or crash-loop; once the API server answers again it re-lists and carries every
 * Rollout to Healthy, with one ReplicaSet per pod template and one AnalysisRun for the step.
 * Meanwhile the admission webhook keeps answering the reviews it can decide without the API server
 * (a valid Rollout allowed, an invalid one denied with the field named) and stays ready, as its
 * serving certificate is loaded. Components that exit by design while the API server is away
 * (kube-controller-manager and kube-scheduler lose their leader lease) are started again, as a
 * kubelet restarts static pods.
 *
 * <p>Only on the local control plane, whose processes the test can kill; skipped on another
 * cluster.
 */
@ExtendWith(ControlPlaneOutageE2E.FailureTracker.class)
class ControlPlaneOutageE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(120);
  static final Duration DOWN = Duration.ofSeconds(20);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static WebhookProcess webhook;
  static WebhookEndpoint endpoint;
  static TestHttpServer checks;
  static List<ControlPlaneComponent> components;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    components = ControlPlaneComponent.all(cluster);
    ns = cluster.createNamespace("outage");
    rollouts = new Rollouts(cluster.client(), ns);
    checks =
        TestHttpServer.http()
            .route("/check", r -> TestHttpServer.Response.json(200, "{\"ok\":true}"));
    controller = ControllerProcess.start(cluster, "outage", "--namespace", ns);
    int port = WebhookProcess.freePort();
    webhook =
        WebhookProcess.start(
            cluster,
            "outage",
            "--port",
            String.valueOf(port),
            "--bind-address",
            "127.0.0.1",
            "--namespace",
            ns,
            "--tls-san",
            "127.0.0.1");
    Awaitility.await("the webhook's certificate Secret")
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(
            () -> {
              Secret s =
                  cluster
                      .client()
                      .secrets()
                      .inNamespace(ns)
                      .withName("rollgate-webhook-certs")
                      .get();
              if (s == null || s.getData() == null || s.getData().get("ca.crt") == null) {
                return false;
              }
              endpoint = new WebhookEndpoint(port, s.getData().get("ca.crt"));
              return endpoint.readyz() == 200;
            });
  }

  @AfterAll
  static void tearDown() {
    // Whatever happened, leave the control plane running for the tests after this one.
    if (components != null) {
      components.forEach(ControlPlaneComponent::ensureRunning);
    }
    if (controller != null) {
      controller.close();
    }
    if (webhook != null) {
      webhook.close();
    }
    if (checks != null) {
      checks.close();
    }
    if (!failed && ns != null) {
      awaitApi();
      cluster.deleteNamespace(ns);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"kube-apiserver", "etcd"})
  void everyRolloutFinishesAfterTheOutage(String component) {
    ControlPlaneComponent victim =
        components.stream().filter(c -> c.name().equals(component)).findFirst().orElse(null);
    assumeTrue(
        victim != null,
        "the cluster is not the local control plane: its " + component + " cannot be killed");
    String p = component.equals("etcd") ? "e" : "a";
    String canary = p + "-canary";
    String analysis = p + "-analysis";
    String blueGreen = p + "-bluegreen";
    createAll("faults/canary.yaml", canary);
    createAll("faults/analysis.yaml", analysis);
    createAll("faults/bluegreen.yaml", blueGreen);
    for (String name : List.of(canary, analysis, blueGreen)) {
      awaitHealthy(name);
    }
    String canaryV1 = rollouts.status(canary).getStableRS();
    for (String name : List.of(canary, analysis, blueGreen)) {
      rollouts.setImage(name, "registry.example/app:v2");
    }
    rollouts.await(
        canary,
        "canary in its timed pause",
        TIMEOUT,
        r ->
            Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex())
                && "Paused".equals(r.getStatus().getPhase()));
    rollouts.await(
        blueGreen,
        "blue-green waiting for promotion",
        TIMEOUT,
        r ->
            r.getStatus().getPauseConditions() != null
                && !r.getStatus().getPauseConditions().isEmpty());
    Awaitility.await("step analysis measuring")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .until(() -> runs(analysis).size() == 1 && !checks.requests("/check").isEmpty());
    List<String> replicaSetsBefore = new ArrayList<>();
    for (String name : List.of(canary, analysis, blueGreen)) {
      replicaSetsBefore.addAll(names(rollouts.replicaSets(name)));
    }
    long controllerPid = controller.pid();
    int measuredBefore = checks.requests("/check").size();

    victim.kill();
    Instant killed = Instant.now();
    // The webhook decides what needs no API server: ready, a valid Rollout allowed, an invalid one
    // denied by field.
    assertEquals(200, endpoint.readyz(), "webhook /readyz without " + component);
    JsonNode allowed =
        endpoint.reviewCreate(ns, "Rollout", "rollouts", rolloutJson("valid", "valid"));
    assertTrue(
        allowed.path("allowed").asBoolean(), "valid Rollout without " + component + ": " + allowed);
    JsonNode denied =
        endpoint.reviewCreate(ns, "Rollout", "rollouts", rolloutJson("invalid", "other"));
    assertFalse(
        denied.path("allowed").asBoolean(true),
        "invalid Rollout without " + component + ": " + denied);
    assertTrue(
        denied.path("status").path("message").asText().contains("spec.template.metadata.labels"),
        denied.toString());
    assertTrue(webhook.isAlive(), "the webhook process ended");
    // The controller stays up the whole time (no exit, no crash loop), while it cannot write
    // anything.
    Awaitility.await("the controller alive for " + DOWN.toSeconds() + " s without " + component)
        .during(DOWN)
        .atMost(DOWN.plusSeconds(5))
        .pollInterval(Duration.ofMillis(500))
        .until(controller::isAlive);
    victim.start();
    awaitApi();
    List<String> restarted = new ArrayList<>();
    for (ControlPlaneComponent c : components) {
      if (c.ensureRunning()) {
        restarted.add(c.name());
      }
    }
    long downSeconds = Duration.between(killed, Instant.now()).toSeconds();
    System.out.printf(
        "%s down %d s; restarted afterwards: %s; web checks during the run: %d before, %d now%n",
        component, downSeconds, restarted, measuredBefore, checks.requests("/check").size());
    Instant back = Instant.now();

    rollouts.promote(blueGreen);
    Rollout c = awaitHealthy(canary);
    Rollout a = awaitHealthy(analysis);
    Rollout b = awaitHealthy(blueGreen);
    assertEquals(controllerPid, controller.pid(), "the same controller process, never restarted");
    assertTrue(controller.isAlive());
    assertEquals(c.getStatus().getCurrentPodHash(), c.getStatus().getStableRS());
    assertTrue(!canaryV1.equals(c.getStatus().getStableRS()), "the canary's new version is stable");
    assertEquals(b.getStatus().getCurrentPodHash(), b.getStatus().getStableRS());
    assertEquals(a.getStatus().getCurrentPodHash(), a.getStatus().getStableRS());
    for (String name : List.of(canary, analysis, blueGreen)) {
      List<ReplicaSet> sets = rollouts.replicaSets(name);
      assertEquals(
          2,
          sets.size(),
          name + ": one ReplicaSet per pod template: " + rollouts.describeReplicaSets(name));
      assertTrue(
          replicaSetsBefore.containsAll(names(sets)),
          name + ": no ReplicaSet created by the outage");
    }
    List<AnalysisRun> runs = runs(analysis);
    assertEquals(1, runs.size(), "one AnalysisRun for the step");
    assertEquals("Successful", runs.get(0).getStatus().getPhase());
    FaultReport.record(
        component + " outage during a canary pause, a step analysis and a blue-green pause",
        "SIGKILL, started again after " + downSeconds + " s",
        "controller never exits; webhook ready, valid Rollout allowed, invalid denied by field; all 3 Rollouts Healthy on the new version; 1 ReplicaSet per template, none created by"
            + " the outage; 1 Successful AnalysisRun",
        "passed; all Healthy "
            + Duration.between(back, Instant.now()).toSeconds()
            + " s after the API answered"
            + (restarted.isEmpty()
                ? ""
                : " (restarted by the test as a kubelet would: "
                    + String.join(", ", restarted)
                    + ")"));
  }

  // -----------------------------------------------------------------------------------------------------------------

  static Rollout awaitHealthy(String name) {
    return rollouts.await(
        name,
        name + " Healthy",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration()));
  }

  /**
   * A canary Rollout whose template carries {@code app: <label>}; valid only when the label is the
   * name.
   */
  static String rolloutJson(String name, String label) {
    return "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"Rollout\",\"metadata\":{\"name\":\""
        + name
        + "\",\"namespace\":\""
        + ns
        + "\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\""
        + name
        + "\"}},"
        + "\"template\":{\"metadata\":{\"labels\":{\"app\":\""
        + label
        + "\"}},\"spec\":{\"containers\":"
        + "[{\"name\":\"web\",\"image\":\"nginx\"}]}},\"strategy\":{\"canary\":{\"steps\":[{\"setWeight\":20}]}}}}";
  }

  static void awaitApi() {
    Awaitility.await("API server answering")
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(() -> cluster.client().namespaces().withName(ns).get() != null);
  }

  static List<AnalysisRun> runs(String rollout) {
    return cluster.client().resources(AnalysisRun.class).inNamespace(ns).list().getItems().stream()
        .filter(
            r ->
                r.getMetadata().getOwnerReferences() != null
                    && r.getMetadata().getOwnerReferences().stream()
                        .anyMatch(o -> rollout.equals(o.getName())))
        .toList();
  }

  static List<String> names(List<ReplicaSet> sets) {
    return sets.stream().map(rs -> rs.getMetadata().getName()).sorted().toList();
  }

  static void createAll(String resource, String name) {
    String yaml = read(resource).replace("${NAME}", name).replace("${URL}", checks.url("/check"));
    var client = cluster.client();
    for (HasMetadata item :
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(item).inNamespace(ns).create();
    }
  }

  private static String read(String resource) {
    try (InputStream in =
        ControlPlaneOutageE2E.class.getClassLoader().getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Keeps the namespace of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
