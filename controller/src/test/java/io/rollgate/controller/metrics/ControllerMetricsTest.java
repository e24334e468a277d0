package io.rollgate.controller.metrics;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.Rollout;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ControllerMetricsTest {

  private final ControllerMetrics metrics = new ControllerMetrics("v-test");

  @AfterEach
  void close() {
    metrics.close();
  }

  @Test
  void perRolloutSeriesAppearWhileCached_andDisappearWhenTheRolloutIsDeleted() {
    List<Rollout> cache = new CopyOnWriteArrayList<>();
    cache.add(
        RolloutSeriesTest.rollout(
            "web", "{\"canary\":{}}", RolloutSeriesTest.progressing("NewReplicaSetAvailable")));
    cache.add(RolloutSeriesTest.rollout("api", "{\"canary\":{}}", ""));
    metrics.watchRollouts(() -> cache);
    metrics.reconciled("Rollout", "shop", "web", 200_000_000L, false);
    metrics.reconciled("Rollout", "shop", "web", 20_000_000L, true);
    metrics.reconciled("Rollout", "shop", "api", 20_000_000L, false);
    metrics.event("Rollout", "shop", "web", "Normal", "RolloutCompleted");
    metrics.notified("shop", "web", "Normal", "RolloutCompleted", 2, 1, 200_000_000L);

    String before = metrics.scrape();
    assertTrue(
        before.contains(
            "notification_send_success{namespace=\"shop\",name=\"web\",type=\"Normal\",reason=\"RolloutCompleted\"} 2"),
        before);
    assertTrue(
        before.contains(
            "notification_send_error{namespace=\"shop\",name=\"web\",type=\"Normal\",reason=\"RolloutCompleted\"} 1"),
        before);
    assertTrue(
        before.contains("notification_send_bucket{namespace=\"shop\",name=\"web\",le=\"0.25\"} 1"),
        before);
    assertTrue(
        before.contains("notification_send_bucket{namespace=\"shop\",name=\"web\",le=\"0.15\"} 0"),
        before);
    assertTrue(
        before.contains("notification_send_count{namespace=\"shop\",name=\"web\"} 1"), before);
    assertTrue(
        before.contains(
            "rollout_info{namespace=\"shop\",name=\"web\",strategy=\"canary\",traffic_router=\"\",phase=\"Completed\"} 1"),
        before);
    assertTrue(
        before.contains("rollout_reconcile_bucket{namespace=\"shop\",name=\"web\",le=\"0.25\"} 2"),
        before);
    assertTrue(
        before.contains("rollout_reconcile_bucket{namespace=\"shop\",name=\"web\",le=\"0.15\"} 1"),
        before);
    assertTrue(
        before.contains("rollout_reconcile_bucket{namespace=\"shop\",name=\"web\",le=\"1\"} 2"),
        before);
    assertTrue(
        before.contains("rollout_reconcile_count{namespace=\"shop\",name=\"web\"} 2"), before);
    assertTrue(
        before.contains("rollout_reconcile_error{namespace=\"shop\",name=\"web\"} 1"), before);
    assertTrue(
        before.contains(
            "rollout_events_total{namespace=\"shop\",name=\"web\",type=\"Normal\",reason=\"RolloutCompleted\"} 1"),
        before);

    cache.remove(0); // the informer saw "web" deleted
    String after = metrics.scrape();
    assertFalse(after.contains("name=\"web\""), after);
    assertTrue(after.contains("rollout_reconcile_count{namespace=\"shop\",name=\"api\"} 1"), after);
    assertTrue(after.contains("rollout_info{namespace=\"shop\",name=\"api\""), after);
  }

  @Test
  void exposesControllerInfoProcessAndOwnMetrics_withoutPerObjectLabelsOnRequests() {
    metrics.apiRequest("patch", "rollouts/status", "409");
    metrics.throttled(5_000_000L);
    metrics.workQueue("Rollout", () -> 3, () -> 1);
    metrics.reconciled("Rollout", "shop", "web", 1_000_000L, false);
    String text = metrics.scrape();
    assertTrue(text.contains("argo_rollouts_controller_info{version=\"v-test\"} 1"), text);
    assertTrue(
        text.contains(
            "controller_clientset_k8s_request_total{kind=\"rollouts/status\",status_code=\"409\",verb=\"patch\"} 1"),
        text);
    assertTrue(text.contains("rollgate_kube_api_throttle_seconds_count 1"), text);
    assertTrue(text.contains("rollgate_workqueue_depth{queue=\"Rollout\"} 3"), text);
    assertTrue(text.contains("rollgate_workqueue_in_flight{queue=\"Rollout\"} 1"), text);
    assertTrue(
        text.contains("rollgate_reconcile_seconds_count{queue=\"Rollout\",result=\"success\"} 1"),
        text);
    assertTrue(text.contains("process_start_time_seconds "), text);
    assertTrue(text.contains("jvm_memory_used_bytes{area=\"heap\""), text);
  }

  @Test
  void sweepKeepsEverythingUntilTheCacheIsKnown() {
    metrics.reconciled("Rollout", "shop", "web", 1_000_000L, false);
    assertTrue(metrics.sweep() == 0);
    assertTrue(
        metrics.scrape().contains("rollout_reconcile_count{namespace=\"shop\",name=\"web\"} 1"));
  }
}
