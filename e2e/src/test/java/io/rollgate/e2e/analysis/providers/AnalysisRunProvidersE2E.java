package io.rollgate.e2e.analysis.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Measurement;
import io.rollgate.api.MetricResult;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.PrometheusServer;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.TestExporter;
import io.rollgate.e2e.support.TestHttpServer;
import io.rollgate.e2e.support.TestHttpServer.Response;
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
 * AnalysisRuns on the API server, measured by the controller's Prometheus and web providers against
 * a real Prometheus (scraping a test exporter) and a local HTTPS server: what a user reads in
 * {@code status}.
 */
@ExtendWith(AnalysisRunProvidersE2E.FailureTracker.class)
class AnalysisRunProvidersE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(60);
  static final String SECRET_TOKEN = "s3cr3t-t0ken-4711";

  static TestCluster cluster;
  static String ns;
  static ControllerProcess controller;
  static TestExporter exporter;
  static PrometheusServer prometheus;
  static TestHttpServer web;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("analysis-providers");
    exporter = new TestExporter();
    exporter.setRate("http_requests_total", Map.of("service", "healthy", "code", "200"), 99);
    exporter.setRate("http_requests_total", Map.of("service", "healthy", "code", "500"), 1);
    exporter.setRate("http_requests_total", Map.of("service", "broken", "code", "200"), 50);
    exporter.setRate("http_requests_total", Map.of("service", "broken", "code", "503"), 50);
    prometheus = PrometheusServer.start("analysis-run-providers", List.of(exporter.target()));
    web = TestHttpServer.https();
    web.route(
        "/health", r -> Response.json(200, "{\"data\":{\"ok\":true,\"successPercent\":99.5}}"));
    web.route("/unavailable", r -> Response.json(503, "{\"error\":\"down\"}"));
    web.route("/hang", r -> null);
    web.route(
        "/secured",
        r ->
            ("Bearer " + SECRET_TOKEN).equals(r.header("Authorization"))
                ? Response.json(200, "{\"ok\":true}")
                : Response.json(401, "{\"ok\":false}"));
    cluster
        .client()
        .secrets()
        .inNamespace(ns)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("web-creds")
                .endMetadata()
                .withStringData(Map.of("token", SECRET_TOKEN))
                .build())
        .create();
    controller = ControllerProcess.start(cluster, "analysis-run-providers", "--namespace", ns);
    prometheus.awaitQuery(errorRate("broken"), TIMEOUT, r -> r.size() == 1);
    prometheus.awaitQuery(errorRate("healthy"), TIMEOUT, r -> r.size() == 1);
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (web != null) {
      web.close();
    }
    if (prometheus != null) {
      prometheus.close();
    }
    if (exporter != null) {
      exporter.close();
    }
    if (!failed && ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  static String errorRate(String service) {
    return String.format(
        "sum(rate(http_requests_total{service=\"%s\",code=~\"5..\"}[1m])) / sum(rate(http_requests_total{service=\"%s\"}[1m]))",
        service, service);
  }

  static AnalysisRun create(String name, String metricsYaml) {
    return create(name, "", metricsYaml);
  }

  static AnalysisRun create(String name, String argsYaml, String metricsYaml) {
    return new ProviderRuns(cluster, ns, TIMEOUT).create(name, argsYaml, metricsYaml);
  }

  static AnalysisRun awaitCompleted(String name) {
    return new ProviderRuns(cluster, ns, TIMEOUT).awaitCompleted(name);
  }

  static MetricResult result(AnalysisRun run, String metric) {
    return ProviderRuns.result(run, metric);
  }

  static Measurement lastMeasurement(MetricResult r) {
    assertNotNull(r.getMeasurements(), "measurements of " + r.getName());
    return r.getMeasurements().get(r.getMeasurements().size() - 1);
  }

  static String prometheusMetric(
      String name, String service, String successCondition, String extra) {
    return "- name: "
        + name
        + "\n"
        + "  successCondition: '"
        + successCondition
        + "'\n"
        + extra
        + "  provider:\n"
        + "    prometheus:\n"
        + "      address: "
        + prometheus.address()
        + "\n"
        + "      query: '"
        + errorRate(service)
        + "'\n";
  }

  @Test
  void errorRateAboveTheThresholdFailsTheRun() {
    create("error-rate-broken", prometheusMetric("error-rate", "broken", "result[0] < 0.05", ""));
    AnalysisRun run = awaitCompleted("error-rate-broken");
    MetricResult r = result(run, "error-rate");
    Measurement m = lastMeasurement(r);
    assertEquals("Failed", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("Failed", r.getPhase());
    assertEquals("Failed", m.getPhase());
    assertTrue(m.getValue().matches("\\[0\\.[45]\\d*]"), m.getValue());
    assertEquals(
        "Metric \"error-rate\" assessed Failed due to failed (1) > failureLimit (0)",
        run.getStatus().getMessage());
    assertEquals(errorRate("broken"), r.getMetadata().get("ResolvedPrometheusQuery"));
  }

  @Test
  void healthyErrorRateSucceeds() {
    create("error-rate-healthy", prometheusMetric("error-rate", "healthy", "result[0] < 0.05", ""));
    AnalysisRun run = awaitCompleted("error-rate-healthy");
    MetricResult r = result(run, "error-rate");
    assertEquals("Successful", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("Successful", lastMeasurement(r).getPhase());
    assertTrue(
        lastMeasurement(r).getValue().matches("\\[0\\.0\\d*]"), lastMeasurement(r).getValue());
    assertEquals(1, r.getSuccessful());
  }

  @Test
  void emptyVectorIsNoDataUnlessTheConditionHandlesIt() {
    create(
        "error-rate-no-data",
        prometheusMetric(
            "error-rate", "no-such-service", "result[0] < 0.05", "  consecutiveErrorLimit: 0\n"));
    AnalysisRun run = awaitCompleted("error-rate-no-data");
    Measurement m = lastMeasurement(result(run, "error-rate"));
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("Error", m.getPhase());
    assertEquals("[]", m.getValue());
    assertEquals(
        "metric result is nil or empty: no data returned from the metric provider", m.getMessage());
    assertEquals(
        "Metric \"error-rate\" assessed Error due to consecutiveErrors (1) > consecutiveErrorLimit (0): "
            + "\"Error Message: metric result is nil or empty: no data returned from the metric provider\"",
        run.getStatus().getMessage());

    create(
        "error-rate-no-data-len",
        prometheusMetric(
            "error-rate", "no-such-service", "len(result) == 0 || result[0] < 0.05", ""));
    AnalysisRun handled = awaitCompleted("error-rate-no-data-len");
    assertEquals(
        "Successful", handled.getStatus().getPhase(), () -> String.valueOf(handled.getStatus()));
    assertEquals("[]", lastMeasurement(result(handled, "error-rate")).getValue());
  }

  @Test
  void webJsonPathDecidesTheMeasurement() {
    create(
        "web-json",
        "- name: healthy\n"
            + "  successCondition: result == true\n"
            + "  provider:\n    web:\n      url: "
            + web.url("/health")
            + "\n      insecure: true\n      jsonPath: '{$.data.ok}'\n"
            + "- name: percent\n"
            + "  successCondition: result >= 99.9\n"
            + "  provider:\n    web:\n      url: "
            + web.url("/health")
            + "\n      insecure: true\n      jsonPath: '{$.data.successPercent}'\n");
    AnalysisRun run = awaitCompleted("web-json");
    assertEquals("Successful", result(run, "healthy").getPhase());
    assertEquals("true", lastMeasurement(result(run, "healthy")).getValue());
    assertEquals("Failed", result(run, "percent").getPhase());
    assertEquals("99.5", lastMeasurement(result(run, "percent")).getValue());
    assertEquals("Failed", run.getStatus().getPhase());
  }

  @Test
  void webNon2xxAndTimeoutsAreErrors() {
    create(
        "web-errors",
        "- name: unavailable\n"
            + "  consecutiveErrorLimit: 0\n"
            + "  successCondition: result == true\n"
            + "  provider:\n    web:\n      url: "
            + web.url("/unavailable")
            + "\n      insecure: true\n"
            + "- name: hanging\n"
            + "  consecutiveErrorLimit: 0\n"
            + "  successCondition: result == true\n"
            + "  provider:\n    web:\n      url: "
            + web.url("/hang")
            + "\n      insecure: true\n      timeoutSeconds: 1\n");
    AnalysisRun run = awaitCompleted("web-errors");
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals(
        "received non 2xx response code: 503",
        lastMeasurement(result(run, "unavailable")).getMessage());
    Awaitility.await("hanging metric completed")
        .atMost(TIMEOUT)
        .until(
            () -> {
              AnalysisRun r =
                  cluster
                      .client()
                      .resources(AnalysisRun.class)
                      .inNamespace(ns)
                      .withName("web-errors")
                      .get();
              MetricResult h = result(r, "hanging");
              return h.getMeasurements() != null
                  && !h.getMeasurements().isEmpty()
                  && "Error".equals(lastMeasurement(h).getPhase());
            });
    AnalysisRun after =
        cluster.client().resources(AnalysisRun.class).inNamespace(ns).withName("web-errors").get();
    assertEquals(
        "Get \""
            + web.url("/hang")
            + "\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
        lastMeasurement(result(after, "hanging")).getMessage());
  }

  @Test
  void secretHeaderFromASecretIsSentAndMaskedInMessages() {
    String args =
        "args:\n- name: api-token\n  valueFrom:\n    secretKeyRef:\n      name: web-creds\n      key: token\n";
    create(
        "web-secret",
        args,
        "- name: secured\n"
            + "  successCondition: result == true\n"
            + "  provider:\n    web:\n      url: "
            + web.url("/secured")
            + "\n      insecure: true\n      jsonPath: '{$.ok}'\n"
            + "      headers:\n      - key: Authorization\n        value: 'Bearer {{args.api-token}}'\n"
            + "- name: leaky\n"
            + "  consecutiveErrorLimit: 0\n"
            + "  successCondition: result == true\n"
            + "  provider:\n    web:\n      url: '"
            + web.url("/hang")
            + "?token={{args.api-token}}'\n"
            + "      insecure: true\n      timeoutSeconds: 1\n");
    Awaitility.await("web-secret measured")
        .atMost(TIMEOUT)
        .until(
            () -> {
              AnalysisRun r =
                  cluster
                      .client()
                      .resources(AnalysisRun.class)
                      .inNamespace(ns)
                      .withName("web-secret")
                      .get();
              return r != null
                  && r.getStatus() != null
                  && r.getStatus().getMetricResults() != null
                  && r.getStatus().getMetricResults().size() == 2
                  && r.getStatus().getMetricResults().stream()
                      .allMatch(
                          m ->
                              m.getMeasurements() != null
                                  && !m.getMeasurements().isEmpty()
                                  && List.of("Successful", "Failed", "Error")
                                      .contains(lastMeasurement(m).getPhase()));
            });
    AnalysisRun run =
        cluster.client().resources(AnalysisRun.class).inNamespace(ns).withName("web-secret").get();
    assertEquals(
        "Successful",
        lastMeasurement(result(run, "secured")).getPhase(),
        () -> String.valueOf(run.getStatus()));
    String message = lastMeasurement(result(run, "leaky")).getMessage();
    assertTrue(message.contains("token=*****"), message);
    assertFalse(
        cluster
            .client()
            .getKubernetesSerialization()
            .asJson(run.getStatus())
            .contains(SECRET_TOKEN));
    assertFalse(
        cluster.client().getKubernetesSerialization().asJson(run.getSpec()).contains(SECRET_TOKEN));
  }

  /** Keeps the namespace when a test failed. */
  static class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
