package io.rollgate.controller.metrics;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.rollgate.api.Experiment;
import io.rollgate.api.ExperimentStatus;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The per-Experiment series of docs/compatibility.md §14: info, deprecated phase gauges, reconcile
 * histogram and errors.
 */
class ExperimentSeriesTest {

  private final ControllerMetrics metrics = new ControllerMetrics("v-test");

  @AfterEach
  void close() {
    metrics.close();
  }

  static Experiment experiment(String name, String phase) {
    Experiment e = new Experiment();
    e.setMetadata(new ObjectMetaBuilder().withNamespace("shop").withName(name).build());
    if (phase != null) {
      ExperimentStatus s = new ExperimentStatus();
      s.setPhase(phase);
      e.setStatus(s);
    }
    return e;
  }

  @Test
  void seriesFollowTheCachedExperiments_andDisappearWhenOneIsDeleted() {
    List<Experiment> cache =
        new CopyOnWriteArrayList<>(List.of(experiment("a", "Running"), experiment("b", null)));
    metrics.watchExperiments(() -> cache);
    metrics.reconciled("Experiment", "shop", "a", 20_000_000L, false);
    metrics.reconciled("Experiment", "shop", "a", 2_000_000_000L, true);

    String text = metrics.scrape();
    assertTrue(
        text.contains("experiment_info{namespace=\"shop\",name=\"a\",phase=\"Running\"} 1"), text);
    assertTrue(
        text.contains("experiment_info{namespace=\"shop\",name=\"b\",phase=\"Pending\"} 1"),
        "no status is Pending");
    assertTrue(
        text.contains("experiment_phase{namespace=\"shop\",name=\"a\",phase=\"Running\"} 1"));
    assertTrue(
        text.contains("experiment_phase{namespace=\"shop\",name=\"a\",phase=\"Successful\"} 0"));
    assertTrue(text.contains("# TYPE experiment_reconcile histogram"));
    assertTrue(
        text.contains("experiment_reconcile_bucket{namespace=\"shop\",name=\"a\",le=\"0.15\"} 1"),
        text);
    assertTrue(
        text.contains("experiment_reconcile_bucket{namespace=\"shop\",name=\"a\",le=\"+Inf\"} 2"));
    assertTrue(text.contains("experiment_reconcile_count{namespace=\"shop\",name=\"a\"} 2"));
    assertTrue(text.contains("experiment_reconcile_error{namespace=\"shop\",name=\"a\"} 1"));
    assertFalse(
        text.contains("rollout_reconcile_count{namespace=\"shop\",name=\"a\"}"),
        "not counted as a Rollout");

    cache.remove(0);
    String after = metrics.scrape();
    assertFalse(after.contains("name=\"a\""), "a deleted Experiment's series are gone: " + after);
    assertTrue(
        after.contains("experiment_info{namespace=\"shop\",name=\"b\",phase=\"Pending\"} 1"));
  }
}
