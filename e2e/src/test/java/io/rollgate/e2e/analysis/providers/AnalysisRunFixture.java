package io.rollgate.e2e.analysis.providers;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Measurement;
import io.rollgate.api.MetricResult;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * One namespace on the test cluster with a controller watching only it (so the namespace is also the controller's,
 * where provider Secrets are read), for scenarios that create AnalysisRuns and read what a user reads in
 * {@code status}. The namespace is kept when a test failed.
 */
final class AnalysisRunFixture implements AutoCloseable {

  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final List<String> COMPLETED = List.of("Successful", "Failed", "Error", "Inconclusive");

  final TestCluster cluster;
  final String ns;
  private final ControllerProcess controller;
  private boolean failed;

  /** The query parameters of a request, decoded. */
  static Map<String, String> params(String rawQuery) {
    Map<String, String> out = new java.util.TreeMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return out;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(
          java.net.URLDecoder.decode(k, java.nio.charset.StandardCharsets.UTF_8),
          java.net.URLDecoder.decode(v, java.nio.charset.StandardCharsets.UTF_8));
    }
    return out;
  }

  private AnalysisRunFixture(TestCluster cluster, String ns, ControllerProcess controller) {
    this.cluster = cluster;
    this.ns = ns;
    this.controller = controller;
  }

  /**
   * Creates the namespace and starts the controller.
   *
   * @param name the namespace prefix and controller log name
   * @return the fixture
   */
  static AnalysisRunFixture start(String name) {
    TestCluster cluster = TestCluster.get();
    String ns = cluster.createNamespace(name);
    return new AnalysisRunFixture(cluster, ns, ControllerProcess.start(cluster, name, "--namespace", ns));
  }

  /** Creates or replaces a Secret in the namespace. */
  void secret(String name, Map<String, String> data) {
    cluster
        .client()
        .secrets()
        .inNamespace(ns)
        .resource(new SecretBuilder().withNewMetadata().withName(name).endMetadata().withStringData(data).build())
        .createOr(existing -> existing.update());
  }

  /** Creates an AnalysisRun from its args and metrics (YAML lists). */
  AnalysisRun create(String name, String argsYaml, String metricsYaml) {
    return create(cluster, ns, name, argsYaml, metricsYaml);
  }

  /** Creates an AnalysisRun in a namespace from its args and metrics (YAML lists). */
  static AnalysisRun create(TestCluster cluster, String ns, String name, String argsYaml, String metricsYaml) {
    String yaml =
        "apiVersion: argoproj.io/v1alpha1\nkind: AnalysisRun\nmetadata:\n  name: " + name + "\nspec:\n"
            + argsYaml.indent(2)
            + "  metrics:\n"
            + metricsYaml.indent(2);
    AnalysisRun run = cluster.client().getKubernetesSerialization().unmarshal(yaml, AnalysisRun.class);
    return cluster.client().resources(AnalysisRun.class).inNamespace(ns).resource(run).create();
  }

  AnalysisRun get(String name) {
    return cluster.client().resources(AnalysisRun.class).inNamespace(ns).withName(name).get();
  }

  /** Waits until the run has a completed phase and returns it. */
  AnalysisRun awaitCompleted(String name) {
    AnalysisRun[] last = new AnalysisRun[1];
    Awaitility.await(name + " completed")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(() -> {
          last[0] = get(name);
          String phase = last[0] == null || last[0].getStatus() == null ? null : last[0].getStatus().getPhase();
          return phase != null && COMPLETED.contains(phase);
        });
    return last[0];
  }

  static MetricResult result(AnalysisRun run, String metric) {
    return run.getStatus().getMetricResults().stream()
        .filter(m -> metric.equals(m.getName()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no metric result " + metric + " in " + run.getStatus()));
  }

  static Measurement last(AnalysisRun run, String metric) {
    MetricResult r = result(run, metric);
    assertNotNull(r.getMeasurements(), "measurements of " + metric);
    return r.getMeasurements().get(r.getMeasurements().size() - 1);
  }

  /**
   * Waits until the controller's {@code /metrics} exposes a metric's {@code analysis_run_metric_type} series with the
   * given type label.
   *
   * @param run the AnalysisRun's name
   * @param metric the metric's name
   * @param type the expected label value, for example {@code Datadog}
   */
  void awaitMetricType(String run, String metric, String type) {
    String series =
        "analysis_run_metric_type{namespace=\"" + ns + "\",name=\"" + run + "\",metric=\"" + metric + "\",type=\"" + type
            + "\"} 1";
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    java.net.http.HttpRequest request =
        java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + controller.metricsPort() + "/metrics"))
            .timeout(Duration.ofSeconds(5))
            .build();
    Awaitility.await(series)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(() -> http.send(request, java.net.http.HttpResponse.BodyHandlers.ofString()).body().contains(series));
  }

  /**
   * Stops the controller and deletes the namespace, unless a test failed.
   *
   * @param watch the test class's failure watch
   */
  void close(KeepOnFailure watch) {
    failed = watch.failed;
    close();
  }

  @Override
  public void close() {
    controller.close();
    if (!failed) {
      cluster.deleteNamespace(ns);
    }
  }

  /** Remembers that a test of the class failed. */
  static final class KeepOnFailure implements TestWatcher {
    volatile boolean failed;

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
