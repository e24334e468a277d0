package io.rollgate.e2e.analysis.providers;

import static io.rollgate.e2e.analysis.providers.AnalysisRunFixture.last;
import static io.rollgate.e2e.analysis.providers.AnalysisRunFixture.params;
import static io.rollgate.e2e.analysis.providers.AnalysisRunFixture.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Measurement;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.TestHttpServer;
import io.rollgate.e2e.support.TestHttpServer.Request;
import io.rollgate.e2e.support.TestHttpServer.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * AnalysisRuns measured by the controller's Datadog provider against a local stand-in of Datadog's
 * v1 metrics query API and v2 scalar query API (key headers checked, answers shaped as Datadog
 * documents them), with the credentials in the {@code datadog} Secret of the controller's namespace
 * or in the Secret named by {@code secretRef}.
 */
@ExtendWith(ProviderRuns.KeepOnFailure.class)
class DatadogProviderE2E {

  static final ObjectMapper JSON = new ObjectMapper();
  static final String API_KEY = "dd-api-4711";
  static final String APP_KEY = "dd-app-0815";
  static final String SECRET_SERVICE = "svc7f3a9";

  static TestHttpServer datadog;
  static AnalysisRunFixture fixture;
  static int downPort;

  @BeforeAll
  static void setUp() {
    datadog = TestHttpServer.http();
    datadog.route("/api/v1/query", r -> answer(r, params(r.query()).get("query"), false));
    datadog.route(
        "/api/v2/query/scalar",
        r ->
            answer(
                r, JSON.readTree(r.body()).at("/data/attributes/queries/0/query").asText(), true));
    fixture = AnalysisRunFixture.start("datadog-provider");
    String address = "http://127.0.0.1:" + datadog.port();
    downPort = ControllerProcess.freePort();
    fixture.secret("datadog", Map.of("address", address, "api-key", API_KEY, "app-key", APP_KEY));
    fixture.secret(
        "dd-wrong-key", Map.of("address", address, "api-key", "revoked", "app-key", APP_KEY));
    fixture.secret(
        "dd-down",
        Map.of("address", "http://127.0.0.1:" + downPort, "api-key", API_KEY, "app-key", APP_KEY));
    fixture.secret("dd-args", Map.of("service", SECRET_SERVICE));
  }

  @AfterAll
  static void tearDown() {
    if (fixture != null) {
      fixture.close(DatadogProviderE2E.class);
    }
    if (datadog != null) {
      datadog.close();
    }
  }

  /**
   * Datadog's answer to a query: by what the query names, the error rate of a service, no data, or
   * a broken body.
   */
  static Response answer(Request r, String query, boolean v2) {
    if (!API_KEY.equals(r.header("DD-API-KEY"))
        || !APP_KEY.equals(r.header("DD-APPLICATION-KEY"))) {
      return Response.json(403, "{\"errors\":[\"Forbidden\"]}");
    }
    if (query.contains("malformed")) {
      return Response.json(200, "{\"series\": [");
    }
    Double value =
        query.contains("healthy")
            ? Double.valueOf(0.01)
            : query.contains("broken") ? Double.valueOf(0.2) : null;
    if (v2) {
      String values = value == null ? "[]" : "[" + value + "]";
      return Response.json(
          200,
          "{\"data\":{\"type\":\"scalar_response\",\"attributes\":{\"columns\":[{\"name\":\"a\",\"type\":\"number\","
              + "\"values\":"
              + values
              + "}]}}}");
    }
    String series =
        value == null
            ? "[]"
            : "[{\"metric\":\"errors\",\"pointlist\":[[1700000000000.0,0.5],[1700000060000.0,"
                + value
                + "]]}]";
    return Response.json(
        200, "{\"status\":\"ok\",\"res_type\":\"time_series\",\"series\":" + series + "}");
  }

  static String metric(String name, String condition, String datadogYaml) {
    return "- name: "
        + name
        + "\n  consecutiveErrorLimit: 0\n  successCondition: '"
        + condition
        + "'\n"
        + "  provider:\n    datadog:\n"
        + datadogYaml.indent(6);
  }

