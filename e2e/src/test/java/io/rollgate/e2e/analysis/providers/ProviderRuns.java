package io.rollgate.e2e.analysis.providers;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Measurement;
import io.rollgate.api.MetricResult;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.TestCluster;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * AnalysisRuns of one test class in its own namespace on the API server, measured by a controller
 * process: create a run from metric YAML, wait until it completes, read its metric results, and
 * check the controller's {@code analysis_run_metric_type} series. The namespace is deleted at the
 * end unless a test of the class failed ({@link KeepOnFailure}).
 */
final class ProviderRuns {

  static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final Set<Class<?>> FAILED = ConcurrentHashMap.newKeySet();

  private final TestCluster cluster;
  private final String ns;
  private final Duration timeout;

  /** Runs in a new namespace {@code <prefix>-<random>}. */
  ProviderRuns(TestCluster cluster, String namespacePrefix) {
    this(cluster, cluster.createNamespace(namespacePrefix), TIMEOUT);
  }

  /** Runs in an existing namespace, each awaited at most {@code timeout}. */
  ProviderRuns(TestCluster cluster, String namespace, Duration timeout) {
    this.cluster = cluster;
    this.ns = namespace;
    this.timeout = timeout;
  }

  /**
   * Marks the test class failed, so that {@link #close(Class)} keeps its namespace for inspection.
   */
  static final class KeepOnFailure implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      FAILED.add(context.getRequiredTestClass());
    }
  }

  String namespace() {
    return ns;
  }

  AnalysisRun create(String name, String argsYaml, String metricsYaml) {
    String yaml =
        "apiVersion: argoproj.io/v1alpha1\nkind: AnalysisRun\nmetadata:\n  name: "
            + name
            + "\nspec:\n"
            + argsYaml.indent(2)
            + "  metrics:\n"
            + metricsYaml.indent(2);
    AnalysisRun run =
        cluster.client().getKubernetesSerialization().unmarshal(yaml, AnalysisRun.class);
    return cluster.client().resources(AnalysisRun.class).inNamespace(ns).resource(run).create();
  }

  AnalysisRun awaitCompleted(String name) {
    AnalysisRun[] last = new AnalysisRun[1];
    Awaitility.await(name + " completed")
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(250))
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

  /** Creates a run and waits for its outcome. */
  AnalysisRun run(String name, String argsYaml, String metricsYaml) {
    create(name, argsYaml, metricsYaml);
    return awaitCompleted(name);
  }

  static MetricResult result(AnalysisRun run, String metric) {
    return run.getStatus().getMetricResults().stream()
        .filter(m -> metric.equals(m.getName()))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no metric result " + metric + " in " + run.getStatus()));
  }

  static Measurement lastMeasurement(AnalysisRun run, String metric) {
    MetricResult r = result(run, metric);
    assertNotNull(r.getMeasurements(), "measurements of " + r.getName());
    return r.getMeasurements().get(r.getMeasurements().size() - 1);
  }

  /**
   * Waits until the controller's /metrics has the run's metric with the given type label (Argo's
   * provider type).
   */
  void awaitMetricType(ControllerProcess controller, String run, String metric, String type) {
    String series =
        "analysis_run_metric_type{namespace=\""
            + ns
            + "\",name=\""
            + run
            + "\",metric=\""
            + metric
            + "\",type=\""
            + type
            + "\"} 1";
    HttpClient http = HttpClient.newHttpClient();
    Awaitility.await(series)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(() -> scrape(http, controller.metricsPort()).contains(series));
  }

  private static String scrape(HttpClient http, int port) throws IOException, InterruptedException {
    return http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** Deletes the namespace unless a test of the class failed. */
  void close(Class<?> testClass) {
    if (!FAILED.contains(testClass)) {
      cluster.deleteNamespace(ns);
    }
  }
}
