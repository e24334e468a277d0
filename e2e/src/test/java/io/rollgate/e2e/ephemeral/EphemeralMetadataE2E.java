package io.rollgate.e2e.ephemeral;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * {@code spec.strategy.canary.canaryMetadata} / {@code stableMetadata}: pods carry the label of
 * their role, and a promoted canary's pods are relabelled in place, without a restart.
 */
@ExtendWith(EphemeralMetadataE2E.FailureTracker.class)
class EphemeralMetadataE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("ephemeral");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "ephemeral", "--namespace", ns);
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (!failed && ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

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

  /** The live (not terminating) pods of the Rollout. */
  static List<Pod> pods(String name) {
    return cluster.client().pods().inNamespace(ns).withLabel("app", name).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .collect(Collectors.toList());
  }

  static String hash(Pod p) {
    return p.getMetadata().getLabels().get("rollouts-pod-template-hash");
  }

  static void awaitPods(String what, Predicate<List<Pod>> condition) {
    awaitPods("eph", what, condition);
  }

  static void awaitPods(String name, String what, Predicate<List<Pod>> condition) {
    Awaitility.await(what)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .until(() -> condition.test(pods(name)));
  }

  static String role(Pod p) {
    return p.getMetadata().getLabels().get("role");
  }

  @Test
  void canaryAndStablePodsCarryTheirRoleAndPromotionRelabelsInPlace() {
    String name = "eph";
    rollouts.create("ephemeral/rollout.yaml", Map.of("NAME", name));
    Rollout first = awaitHealthy(name);
    String stableHash = first.getStatus().getStableRS();
    awaitPods(
        "3 stable pods labelled role=stable",
        ps ->
            ps.size() == 3
                && ps.stream()
                    .allMatch(p -> "stable".equals(p.getMetadata().getLabels().get("role"))));
    ReplicaSet stableRs = rollouts.replicaSet(name, stableHash);
    assertEquals("stable", stableRs.getSpec().getTemplate().getMetadata().getLabels().get("role"));
    assertEquals(
        "{\"labels\":{\"role\":\"stable\"}}",
        stableRs.getMetadata().getAnnotations().get("rollout.argoproj.io/ephemeral-metadata"));

    rollouts.setImage(name, "registry.example/app:v2");
    Rollout paused =
        rollouts.await(
            name,
            name + " paused at step 1",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && "Paused".equals(r.getStatus().getPhase())
                    && Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex()));
    String canaryHash = paused.getStatus().getCurrentPodHash();
    assertNotEquals(stableHash, canaryHash);
    awaitPods(
        "canary pods role=canary, stable pods role=stable",
        ps ->
            ps.stream().anyMatch(p -> canaryHash.equals(hash(p)))
                && ps.stream()
                    .allMatch(
                        p ->
                            (canaryHash.equals(hash(p)) ? "canary" : "stable")
                                .equals(p.getMetadata().getLabels().get("role"))));
    List<Pod> canaryPods =
        pods(name).stream().filter(p -> canaryHash.equals(hash(p))).collect(Collectors.toList());
    assertTrue(
        canaryPods.stream()
            .allMatch(
                p -> "canary".equals(p.getMetadata().getAnnotations().get("example.com/track"))),
        "canary annotation on canary pods");
    assertTrue(
        canaryPods.stream().allMatch(p -> "web".equals(p.getMetadata().getLabels().get("tier"))),
        "user labels kept");
    Set<String> canaryUids =
        canaryPods.stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
    assertFalse(canaryUids.isEmpty());
    // The ephemeral label does not change the pod-template hash.
    assertEquals(canaryHash, rollouts.status(name).getCurrentPodHash());

    rollouts.promote(name);
    Rollout done = awaitHealthy(name);
    assertEquals(canaryHash, done.getStatus().getStableRS());
    awaitPods(
        "all pods of the promoted ReplicaSet role=stable, canary metadata removed",
        ps ->
            ps.size() == 3
                && ps.stream()
                    .allMatch(
                        p ->
                            canaryHash.equals(hash(p))
                                && "stable".equals(p.getMetadata().getLabels().get("role"))
                                && (p.getMetadata().getAnnotations() == null
                                    || !p.getMetadata()
                                        .getAnnotations()
                                        .containsKey("example.com/track"))));
    Set<String> uidsNow =
        pods(name).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
    assertTrue(
        uidsNow.containsAll(canaryUids),
        "canary pods relabelled in place, not replaced: " + canaryUids + " vs " + uidsNow);
    ReplicaSet promoted = rollouts.replicaSet(name, canaryHash);
    assertEquals("stable", promoted.getSpec().getTemplate().getMetadata().getLabels().get("role"));
    assertFalse(
        promoted.getSpec().getTemplate().getMetadata().getAnnotations() != null
            && promoted
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getAnnotations()
                .containsKey("example.com/track"),
        "canary annotation removed from the template");
    assertEquals(2, rollouts.replicaSets(name).size(), "no extra ReplicaSet");
  }

  @Test
  void blueGreenPreviewPodsCarryPreviewMetadataUntilPromoted() {
    String name = "ephbg";
    String yaml = read("ephemeral/services.yaml").replace("${NAME}", name);
    for (String doc : yaml.split("\n---\n")) {
      Service svc = cluster.client().getKubernetesSerialization().unmarshal(doc, Service.class);
      cluster.client().services().inNamespace(ns).resource(svc).create();
    }
    rollouts.create("ephemeral/bluegreen.yaml", Map.of("NAME", name));
    Rollout first = awaitHealthy(name);
    String activeHash = first.getStatus().getStableRS();
    awaitPods(
        name,
        "2 active pods role=active",
        ps -> ps.size() == 2 && ps.stream().allMatch(p -> "active".equals(role(p))));

    rollouts.setImage(name, "registry.example/app:v2");
    Rollout paused =
        rollouts.await(
            name,
            name + " paused for promotion",
            TIMEOUT,
            r -> r.getStatus() != null && "Paused".equals(r.getStatus().getPhase()));
    String previewHash = paused.getStatus().getCurrentPodHash();
    assertNotEquals(activeHash, previewHash);
    awaitPods(
        name,
        "preview pods role=preview, active pods role=active",
        ps ->
            ps.stream().filter(p -> previewHash.equals(hash(p))).count() == 2
                && ps.stream()
                    .allMatch(
                        p -> (previewHash.equals(hash(p)) ? "preview" : "active").equals(role(p))));
    Set<String> previewUids =
        pods(name).stream()
            .filter(p -> previewHash.equals(hash(p)))
            .map(p -> p.getMetadata().getUid())
            .collect(Collectors.toSet());

    rollouts.promote(name);
    Rollout done = awaitHealthy(name);
    assertEquals(previewHash, done.getStatus().getStableRS());
    awaitPods(
        name,
        "promoted pods role=active",
        ps ->
            ps.stream().filter(p -> previewHash.equals(hash(p))).count() == 2
                && ps.stream()
                    .filter(p -> previewHash.equals(hash(p)))
                    .allMatch(p -> "active".equals(role(p))));
    Set<String> uidsNow =
        pods(name).stream()
            .filter(p -> previewHash.equals(hash(p)))
            .map(p -> p.getMetadata().getUid())
            .collect(Collectors.toSet());
    assertEquals(previewUids, uidsNow, "preview pods relabelled in place, not replaced");
  }

  private static String read(String resource) {
    try (InputStream in =
        EphemeralMetadataE2E.class.getClassLoader().getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Keeps the namespace of a failed test for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
