package io.rollgate.e2e.goplugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Measurement;
import io.rollgate.api.MetricResult;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.GoPlugins;
import io.rollgate.e2e.support.PrometheusServer;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.TestExporter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * AnalysisRuns whose metric is measured by an unmodified Argo Rollouts Go metric-provider plugin:
 * upstream's {@code test/cmd/metrics-plugin-sample} (a Prometheus query, go-plugin over net/rpc),
 * registered in {@code metricProviderPlugins} under the name it reads its config from, {@code
 * argoproj/sample-prometheus}, and run through the plugin bridge against a real Prometheus
 * (docs/plugins.md, "Metric-provider plugins"). The plugin judges the metric's conditions itself;
 * the controller stores its measurement.
 */
@ExtendWith(GoMetricPluginE2E.FailureTracker.class)
class GoMetricPluginE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final String PLUGIN = "argoproj/sample-prometheus";

  static TestCluster cluster;
  static String ns;
  static ControllerProcess controller;
  static TestExporter exporter;
  static PrometheusServer prometheus;
  static GoPluginNamespace fx;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    exporter = new TestExporter();
    prometheus = PrometheusServer.start("gometric", List.of(exporter.target()));
    fx =
        GoPluginNamespace.start(
            "gometric",
            Map.of(
                "metricProviderPlugins",
                GoPluginNamespace.registration(
                    PLUGIN, GoPlugins.argoTestPlugin("metrics-plugin-sample"))));
    cluster = fx.cluster;
    ns = fx.ns;
    controller = fx.controller;
  }

  @AfterAll
  static void tearDown() {
    GoPluginNamespace.close(fx, failed);
    if (prometheus != null) {
      prometheus.close();
    }
    if (exporter != null) {
      exporter.close();
    }
  }

  static AnalysisRun create(String name, String query, String conditions) {
    String yaml =
        "apiVersion: argoproj.io/v1alpha1\nkind: AnalysisRun\nmetadata:\n  name: "
            + name
            + "\nspec:\n"
            + "  metrics:\n  - name: sample\n"
            + conditions.indent(4)
            + "    provider:\n      plugin:\n        "
            + PLUGIN
            + ":\n          address: "
            + prometheus.address()
            + "\n"
            + "          query: '"
            + query
            + "'\n";
    AnalysisRun run =
        cluster.client().getKubernetesSerialization().unmarshal(yaml, AnalysisRun.class);
    return cluster.client().resources(AnalysisRun.class).inNamespace(ns).resource(run).create();
  }

  static AnalysisRun awaitCompleted(String name) {
    AnalysisRun[] last = new AnalysisRun[1];
    Awaitility.await(name + " completed")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              last[0] =
                  cluster
                      .client()
                      .resources(AnalysisRun.class)
                      .inNamespace(ns)
                      .withName(name)
                      .get();
              String phase =
                  last[0] == null || last[0].getStatus() == null
                      ? null
                      : last[0].getStatus().getPhase();
              return phase != null
                  && List.of("Successful", "Failed", "Error", "Inconclusive").contains(phase);
            });
    return last[0];
  }

  static Measurement measurement(AnalysisRun run) {
    MetricResult r = run.getStatus().getMetricResults().get(0);
    assertNotNull(r.getMeasurements(), "no measurements: " + run.getStatus());
    return r.getMeasurements().get(r.getMeasurements().size() - 1);
  }

  @Test
  void measurementThatMeetsTheSuccessConditionSucceeds() {
    create("sample-ok", "vector(1)", "successCondition: result[0] == 1");
    AnalysisRun run = awaitCompleted("sample-ok");
    Measurement m = measurement(run);
    assertEquals("Successful", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("Successful", m.getPhase());
    assertEquals("[1]", m.getValue());
    assertNotNull(m.getStartedAt());
    assertNotNull(m.getFinishedAt());
  }

  @Test
  void measurementThatMeetsTheFailureConditionFails() {
    create(
        "sample-fail",
        "vector(3)",
        "successCondition: result[0] < 2\nfailureCondition: result[0] >= 2");
    AnalysisRun run = awaitCompleted("sample-fail");
    Measurement m = measurement(run);
    assertEquals("Failed", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("Failed", m.getPhase());
    assertEquals("[3]", m.getValue());
  }

  /** Keeps the namespace of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