  @Test
  void v1QueryOverTheIntervalDecidesSuccessAndFailure() {
    int before = datadog.requests("/api/v1/query").size();
    fixture.create(
        "dd-v1",
        "",
        metric("healthy", "result < 0.05", "query: 'sum:errors{service:healthy}.as_rate()'")
            + metric(
                "broken", "result < 0.05", "query: 'sum:errors{service:broken}'\ninterval: 10m"));
    AnalysisRun run = fixture.awaitCompleted("dd-v1");
    assertEquals("Failed", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("Successful", result(run, "healthy").getPhase());
    assertEquals("0.01", last(run, "healthy").getValue());
    assertEquals("Failed", result(run, "broken").getPhase());
    assertEquals("0.2", last(run, "broken").getValue());
    assertEquals(
        "Metric \"broken\" assessed Failed due to failed (1) > failureLimit (0)",
        run.getStatus().getMessage());
    fixture.awaitMetricType("dd-v1", "healthy", "Datadog");

    List<Request> seen = datadog.requests("/api/v1/query").subList(before, before + 2);
    for (Request r : seen) {
      assertEquals("GET", r.method());
      assertEquals(API_KEY, r.header("DD-API-KEY"));
      assertEquals(APP_KEY, r.header("DD-APPLICATION-KEY"));
      Map<String, String> p = params(r.query());
      long window = Long.parseLong(p.get("to")) - Long.parseLong(p.get("from"));
      if (p.get("query").contains("healthy")) {
        assertEquals("sum:errors{service:healthy}.as_rate()", p.get("query"));
        assertEquals(300, window, "default interval 5m");
      } else {
        assertEquals(600, window);
      }
    }
  }

  @Test
  void v2FormulaIsSentWithItsQueriesAndAggregator() throws Exception {
    int before = datadog.requests("/api/v2/query/scalar").size();
    fixture.create(
        "dd-v2",
        "",
        metric(
            "ratio",
            "result <= 0.05",
            "apiVersion: v2\ninterval: 1m\naggregator: sum\nqueries:\n  a: 'sum:errors{service:healthy}'\n"
                + "  b: 'sum:hits{service:healthy}'\nformula: 'a / b'"));
    AnalysisRun run = fixture.awaitCompleted("dd-v2");
    assertEquals("Successful", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("0.01", last(run, "ratio").getValue());
    Request r = datadog.requests("/api/v2/query/scalar").get(before);
    assertEquals("POST", r.method());
    assertEquals("application/json", r.header("Content-Type"));
    JsonNode body = JSON.readTree(r.body());
    assertEquals("scalar_request", body.at("/data/type").asText());
    JsonNode attributes = body.at("/data/attributes");
    assertEquals(60_000, attributes.path("to").asLong() - attributes.path("from").asLong());
    assertEquals(
        JSON.readTree(
            "[{\"aggregator\":\"sum\",\"data_source\":\"metrics\",\"name\":\"a\",\"query\":\"sum:errors{service:healthy}\"},"
                + "{\"aggregator\":\"sum\",\"data_source\":\"metrics\",\"name\":\"b\",\"query\":\"sum:hits{service:healthy}\"}]"),
        attributes.path("queries"));
    assertEquals(JSON.readTree("[{\"formula\":\"a / b\"}]"), attributes.path("formulas"));
  }

  @Test
  void emptyResultIsNilWhichConditionsCanTest() {
    fixture.create(
        "dd-empty",
        "",
        metric("defaulted", "default(result, 0) < 0.05", "query: 'sum:errors{service:quiet}'")
            + metric(
                "v2-nil", "isNil(result)", "apiVersion: v2\nquery: 'sum:errors{service:quiet}'")
            + metric("unhandled", "result < 0.05", "query: 'sum:errors{service:quiet}'"));
    AnalysisRun run = fixture.awaitCompleted("dd-empty");
    assertEquals(
        "Successful", result(run, "defaulted").getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("[]", last(run, "defaulted").getValue());
    assertEquals("Successful", result(run, "v2-nil").getPhase());
    assertEquals("Error", result(run, "unhandled").getPhase());
    assertEquals(
        "metric result is nil or empty: no data returned from the metric provider",
        last(run, "unhandled").getMessage());
  }

  @Test
  void rejectedKeysUnreachableServerAndBrokenBodiesAreErrors() {
    fixture.create(
        "dd-errors",
        "",
        metric(
                "forbidden",
                "result < 1",
                "query: 'sum:errors{service:healthy}'\nsecretRef: {name: dd-wrong-key}")
            + metric(
                "down",
                "result < 1",
                "apiVersion: v2\nquery: 'sum:errors{service:healthy}'\nsecretRef: {name: dd-down}")
            + metric("malformed", "result < 1", "query: 'sum:errors{service:malformed}'")
            + metric(
                "no-credentials",
                "result < 1",
                "query: 'sum:errors{service:healthy}'\nsecretRef: {name: nowhere}"));
    AnalysisRun run = fixture.awaitCompleted("dd-errors");
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals(
        "received authentication error response code: 403 {\"errors\":[\"Forbidden\"]}",
        last(run, "forbidden").getMessage());
    assertEquals(
        "Post \"http://127.0.0.1:"
            + downPort
            + "/api/v2/query/scalar\": dial tcp 127.0.0.1:"
            + downPort
            + ": connect: connection refused",
        last(run, "down").getMessage());
    assertTrue(
        last(run, "malformed").getMessage().startsWith("Could not parse JSON body: "),
        last(run, "malformed").getMessage());
    assertEquals(
        "failed to find the credentials for datadog metrics provider",
        last(run, "no-credentials").getMessage());
    for (String m : List.of("forbidden", "down", "malformed", "no-credentials")) {
      assertEquals("Error", result(run, m).getPhase(), m);
      assertEquals(1, result(run, m).getConsecutiveError(), m);
    }
  }

  @Test
  void argumentsAreSubstitutedAndSecretValuesMasked() {
    int before = datadog.requests("/api/v1/query").size();
    fixture.create(
        "dd-args",
        "args:\n- name: service\n  valueFrom:\n    secretKeyRef: {name: dd-args, key: service}\n- name: window\n  value: 2m\n",
        metric(
            "masked",
            "result < 0.05",
            "query: 'sum:errors{service:{{args.service}}}'\ninterval: '{{args.window}}'\n"
                + "secretRef: {name: dd-down}"));
    AnalysisRun run = fixture.awaitCompleted("dd-args");
    Measurement m = last(run, "masked");
    assertEquals("Error", m.getPhase());
    assertTrue(m.getMessage().contains("service%3A*****%7D"), m.getMessage());
    assertFalse(
        fixture
            .cluster
            .client()
            .getKubernetesSerialization()
            .asJson(run.getStatus())
            .contains(SECRET_SERVICE));
    assertEquals(
        before, datadog.requests("/api/v1/query").size(), "the down secret's address was used");
  }
}
