package io.rollgate.e2e.analysis.providers;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Measurement;
import io.rollgate.api.MetricResult;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.TestCluster;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link ProviderRuns} with the controller that measures them: a namespace of its own watched by a
 * controller process (so the namespace is also the controller's, where provider Secrets are read),
 * Secrets created there, and the query parameters a stand-in server received, decoded.
 */
final class AnalysisRunFixture {

  final TestCluster cluster;
  final String ns;
  private final ProviderRuns runs;
  private final ControllerProcess controller;

  private AnalysisRunFixture(TestCluster cluster, ProviderRuns runs, ControllerProcess controller) {
    this.cluster = cluster;
    this.ns = runs.namespace();
    this.runs = runs;
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
    ProviderRuns runs = new ProviderRuns(cluster, name);
    return new AnalysisRunFixture(
        cluster, runs, ControllerProcess.start(cluster, name, "--namespace", runs.namespace()));
  }

  /** Creates a Secret in the namespace. */
  void secret(String name, Map<String, String> data) {
    cluster
        .client()
        .secrets()
        .inNamespace(ns)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withStringData(data)
                .build())
        .create();
  }

  AnalysisRun create(String name, String argsYaml, String metricsYaml) {
    return runs.create(name, argsYaml, metricsYaml);
  }

  AnalysisRun awaitCompleted(String name) {
    return runs.awaitCompleted(name);
  }

  AnalysisRun get(String name) {
    return cluster.client().resources(AnalysisRun.class).inNamespace(ns).withName(name).get();
  }

  void awaitMetricType(String run, String metric, String type) {
    runs.awaitMetricType(controller, run, metric, type);
  }

  static MetricResult result(AnalysisRun run, String metric) {
    return ProviderRuns.result(run, metric);
  }

  static Measurement last(AnalysisRun run, String metric) {
    return ProviderRuns.lastMeasurement(run, metric);
  }

  /** The query parameters of a request, decoded, by name. */
  static Map<String, String> params(String rawQuery) {
    Map<String, String> out = new TreeMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return out;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(
          URLDecoder.decode(k, StandardCharsets.UTF_8),
          URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return out;
  }

  /**
   * Stops the controller and deletes the namespace, unless a test of the class failed.
   *
   * @param testClass the test class, registered with {@link ProviderRuns.KeepOnFailure}
   */
  void close(Class<?> testClass) {
    controller.close();
    runs.close(testClass);
  }
}
