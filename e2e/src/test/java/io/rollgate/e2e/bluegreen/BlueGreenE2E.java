package io.rollgate.e2e.bluegreen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutCondition;
import io.rollgate.api.RolloutStatus;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * A blue-green Rollout with an active and a preview Service, driven the way a user drives it with
 * {@code kubectl argo rollouts}: Service switching, the blue-green pause, promotion, delayed
 * scale-down, abort and retry, and the release of the Services when the Rollout is deleted.
 */
@ExtendWith(BlueGreenE2E.FailureTracker.class)
class BlueGreenE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final String HASH = "rollouts-pod-template-hash";
  static final String MANAGED_BY = "argo-rollouts.argoproj.io/managed-by-rollouts";

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("bluegreen");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "bluegreen", "--namespace", ns);
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

  // ---------------------------------------------------------------------------------------------------------------
  // Helpers

  /**
   * Creates the active and preview Services, then the Rollout with extra {@code blueGreen} fields.
   */
  static void create(String name, int replicas, String... extraFields) {
    createServices(name);
    createRollout(name, replicas, extraFields);
  }

  static void createRollout(String name, int replicas, String... extraFields) {
    Map<String, String> v = new HashMap<>();
    v.put("NAME", name);
    v.put("REPLICAS", String.valueOf(replicas));
    StringBuilder extra = new StringBuilder();
    for (String f : extraFields) {
      extra.append("      ").append(f).append('\n');
    }
    v.put("EXTRA", extra.toString());
    rollouts.create("bluegreen/rollout.yaml", v);
  }

  static void createServices(String name) {
    String yaml = read("bluegreen/services.yaml").replace("${NAME}", name);
    for (String doc : yaml.split("\n---\n")) {
      Service svc = cluster.client().getKubernetesSerialization().unmarshal(doc, Service.class);
      cluster.client().services().inNamespace(ns).resource(svc).create();
    }
  }

  static Service service(String name) {
    return cluster.client().services().inNamespace(ns).withName(name).get();
  }

  static String selected(String service) {
    Service svc = service(service);
    return svc == null || svc.getSpec().getSelector() == null
        ? null
        : svc.getSpec().getSelector().get(HASH);
  }

  static String activeSelector(Rollout r) {
    return r.getStatus() == null || r.getStatus().getBlueGreen() == null
        ? null
        : r.getStatus().getBlueGreen().getActiveSelector();
  }

  static String previewSelector(Rollout r) {
    return r.getStatus() == null || r.getStatus().getBlueGreen() == null
        ? null
        : r.getStatus().getBlueGreen().getPreviewSelector();
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

  static Rollout awaitHealthyOn(String name, String hash) {
    return rollouts.await(
        name,
        name + " Healthy on " + hash,
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && hash.equals(r.getStatus().getStableRS())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration()));
  }

  static Rollout awaitBlueGreenPause(String name) {
    return rollouts.await(
        name,
        name + " paused with BlueGreenPause",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Paused".equals(r.getStatus().getPhase())
                && r.getStatus().getPauseConditions() != null
                && r.getStatus().getPauseConditions().stream()
                    .anyMatch(c -> "BlueGreenPause".equals(c.getReason())));
  }

  static RolloutCondition condition(RolloutStatus s, String type) {
    return s.getConditions() == null
        ? null
        : s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
  }

  static String deadline(String rollout, String hash) {
    ReplicaSet rs = rollouts.replicaSet(rollout, hash);
    return rs == null || rs.getMetadata().getAnnotations() == null
        ? null
        : rs.getMetadata().getAnnotations().get("scale-down-deadline");
  }

  /** Waits (polling) for a condition that is not about the Rollout itself. */
  static void awaitTrue(String what, java.util.concurrent.Callable<Boolean> condition) {
    try {
      Awaitility.await(what)
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .ignoreExceptions()
          .until(condition);
    } catch (ConditionTimeoutException e) {
      throw new AssertionError("timed out waiting for " + what, e);
    }
  }

  /** Creates a healthy v1 and moves it to v2, returning {v1, v2}. */
  static String[] updateToV2(String name) {
    Rollout healthy = awaitHealthy(name);
    String v1 = healthy.getStatus().getStableRS();
    rollouts.setImage(name, "registry.example/app:v2");
    Rollout moved =
        rollouts.await(
            name,
            "new pod hash",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && r.getStatus().getCurrentPodHash() != null
                    && !v1.equals(r.getStatus().getCurrentPodHash()));
    return new String[] {v1, moved.getStatus().getCurrentPodHash()};
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Tests

  @Test
  void firstDeploySwitchesActiveStraightAwayAndIsHealthy() {
    create("first", 2, "autoPromotionEnabled: false");
    Rollout r = awaitHealthy("first");
    RolloutStatus s = r.getStatus();
    String v1 = s.getCurrentPodHash();
    assertEquals(v1, s.getStableRS());
    assertEquals(v1, selected("first-active"));
    assertEquals(v1, selected("first-preview"));
    assertEquals(v1, activeSelector(r));
    assertEquals(v1, previewSelector(r));
    assertEquals("first", service("first-active").getMetadata().getAnnotations().get(MANAGED_BY));
    assertEquals("first", service("first-preview").getMetadata().getAnnotations().get(MANAGED_BY));
    assertEquals(
        "first",
        service("first-active").getSpec().getSelector().get("app"),
        "other selector keys kept");
    assertNull(s.getPauseConditions(), "no pause on the first deploy");
    assertNull(s.getCurrentStepIndex());
    assertEquals(2, s.getAvailableReplicas());
    assertEquals(2, s.getHPAReplicas());
    assertEquals("app=first," + HASH + "=" + v1, s.getSelector());
    assertEquals("True", condition(s, "Healthy").getStatus());
    assertEquals("True", condition(s, "Available").getStatus());
    assertEquals("True", condition(s, "Completed").getStatus());
    assertEquals("NewReplicaSetAvailable", condition(s, "Progressing").getReason());
    awaitTrue(
        "events",
        () ->
            rollouts.eventMessages("first", "RolloutCompleted").stream()
                    .anyMatch(m -> m.endsWith(": Initial deploy"))
                && rollouts
                    .eventMessages("first", "SwitchService")
                    .contains(
                        "Switched selector for service 'first-active' from '' to '" + v1 + "'"));
  }

  @Test
  void manualPromotionSwitchesActiveAndScalesOldDownAfterTheDelay() {
    create("manual", 2, "autoPromotionEnabled: false", "scaleDownDelaySeconds: 3");
    String[] h = updateToV2("manual");
    String v1 = h[0];
    String v2 = h[1];
    Rollout paused = awaitBlueGreenPause("manual");
    RolloutStatus s = paused.getStatus();
    assertEquals("BlueGreenPause", s.getMessage());
    assertEquals(Boolean.TRUE, s.getControllerPause());
    assertEquals(v1, s.getStableRS());
    assertEquals(v2, selected("manual-preview"), "preview follows the new ReplicaSet");
    assertEquals(
        v1, selected("manual-active"), "active stays on the stable ReplicaSet while paused");
    assertEquals(v2, previewSelector(paused));
    assertEquals(v1, activeSelector(paused));
    assertEquals(2, rollouts.availableReplicas("manual", v2));
    assertEquals(2, rollouts.specReplicas("manual", v1));
    assertEquals(
        "app=manual," + HASH + "=" + v1, s.getSelector(), "HPA sees the active ReplicaSet");
    assertEquals("RolloutPaused", condition(s, "Progressing").getReason());
    rollouts.holdsFor(
        "manual",
        "pause holds",
        Duration.ofSeconds(2),
        r -> v1.equals(selected("manual-active")) && "Paused".equals(r.getStatus().getPhase()));

    rollouts.promote("manual");
    Rollout done = awaitHealthyOn("manual", v2);
    assertEquals(v2, selected("manual-active"));
    assertEquals(v2, selected("manual-preview"));
    assertNull(done.getStatus().getPauseConditions());
    assertNull(done.getStatus().getControllerPause());
    awaitTrue("v1 gets a scale-down deadline", () -> deadline("manual", v1) != null);
    assertEquals(2, rollouts.specReplicas("manual", v1), "v1 keeps its pods until the deadline");
    rollouts.await(
        "manual",
        "v1 scaled to 0 after the delay",
        TIMEOUT,
        r -> rollouts.specReplicas("manual", v1) == 0);
    assertEquals(2, rollouts.specReplicas("manual", v2));
    assertTrue(
        rollouts.eventMessages("manual", "RolloutCompleted").stream()
            .anyMatch(m -> m.endsWith("(" + v2 + "): Completed blue-green update")),
        rollouts.eventMessages("manual", "RolloutCompleted").toString());
    assertTrue(
        rollouts
            .eventMessages("manual", "SwitchService")
            .contains(
                "Switched selector for service 'manual-active' from '" + v1 + "' to '" + v2 + "'"));
  }

  @Test
  void zeroScaleDownDelayScalesTheOldActiveDownRightAfterTheSwitch() {
    create("nodelay", 2, "autoPromotionEnabled: false", "scaleDownDelaySeconds: 0");
    String[] h = updateToV2("nodelay");
    awaitBlueGreenPause("nodelay");
    rollouts.promote("nodelay");
    awaitHealthyOn("nodelay", h[1]);
    // The default delay is 30 s; well before that the old ReplicaSet is gone, without a deadline.
    rollouts.await(
        "nodelay",
        "v1 scaled to 0 without delay",
        Duration.ofSeconds(15),
        r -> rollouts.specReplicas("nodelay", h[0]) == 0);
    assertNull(deadline("nodelay", h[0]));
  }

  @Test
  void autoPromotionSecondsPromotesOnItsOwn() {
    create("auto", 2, "autoPromotionSeconds: 2", "scaleDownDelaySeconds: 3");
    String[] h = updateToV2("auto");
    Rollout paused = awaitBlueGreenPause("auto");
    assertEquals(h[0], selected("auto-active"));
    assertEquals(h[1], paused.getStatus().getCurrentPodHash());
    awaitHealthyOn("auto", h[1]);
    assertEquals(h[1], selected("auto-active"));
  }

  @Test
  void previewReplicaCountRunsOnePodUntilPromotedThenScalesUpBeforeTheSwitch() {
    create(
        "previewcount",
        3,
        "autoPromotionEnabled: false",
        "previewReplicaCount: 1",
        "scaleDownDelaySeconds: 3");
    String[] h = updateToV2("previewcount");
    String v1 = h[0];
    String v2 = h[1];
    awaitBlueGreenPause("previewcount");
    assertEquals(1, rollouts.specReplicas("previewcount", v2));
    assertEquals(1, rollouts.availableReplicas("previewcount", v2));
    assertEquals(3, rollouts.specReplicas("previewcount", v1));
    assertEquals(v2, selected("previewcount-preview"));
    assertEquals(v1, selected("previewcount-active"));

    rollouts.promote("previewcount");
    boolean[] switchedEarly = {false};
    rollouts.await(
        "previewcount",
        "promoted with v2 at full size",
        TIMEOUT,
        r -> {
          if (v2.equals(selected("previewcount-active"))
              && rollouts.availableReplicas("previewcount", v2) < 3) {
            switchedEarly[0] = true;
          }
          return "Healthy".equals(r.getStatus().getPhase())
              && v2.equals(r.getStatus().getStableRS());
        });
    assertFalse(switchedEarly[0], "the active Service was switched before v2 ran 3 available pods");
    assertEquals(3, rollouts.specReplicas("previewcount", v2));
    assertEquals(v2, selected("previewcount-active"));
  }

  @Test
  void abortKeepsActiveOnStableScalesPreviewDownAfterDelayAndRetryResumes() {
    create("abort", 2, "autoPromotionEnabled: false", "abortScaleDownDelaySeconds: 2");
    String[] h = updateToV2("abort");
    String v1 = h[0];
    String v2 = h[1];
    awaitBlueGreenPause("abort");
    rollouts.abort("abort");
    Rollout aborted =
        rollouts.await(
            "abort",
            "aborted",
            TIMEOUT,
            r ->
                "Degraded".equals(r.getStatus().getPhase())
                    && Boolean.TRUE.equals(r.getStatus().getAbort()));
    RolloutStatus s = aborted.getStatus();
    assertNotNull(s.getAbortedAt());
    assertNull(s.getPauseConditions());
    assertEquals(v1, s.getStableRS());
    assertEquals("RolloutAborted", condition(s, "Progressing").getReason());
    assertTrue(
        s.getMessage().startsWith("RolloutAborted: Rollout aborted update to revision 2"),
        s.getMessage());
    assertEquals(v1, selected("abort-active"), "active back on (or kept on) the stable ReplicaSet");
    assertEquals(v2, selected("abort-preview"), "preview keeps the aborted ReplicaSet");
    rollouts.await(
        "abort",
        "v2 scaled down after abortScaleDownDelaySeconds",
        TIMEOUT,
        r -> rollouts.specReplicas("abort", v2) == 0);
    assertEquals(2, rollouts.specReplicas("abort", v1));
    assertEquals(v1, selected("abort-active"));
    rollouts.holdsFor(
        "abort",
        "v2 stays down while aborted",
        Duration.ofSeconds(2),
        r -> rollouts.specReplicas("abort", v2) == 0);

    rollouts.retry("abort");
    Rollout again = awaitBlueGreenPause("abort");
    assertNull(again.getStatus().getAbortedAt());
    rollouts.await(
        "abort",
        "v2 back at full size",
        TIMEOUT,
        r -> rollouts.availableReplicas("abort", v2) == 2);
    assertEquals(v1, selected("abort-active"));
    assertNull(deadline("abort", v2), "retry removes the abort deadline");
    rollouts.promote("abort");
    awaitHealthyOn("abort", v2);
  }

  @Test
  void promoteFullSkipsThePause() {
    create("full", 2, "autoPromotionEnabled: false", "previewReplicaCount: 1");
    String[] h = updateToV2("full");
    awaitBlueGreenPause("full");
    assertEquals(1, rollouts.specReplicas("full", h[1]));
    rollouts.promoteFull("full");
    Rollout done = awaitHealthyOn("full", h[1]);
    assertNull(done.getStatus().getPromoteFull());
    assertEquals(
        2, rollouts.specReplicas("full", h[1]), "previewReplicaCount ignored on promote --full");
    assertEquals(h[1], selected("full-active"));
    awaitTrue(
        "RolloutCompleted event",
        () ->
            rollouts.eventMessages("full", "RolloutCompleted").stream()
                .anyMatch(m -> m.endsWith("): Full promotion requested")));
  }

  @Test
  void missingServiceIsAnInvalidSpecUntilItExists() {
    createRollout("missing", 1);
    Rollout bad =
        rollouts.await(
            "missing",
            "InvalidSpec condition",
            TIMEOUT,
            r -> r.getStatus() != null && condition(r.getStatus(), "InvalidSpec") != null);
    assertEquals(
        "The Rollout \"missing\" is invalid: spec.strategy.blueGreen.activeService: Invalid value: \"missing-active\": "
            + "service \"missing-active\" not found",
        condition(bad.getStatus(), "InvalidSpec").getMessage());
    assertEquals("Degraded", bad.getStatus().getPhase());
    assertTrue(
        rollouts.replicaSets("missing").isEmpty(), "no ReplicaSet while a Service is missing");
    createServices("missing");
    Rollout ok = awaitHealthy("missing");
    assertNull(condition(ok.getStatus(), "InvalidSpec"));
    assertEquals(ok.getStatus().getCurrentPodHash(), selected("missing-active"));
  }

  @Test
  void serviceManagedByAnotherRolloutIsRejected() {
    createServices("taken");
    cluster
        .client()
        .services()
        .inNamespace(ns)
        .withName("taken-active")
        .edit(
            svc -> {
              svc.getMetadata().setAnnotations(new HashMap<>(Map.of(MANAGED_BY, "someone-else")));
              return svc;
            });
    createRollout("taken", 1);
    Rollout bad =
        rollouts.await(
            "taken",
            "InvalidSpec condition",
            TIMEOUT,
            r -> r.getStatus() != null && condition(r.getStatus(), "InvalidSpec") != null);
    assertTrue(
        condition(bad.getStatus(), "InvalidSpec")
            .getMessage()
            .endsWith("Service \"taken-active\" is managed by another Rollout"),
        condition(bad.getStatus(), "InvalidSpec").getMessage());
    assertNull(selected("taken-active"));
  }

  @Test
  void deletingTheRolloutReleasesItsServices() {
    create("release", 1);
    Rollout r = awaitHealthy("release");
    String v1 = r.getStatus().getStableRS();
    assertEquals(v1, selected("release-active"));
    cluster.client().resources(Rollout.class).inNamespace(ns).withName("release").delete();
    for (String svc : List.of("release-active", "release-preview")) {
      awaitTrue(
          svc + " released",
          () -> {
            Service s = service(svc);
            return !s.getSpec().getSelector().containsKey(HASH)
                && (s.getMetadata().getAnnotations() == null
                    || !s.getMetadata().getAnnotations().containsKey(MANAGED_BY));
          });
      assertEquals(
          "release",
          service(svc).getSpec().getSelector().get("app"),
          "the rest of the selector is kept");
    }
    assertNotEquals(null, service("release-active"));
  }

  private static String read(String resource) {
    try (InputStream in = BlueGreenE2E.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Keeps the namespace of a failed class for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
