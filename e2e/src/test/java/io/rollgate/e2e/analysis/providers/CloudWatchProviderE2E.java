package io.rollgate.e2e.analysis.providers;

import static io.rollgate.e2e.analysis.providers.ProviderRuns.lastMeasurement;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Measurement;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.MotoServer;
import io.rollgate.e2e.support.TestCluster;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The CloudWatch provider through the real AWS SDK against a local AWS API emulator (moto's
 * server): the controller process finds region, credentials and endpoint in the SDK's standard
 * environment variables ({@code AWS_ENDPOINT_URL_CLOUDWATCH}); AnalysisRuns on the API server reach
 * Successful, Failed and Error. The data points are stored with the SDK's {@code PutMetricData}, as
 * an application would. The last test stops the emulator.
 */
@ExtendWith(ProviderRuns.KeepOnFailure.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CloudWatchProviderE2E {

  static MotoServer moto;
  static ControllerProcess controller;
  static ProviderRuns runs;

  @BeforeAll
  static void setUp() {
    moto = MotoServer.start("cloudwatch-provider");
    Instant now = Instant.now();
    moto.putMetricData("app", "5xx", Map.of("Service", "web"), points(now, 1.0, 2.0));
    moto.putMetricData("app", "5xx", Map.of("Service", "broken"), points(now, 10.0, 20.0));
    runs = new ProviderRuns(TestCluster.get(), "cloudwatch-provider");
    controller =
        ControllerProcess.start(
            TestCluster.get(),
            "cloudwatch-provider",
            moto.sdkEnvironment(),
            "--namespace",
            runs.namespace());
  }

  static Map<Instant, Double> points(Instant now, double older, double newer) {
    Map<Instant, Double> points = new LinkedHashMap<>();
    points.put(now.minusSeconds(150), older);
    points.put(now.minusSeconds(30), newer);
    return points;
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (moto != null) {
      moto.close();
    }
    if (runs != null) {
      runs.close(CloudWatchProviderE2E.class);
    }
  }

  static String metric(String name, String interval, String stat, String extra) {
    return "- name: "
        + name
        + "\n"
        + "  successCondition: 'result[0].Id == \"errors\" && len(result[0].Values) > 0"
        + " && all(result[0].Values, {# < 5})'\n"
        + extra
        + "  provider:\n"
        + "    cloudWatch:\n"
        + (interval == null ? "" : "      interval: " + interval + "\n")
        + "      metricDataQueries:\n"
        + "      - id: errors\n"
        + "        metricStat:\n"
        + "          metric:\n"
        + "            namespace: app\n"
        + "            metricName: 5xx\n"
        + "            dimensions:\n"
        + "            - name: Service\n"
        + "              value: '{{args.service}}'\n"
        + "          period: 60\n"
        + "          stat: "
        + stat
        + "\n"
        + "      - id: doubled\n"
        + "        expression: errors * 2\n"
        + "        label: errors doubled\n";
  }

  static String service(String name) {
    return "args:\n- name: service\n  value: " + name;
  }

  static final String NO_RETRY = "  consecutiveErrorLimit: 0\n";

  @Test
  @Order(1)
  void fewErrorsSucceedWithOneResultPerQueryId() {
    AnalysisRun run = runs.run("cw-healthy", service("web"), metric("errors", "10m", "Sum", ""));
    assertEquals("Successful", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    Measurement m = lastMeasurement(run, "errors");
    assertEquals("Successful", m.getPhase());
    // One list of values per query id: the metric stat's points (newest first), then the
    // expression's.
    assertTrue(m.getValue().matches("\\[\\[2 1] \\[[^\\]]*]]"), m.getValue());
    runs.awaitMetricType(controller, "cw-healthy", "errors", "CloudWatch");
  }

  @Test
  @Order(2)
  void manyErrorsFailTheRun() {
    AnalysisRun run = runs.run("cw-broken", service("broken"), metric("errors", null, "Sum", ""));
    assertEquals("Failed", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertTrue(
        lastMeasurement(run, "errors").getValue().startsWith("[[20 10] "),
        lastMeasurement(run, "errors").getValue());
    assertEquals(
        "Metric \"errors\" assessed Failed due to failed (1) > failureLimit (0)",
        run.getStatus().getMessage());
  }

  @Test
  @Order(3)
  void badIntervalAndRejectedQueryAreErrors() {
    AnalysisRun run =
        runs.run(
            "cw-bad",
            service("web"),
            metric("interval", "five minutes", "Sum", NO_RETRY)
                    .replace("- name: interval", "- name: interval")
                + metric("stat", "5m", "NoSuchStat", NO_RETRY)
                    .replace("- name: errors", "- name: stat"));
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals(
        "time: invalid duration \"five minutes\"", lastMeasurement(run, "interval").getMessage());
    Measurement stat = lastMeasurement(run, "stat");
    assertEquals("Error", stat.getPhase());
    assertTrue(stat.getMessage().contains("Status Code: 500"), stat.getMessage());
  }

  @Test
  @Order(4)
  void webIdentityCredentialsAreExchangedWithSts() throws Exception {
    // A second controller, as a pod with IRSA runs: no access keys, only a role and a token file.
    // Its own namespace, so that the two controllers never reconcile the same runs.
    java.nio.file.Path token = java.nio.file.Files.createTempFile("rollgate-irsa-", ".jwt");
    java.nio.file.Files.writeString(
        token, "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQifQ.c2ln");
    ProviderRuns irsaRuns = new ProviderRuns(TestCluster.get(), "cloudwatch-irsa");
    try (ControllerProcess irsa =
        ControllerProcess.start(
            TestCluster.get(),
            "cloudwatch-irsa",
            moto.webIdentityEnvironment(token),
            "--namespace",
            irsaRuns.namespace())) {
      AnalysisRun run =
          irsaRuns.run("cw-irsa", service("web"), metric("errors", null, "Sum", NO_RETRY));
      assertEquals("Successful", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    } finally {
      irsaRuns.close(CloudWatchProviderE2E.class);
      java.nio.file.Files.deleteIfExists(token);
    }
  }

  @Test
  @Order(5)
  void unreachableEndpointIsAnError() {
    moto.close();
    AnalysisRun run = runs.run("cw-down", service("web"), metric("errors", null, "Sum", NO_RETRY));
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    String message = lastMeasurement(run, "errors").getMessage();
    assertTrue(message.startsWith("Unable to execute HTTP request: "), message);
    assertTrue(message.contains("connect: connection refused"), message);
  }
}
