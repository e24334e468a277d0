package io.rollgate.e2e.analysis.providers;

import static io.rollgate.e2e.analysis.providers.ProviderRuns.lastMeasurement;
import static io.rollgate.e2e.analysis.providers.ProviderRuns.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Measurement;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.GraphiteServer;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.TestHttpServer;
import io.rollgate.e2e.support.TestHttpServer.Response;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Graphite provider against a real Graphite (Debian's carbon-cache fed with the plaintext
 * protocol, graphite-web's render API): AnalysisRuns on the API server, measured by a controller
 * process, reach Successful, Failed and Error with the values and messages a user reads in {@code
 * status}.
 */
@ExtendWith(ProviderRuns.KeepOnFailure.class)
class GraphiteProviderE2E {

  static GraphiteServer graphite;
  static TestHttpServer notGraphite;
  static ControllerProcess controller;
  static ProviderRuns runs;

  @BeforeAll
  static void setUp() {
    graphite = GraphiteServer.start("provider");
    Instant now = Instant.now();
    graphite.feed("app.web.errors", points(now, 0.01, 0.02));
    graphite.feed("app.broken.errors", points(now, 0.4, 0.6));
    graphite.awaitRender("target=app.web.errors&from=-5min", json -> json.contains("0.02"));
    graphite.awaitRender("target=app.broken.errors&from=-5min", json -> json.contains("0.6"));
    notGraphite = TestHttpServer.http();
    notGraphite.route("/render", r -> Response.text(200, "<html>maintenance</html>"));
    runs = new ProviderRuns(TestCluster.get(), "graphite-provider");
    controller =
        ControllerProcess.start(
            TestCluster.get(), "graphite-provider", "--namespace", runs.namespace());
  }

  /**
   * Two points 40 s and 20 s ago, with a gap (no point) between them that the render API answers as
   * null.
   */
  static Map<Instant, Double> points(Instant now, double older, double newer) {
    Map<Instant, Double> points = new LinkedHashMap<>();
    points.put(now.minusSeconds(40), older);
    points.put(now.minusSeconds(20), newer);
    return points;
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (notGraphite != null) {
      notGraphite.close();
    }
    if (graphite != null) {
      graphite.close();
    }
    if (runs != null) {
      runs.close(GraphiteProviderE2E.class);
    }
  }

  static String metric(String name, String address, String query, String extra) {
    return "- name: "
        + name
        + "\n"
        + "  successCondition: 'all(result, {# < 0.05})'\n"
        + extra
        + "  provider:\n"
        + "    graphite:\n"
        + "      address: "
        + address
        + "\n"
        + "      query: |\n"
        + query.indent(8);
  }

  static final String SERVICE_ARG = "args:\n- name: service\n  value: ";

  @Test
  void lowErrorRateSucceedsWithTheNonNullDatapoints() {
    AnalysisRun run =
        runs.run(
            "graphite-healthy",
            SERVICE_ARG + "web",
            metric(
                "errors",
                graphite.address(),
                "target=app.{{args.service}}.errors\n&from=-5min",
                ""));
    assertEquals("Successful", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    Measurement m = lastMeasurement(run, "errors");
    assertEquals("Successful", m.getPhase());
    assertEquals("[0.010000,0.020000]", m.getValue());
    runs.awaitMetricType(controller, "graphite-healthy", "errors", "Graphite");
  }

  @Test
  void highErrorRateFailsTheRun() {
    AnalysisRun run =
        runs.run(
            "graphite-broken",
            SERVICE_ARG + "broken",
            metric(
                "errors", graphite.address(), "target=app.{{args.service}}.errors&from=-5min", ""));
    assertEquals("Failed", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("[0.400000,0.600000]", lastMeasurement(run, "errors").getValue());
    assertEquals("Failed", lastMeasurement(run, "errors").getPhase());
    assertEquals(
        "Metric \"errors\" assessed Failed due to failed (1) > failureLimit (0)",
        run.getStatus().getMessage());
  }

  @Test
  void rejectedQueryIsAnErrorWithGraphitesMessage() {
    AnalysisRun run =
        runs.run(
            "graphite-bad-query",
            "",
            metric(
                "errors",
                graphite.address(),
                "target=nosuchfunc(app.web.errors)&from=-5min",
                "  consecutiveErrorLimit: 0\n"));
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    Measurement m = lastMeasurement(run, "errors");
    assertEquals("Error", m.getPhase());
    assertTrue(m.getMessage().startsWith("error response: "), m.getMessage());
    assertTrue(m.getMessage().contains("unknown function: nosuchfunc"), m.getMessage());
    assertEquals(
        "Metric \"errors\" assessed Error due to consecutiveErrors (1) > consecutiveErrorLimit (0): \"Error Message: "
            + m.getMessage()
            + "\"",
        run.getStatus().getMessage());
  }

  @Test
  void unknownSeriesIsNoValuesFound() {
    AnalysisRun run =
        runs.run(
            "graphite-no-series",
            "",
            metric(
                "errors",
                graphite.address(),
                "target=app.nothing.errors&from=-5min",
                "  consecutiveErrorLimit: 0\n"));
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("no values found", lastMeasurement(run, "errors").getMessage());
  }

  @Test
  void unreachableServerAndMalformedAnswerAreErrors() {
    int closed = ControllerProcess.freePort();
    AnalysisRun run =
        runs.run(
            "graphite-down",
            "",
            metric(
                    "down",
                    "http://127.0.0.1:" + closed,
                    "target=app.web.errors&from=-5min",
                    "  consecutiveErrorLimit: 0\n")
                + metric(
                    "html",
                    "http://" + notGraphite.hostPort(),
                    "target=app.web.errors&from=-5min",
                    "  consecutiveErrorLimit: 0\n"));
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals(
        "Get \"http://127.0.0.1:"
            + closed
            + "/render?format=json&from=-5min&target=app.web.errors\": dial tcp 127.0.0.1:"
            + closed
            + ": connect: connection refused",
        lastMeasurement(run, "down").getMessage());
    Measurement html = lastMeasurement(run, "html");
    assertEquals("Error", html.getPhase());
    assertTrue(html.getMessage().startsWith("Graphite answer is not JSON: "), html.getMessage());
    assertEquals("Error", result(run, "html").getPhase());
  }
}
