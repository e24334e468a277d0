package io.rollgate.e2e.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /metrics} scraped during a canary: Argo's names and labels, values matching the Rollout,
 * gone on delete.
 */
class MetricsE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  /**
   * The series the upstream Grafana dashboard (examples/dashboard.json) queries,
   * docs/compatibility.md §14.
   */
  static final List<String> DASHBOARD_SERIES =
      List.of(
          "rollout_info",
          "rollout_info_replicas_desired",
          "rollout_info_replicas_available",
          "rollout_info_replicas_unavailable",
          "rollout_reconcile_count",
          "rollout_reconcile_bucket",
          "process_start_time_seconds");

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("ops-metrics");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "ops-metrics", "--namespace", ns);
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  static String scrape() {
    OpsHttp.Response r = OpsHttp.get(controller.metricsPort(), "/metrics");
    assertEquals(200, r.status(), r.body());
    return r.body();
  }

  static String labels(String name) {
    return "{namespace=\"" + ns + "\",name=\"" + name + "\"}";
  }

  @Test
  void seriesFollowTheRolloutDuringACanary_andDisappearWhenItIsDeleted() {
    rollouts.create(
        "canary/rollout.yaml",
        Map.of(
            "NAME",
            "web",
            "REPLICAS",
            "4",
            "WEIGHT",
            "25",
            "SURGE",
            "1",
            "UNAVAILABLE",
            "0",
            "PAUSE",
            "10s"));
    rollouts.await(
        "web",
        "web Healthy",
        TIMEOUT,
        r -> r.getStatus() != null && "Healthy".equals(r.getStatus().getPhase()));
    rollouts.setImage("web", "registry.example/app:v2");
    rollouts.await(
        "web",
        "web paused at step 1",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Paused".equals(r.getStatus().getPhase())
                && Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex())
                && Integer.valueOf(1).equals(r.getStatus().getUpdatedReplicas())
                && r.getStatus().getAvailableReplicas() != null
                && r.getStatus().getAvailableReplicas().equals(r.getStatus().getReplicas()));

    Awaitility.await("rollout_info and replica gauges match the Rollout status")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              Rollout r = rollouts.get("web");
              RolloutStatus s = r.getStatus();
              String text = scrape();
              assertEquals(
                  1.0,
                  OpsHttp.sample(
                      text,
                      "rollout_info{namespace=\""
                          + ns
                          + "\",name=\"web\",strategy=\"canary\",traffic_router=\"\","
                          + "phase=\"Paused\"}"),
                  "rollout_info with phase=Paused");
              assertEquals(
                  (double) s.getAvailableReplicas(),
                  OpsHttp.sample(text, "rollout_info_replicas_available" + labels("web")));
              assertEquals(
                  (double) (s.getReplicas() - s.getAvailableReplicas()),
                  OpsHttp.sample(text, "rollout_info_replicas_unavailable" + labels("web")));
              assertEquals(
                  4.0, OpsHttp.sample(text, "rollout_info_replicas_desired" + labels("web")));
              assertEquals(
                  (double) s.getUpdatedReplicas(),
                  OpsHttp.sample(text, "rollout_info_replicas_updated" + labels("web")));
              assertEquals(
                  1.0,
                  OpsHttp.sample(
                      text,
                      "rollout_phase{namespace=\""
                          + ns
                          + "\",name=\"web\",strategy=\"canary\",phase=\"Paused\"}"));
              assertTrue(
                  OpsHttp.sample(text, "rollout_reconcile_count" + labels("web")) >= 1,
                  "reconciles counted");
            });

    String text = scrape();
    for (String series : DASHBOARD_SERIES) {
      assertTrue(
          Pattern.compile("(?m)^" + series + "[{ ]").matcher(text).find(),
          "dashboard series " + series + " exposed");
    }
    assertTrue(text.contains("argo_rollouts_controller_info{version="), "controller info");
    assertTrue(
        text.contains("rollout_events_total{namespace=\"" + ns + "\",name=\"web\",type=\"Normal\""),
        "events counted");
    assertTrue(
        text.contains("jvm_memory_used_bytes{area=\"heap\""), "JVM heap under Micrometer's names");
    assertTrue(
        Pattern.compile(
                "(?m)^controller_clientset_k8s_request_total\\{kind=\"[a-z/]+\",status_code=\"\\d+\",verb=\"[a-z]+\"\\} ")
            .matcher(text)
            .find(),
        "API requests counted by resource, verb and code only");
    assertTrue(text.contains("rollgate_workqueue_depth{queue=\"Rollout\"}"));
    assertTrue(text.contains("rollgate_kube_api_throttle_seconds_count"));

    cluster.client().resources(Rollout.class).inNamespace(ns).withName("web").delete();
    Awaitility.await("series of the deleted Rollout are gone")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> !scrape().contains("name=\"web\""));
  }
}
