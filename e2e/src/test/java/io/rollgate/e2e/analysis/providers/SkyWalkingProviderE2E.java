package io.rollgate.e2e.analysis.providers;

import static io.rollgate.e2e.analysis.providers.AnalysisRunFixture.last;
import static io.rollgate.e2e.analysis.providers.AnalysisRunFixture.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.api.AnalysisRun;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.TestHttpServer;
import io.rollgate.e2e.support.TestHttpServer.Request;
import io.rollgate.e2e.support.TestHttpServer.Response;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * AnalysisRuns measured by the controller's SkyWalking provider against a local stand-in of the OAP
 * server's GraphQL query API ({@code POST /graphql} with the {@code duration} variable; {@code
 * data} and {@code errors} answers).
 */
@ExtendWith(ProviderRuns.KeepOnFailure.class)
class SkyWalkingProviderE2E {

  static final ObjectMapper JSON = new ObjectMapper();
  static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HHmm");
  static final String SLA_QUERY =
      "query queryData($duration: Duration!) { service_sla: execExpression(expression: \\\"avg(service_sla)\\\","
          + " entity: {serviceName: \\\"%s\\\", normal: true}, duration: $duration) { results { values { value } } } }";

  static TestHttpServer oap;
  static TestHttpServer locked;
  static AnalysisRunFixture fixture;
  static int downPort;

  @BeforeAll
  static void setUp() {
    oap = TestHttpServer.http();
    oap.route("/graphql", SkyWalkingProviderE2E::answer);
    locked = TestHttpServer.http();
    locked.route("/graphql", r -> Response.text(401, "Unauthorized"));
    downPort = ControllerProcess.freePort();
    fixture = AnalysisRunFixture.start("skywalking-provider");
  }

  @AfterAll
  static void tearDown() {
    if (fixture != null) {
      fixture.close(SkyWalkingProviderE2E.class);
    }
    if (oap != null) {
      oap.close();
    }
    if (locked != null) {
      locked.close();
    }
  }

  static Response answer(Request r) throws Exception {
    String query = JSON.readTree(r.body()).path("query").asText();
    if (query.contains("malformed")) {
      return Response.json(200, "{\"data\":");
    }
    if (query.contains("unknownField")) {
      return Response.json(
          200,
          "{\"errors\":[{\"message\":\"Validation error of type FieldUndefined: unknownField\"}]}");
    }
    String sla = query.contains("checkout") ? "9990" : "9200";
    return Response.json(
        200,
        "{\"data\":{\"service_sla\":{\"results\":[{\"values\":[{\"value\":\"" + sla + "\"}]}]}}}");
  }

  static String metric(String name, String address, String query, String condition) {
    return "- name: "
        + name
        + "\n  consecutiveErrorLimit: 0\n  successCondition: '"
        + condition
        + "'\n"
        + "  provider:\n    skywalking:\n      address: "
        + address
        + "\n      interval: 3m\n"
        + "      query: \""
        + query
        + "\"\n";
  }

  static String sla(String service) {
    return String.format(SLA_QUERY, service);
  }

  static final String CONDITION = "asInt(result.service_sla.results[0].values[0].value) >= 9900";

  @Test
  void dataObjectIsTheValueTheConditionsRead() throws Exception {
    int before = oap.requests("/graphql").size();
    String address = "http://127.0.0.1:" + oap.port();
    fixture.create(
        "sw-sla",
        "args:\n- name: service\n  value: checkout\n",
        metric("checkout", address, sla("{{args.service}}"), CONDITION)
            + metric("payments", address, sla("payments"), CONDITION));
    AnalysisRun run = fixture.awaitCompleted("sw-sla");
    assertEquals("Failed", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("Successful", result(run, "checkout").getPhase());
    assertEquals(
        "{\"service_sla\":{\"results\":[{\"values\":[{\"value\":\"9990\"}]}]}}",
        last(run, "checkout").getValue());
    assertEquals("Failed", result(run, "payments").getPhase());
    fixture.awaitMetricType("sw-sla", "checkout", "SkyWalking");

    Request seen =
        oap.requests("/graphql").subList(before, before + 2).stream()
            .filter(r -> r.body().contains("checkout"))
            .findFirst()
            .orElseThrow();
    assertEquals("POST", seen.method());
    assertEquals("application/json", seen.header("Content-Type"));
    JsonNode duration = JSON.readTree(seen.body()).at("/variables/duration");
    assertEquals("MINUTE", duration.path("step").asText());
    LocalDateTime start = LocalDateTime.parse(duration.path("start").asText(), MINUTE);
    LocalDateTime end = LocalDateTime.parse(duration.path("end").asText(), MINUTE);
    assertEquals(3, ChronoUnit.MINUTES.between(start, end), seen.body());
  }

  @Test
  void unauthorizedUnreachableBrokenBodiesAndGraphQlErrorsAreErrors() {
    String address = "http://127.0.0.1:" + oap.port();
    fixture.create(
        "sw-errors",
        "",
        metric("unauthorized", "http://127.0.0.1:" + locked.port(), sla("checkout"), CONDITION)
            + metric("down", "http://127.0.0.1:" + downPort, sla("checkout"), CONDITION)
            + metric("malformed", address, "query { malformed }", CONDITION)
            + metric("invalid", address, "query { unknownField }", CONDITION));
    AnalysisRun run = fixture.awaitCompleted("sw-errors");
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals(
        "graphql: server returned a non-200 status code: 401",
        last(run, "unauthorized").getMessage());
    assertEquals(
        "Post \"http://127.0.0.1:"
            + downPort
            + "/graphql\": dial tcp 127.0.0.1:"
            + downPort
            + ": connect: connection refused",
        last(run, "down").getMessage());
    assertTrue(
        last(run, "malformed").getMessage().startsWith("graphql: decoding response: "),
        last(run, "malformed").getMessage());
    assertEquals(
        "graphql: Validation error of type FieldUndefined: unknownField",
        last(run, "invalid").getMessage());
  }
}
