package io.rollgate.e2e.analysis.providers;

import static io.rollgate.e2e.analysis.providers.ProviderRuns.lastMeasurement;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Measurement;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.InfluxdbServer;
import io.rollgate.e2e.support.TestCluster;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The InfluxDB provider against a real InfluxDB (influxd 1.8.3 with Flux, serving the v2 query
 * API): AnalysisRuns on the API server, measured by a controller process that reads the {@code
 * influxdb} Secret (or the one named by {@code profile}) in its own namespace, reach Successful,
 * Failed and Error with the values and messages a user reads.
 */
@ExtendWith(ProviderRuns.KeepOnFailure.class)
class InfluxdbProviderE2E {

  static final String TOKEN = "rollgate-influx-token";

  static InfluxdbServer influxdb;
  static ControllerProcess controller;
  static ProviderRuns runs;

  @BeforeAll
  static void setUp() {
    influxdb = InfluxdbServer.start("provider");
    influxdb.createDatabase("app");
    long now = Instant.now().getEpochSecond();
    influxdb.write(
        "app",
        String.join(
            "\n",
            "http,service=web error_rate=0.01 " + (now - 40),
            "http,service=web error_rate=0.02 " + (now - 20),
            "http,service=broken error_rate=0.4 " + (now - 40),
            "http,service=broken error_rate=0.6 " + (now - 20),
            "http,service=web requests=120i " + (now - 20)));
    runs = new ProviderRuns(TestCluster.get(), "influxdb-provider");
    secret(
        "influxdb", Map.of("address", influxdb.address(), "authToken", TOKEN, "org", "rollgate"));
    secret(
        "influxdb-down",
        Map.of(
            "address",
            "http://127.0.0.1:" + ControllerProcess.freePort(),
            "authToken",
            TOKEN,
            "org",
            "rollgate"));
    secret("influxdb-incomplete", Map.of("address", influxdb.address(), "org", "rollgate"));
    // With --namespace and no POD_NAMESPACE, the controller's own namespace is the watched one.
    controller =
        ControllerProcess.start(
            TestCluster.get(), "influxdb-provider", "--namespace", runs.namespace());
  }

  static void secret(String name, Map<String, String> data) {
    TestCluster.get()
        .client()
        .secrets()
        .inNamespace(runs.namespace())
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withStringData(data)
                .build())
        .create();
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (influxdb != null) {
      influxdb.close();
    }
    if (runs != null) {
      runs.close(InfluxdbProviderE2E.class);
    }
  }

  static String metric(String name, String profile, String query, String extra) {
    return "- name: "
        + name
        + "\n"
        + "  successCondition: 'all(result, {# < 0.05})'\n"
        + extra
        + "  provider:\n"
        + "    influxdb:\n"
        + (profile == null ? "" : "      profile: " + profile + "\n")
        + "      query: |\n"
        + query.indent(8);
  }

  static String errorRate(String service) {
    return "from(bucket: \"app/autogen\")\n"
        + "  |> range(start: -5m)\n"
        + "  |> filter(fn: (r) => r._measurement == \"http\" and r._field == \"error_rate\" and r.service == \""
        + service
        + "\")";
  }

  static final String NO_RETRY = "  consecutiveErrorLimit: 0\n";

  @Test
  void lowErrorRateSucceedsWithEveryRecordsValue() {
    AnalysisRun run =
        runs.run(
            "influx-healthy",
            "args:\n- name: service\n  value: web",
            metric("errors", null, errorRate("{{args.service}}"), ""));
    assertEquals("Successful", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    Measurement m = lastMeasurement(run, "errors");
    assertEquals("Successful", m.getPhase());
    assertEquals("[0.01 0.02]", m.getValue());
    runs.awaitMetricType(controller, "influx-healthy", "errors", "Influxdb");
  }

  @Test
  void highErrorRateFailsTheRun() {
    AnalysisRun run =
        runs.run("influx-broken", "", metric("errors", null, errorRate("broken"), ""));
    assertEquals("Failed", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("[0.4 0.6]", lastMeasurement(run, "errors").getValue());
    assertEquals(
        "Metric \"errors\" assessed Failed due to failed (1) > failureLimit (0)",
        run.getStatus().getMessage());
  }

  @Test
  void integerFieldsAreLongs() {
    AnalysisRun run =
        runs.run(
            "influx-long",
            "",
            "- name: requests\n"
                + "  successCondition: result[0] == 120 && string(result[0]) == \"120\"\n"
                + "  provider:\n    influxdb:\n      query: |\n"
                + ("from(bucket: \"app/autogen\") |> range(start: -5m)"
                        + " |> filter(fn: (r) => r._field == \"requests\")")
                    .indent(8));
    assertEquals("Successful", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("[120]", lastMeasurement(run, "requests").getValue());
  }

  @Test
  void rejectedQueryAndEmptyAnswerAreErrors() {
    AnalysisRun run =
        runs.run(
            "influx-bad",
            "",
            metric("typo", null, "from(bucket: \"app/autogen\") |> rang(start: -5m)", NO_RETRY)
                + metric("empty", null, errorRate("nobody"), NO_RETRY));
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    Measurement typo = lastMeasurement(run, "typo");
    assertEquals("Error", typo.getPhase());
    assertTrue(typo.getMessage().startsWith("500 Internal Server Error: "), typo.getMessage());
    assertTrue(typo.getMessage().contains("undefined identifier \"rang\""), typo.getMessage());
    assertEquals("no results returned from flux query", lastMeasurement(run, "empty").getMessage());
  }

  @Test
  void profileSelectsTheSecretAndItsProblemsAreErrors() {
    AnalysisRun run =
        runs.run(
            "influx-profiles",
            "",
            metric("down", "influxdb-down", errorRate("web"), NO_RETRY)
                + metric("incomplete", "influxdb-incomplete", errorRate("web"), NO_RETRY)
                + metric("missing", "influxdb-nonexistent", errorRate("web"), NO_RETRY));
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    String down = lastMeasurement(run, "down").getMessage();
    assertTrue(down.startsWith("Post \"http://127.0.0.1:"), down);
    assertTrue(down.endsWith(": connect: connection refused"), down);
    assertTrue(down.contains("/api/v2/query?org=rollgate\""), down);
    assertTrue(!down.contains(TOKEN), down);
    assertEquals(
        "authToken, org, or address not found", lastMeasurement(run, "incomplete").getMessage());
    assertEquals(
        "secrets \"influxdb-nonexistent\" not found", lastMeasurement(run, "missing").getMessage());
  }
}
