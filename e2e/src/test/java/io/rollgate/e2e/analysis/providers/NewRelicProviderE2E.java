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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * AnalysisRuns measured by the controller's New Relic provider against a local stand-in of the
 * NerdGraph GraphQL API ({@code Api-Key} header, {@code actor.account.nrql} query with its
 * variables, answers shaped as NerdGraph's), with the account in the {@code newrelic} Secret of the
 * controller's namespace or the Secret named by {@code profile}.
 */
@ExtendWith(ProviderRuns.KeepOnFailure.class)
class NewRelicProviderE2E {

  static final ObjectMapper JSON = new ObjectMapper();
  static final String API_KEY = "NRAK-4711";

  static TestHttpServer nerdgraph;
  static AnalysisRunFixture fixture;
  static int downPort;

  @BeforeAll
  static void setUp() {
    nerdgraph = TestHttpServer.http();
    nerdgraph.route("/graphql", NewRelicProviderE2E::answer);
    fixture = AnalysisRunFixture.start("newrelic-provider");
    downPort = ControllerProcess.freePort();
    String url = "http://127.0.0.1:" + nerdgraph.port() + "/graphql";
    fixture.secret(
        "newrelic",
        Map.of(
            "personal-api-key",
            API_KEY,
            "account-id",
            "1234",
            "region",
            "eu",
            "base-url-nerdgraph",
            url));
    fixture.secret(
        "nr-revoked",
        Map.of("personal-api-key", "NRAK-old", "account-id", "1234", "base-url-nerdgraph", url));
    fixture.secret(
        "nr-down",
        Map.of(
            "personal-api-key",
            API_KEY,
            "account-id",
            "1234",
            "base-url-nerdgraph",
            "http://127.0.0.1:" + downPort + "/graphql"));
  }

  @AfterAll
  static void tearDown() {
    if (fixture != null) {
      fixture.close(NewRelicProviderE2E.class);
    }
    if (nerdgraph != null) {
      nerdgraph.close();
    }
  }

  static Response answer(Request r) throws Exception {
    if (!API_KEY.equals(r.header("Api-Key"))) {
      return Response.json(401, "{\"error\":{\"title\":\"Invalid API key\"}}");
    }
    String nrql = JSON.readTree(r.body()).at("/variables/query").asText();
    String rows;
    if (nrql.contains("malformed")) {
      return Response.json(200, "{\"data\": {\"actor\"");
    } else if (nrql.contains("syntax")) {
      return Response.json(
          200,
          "{\"data\":{\"actor\":{\"account\":{\"nrql\":null}}},\"errors\":[{\"message\":\"NRQL Syntax Error: Error at line 1\"}]}");
    } else if (nrql.contains("'healthy'")) {
      rows = "[{\"errorRate\":0.01,\"count\":1200}]";
    } else if (nrql.contains("'broken'")) {
      rows = "[{\"errorRate\":0.2,\"count\":900}]";
    } else if (nrql.contains("FACET")) {
      rows = "[{\"appName\":\"a\",\"count\":3},{\"appName\":\"b\",\"count\":4}]";
    } else {
      rows = "[]";
    }
    return Response.json(
        200, "{\"data\":{\"actor\":{\"account\":{\"nrql\":{\"results\":" + rows + "}}}}}");
  }

  static String metric(String name, String condition, String newRelicYaml) {
    return "- name: "
        + name
        + "\n  consecutiveErrorLimit: 0\n  successCondition: \""
        + condition
        + "\"\n"
        + "  provider:\n    newRelic:\n"
        + newRelicYaml.indent(6);
  }

  @Test
  void firstRowIsAMapTheConditionsRead() throws Exception {
    int before = nerdgraph.requests("/graphql").size();
    fixture.create(
        "nr-rows",
        "args:\n- name: app\n  value: healthy\n",
        metric(
                "healthy",
                "result.errorRate < 0.05 && result.count > 100",
                "query: \"SELECT percentage(count(*), WHERE error IS true) AS errorRate, count(*) FROM Transaction"
                    + " WHERE appName = '{{args.app}}'\"\ntimeout: 7")
            + metric(
                "broken",
                "result.errorRate < 0.05",
                "query: \"SELECT count(*) FROM Transaction WHERE appName = 'broken'\"")
            + metric(
                "facets",
                "len(result) == 2 && result[1].count == 4",
                "query: \"SELECT count(*) FROM Transaction FACET appName\""));
    AnalysisRun run = fixture.awaitCompleted("nr-rows");
    assertEquals("Failed", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("Successful", result(run, "healthy").getPhase());
    assertEquals("{\"count\":1200,\"errorRate\":0.01}", last(run, "healthy").getValue());
    assertEquals("Failed", result(run, "broken").getPhase());
    assertEquals("Successful", result(run, "facets").getPhase());
    fixture.awaitMetricType("nr-rows", "healthy", "NewRelic");
    assertEquals(
        "SELECT percentage(count(*), WHERE error IS true) AS errorRate, count(*) FROM Transaction WHERE appName = 'healthy'",
        result(run, "healthy").getMetadata().get("ResolvedNewRelicQuery"));

    List<Request> seen = nerdgraph.requests("/graphql").subList(before, before + 3);
    Request healthy =
        seen.stream().filter(r -> r.body().contains("'healthy'")).findFirst().orElseThrow();
    assertEquals("POST", healthy.method());
    assertEquals("application/json", healthy.header("Content-Type"));
    JsonNode body = JSON.readTree(healthy.body());
    assertTrue(
        body.path("query").asText().contains("nrql(query: $query, timeout: $timeout)"),
        healthy.body());
    assertEquals(1234, body.at("/variables/accountId").asInt());
    assertEquals(7, body.at("/variables/timeout").asInt());
    JsonNode other =
        JSON.readTree(
            seen.stream()
                .filter(r -> r.body().contains("'broken'"))
                .findFirst()
                .orElseThrow()
                .body());
    assertEquals(5, other.at("/variables/timeout").asInt(), "default NRQL timeout");
  }

  @Test
  void rejectedKeyUnreachableServerBrokenBodiesAndNoRowsAreErrors() {
    fixture.create(
        "nr-errors",
        "",
        metric(
                "unauthorized",
                "true",
                "profile: nr-revoked\nquery: \"SELECT 1 FROM Transaction WHERE appName = 'healthy'\"")
            + metric("down", "true", "profile: nr-down\nquery: \"SELECT 1 FROM Transaction\"")
            + metric("malformed", "true", "query: \"SELECT malformed FROM Transaction\"")
            + metric("syntax", "true", "query: \"SELECT syntax\"")
            + metric("empty", "true", "query: \"SELECT count(*) FROM Nothing\"")
            + metric("no-profile", "true", "profile: nr-missing\nquery: \"SELECT 1\""));
    AnalysisRun run = fixture.awaitCompleted("nr-errors");
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals(
        "NerdGraph answered 401: {\"error\":{\"title\":\"Invalid API key\"}}",
        last(run, "unauthorized").getMessage());
    assertEquals(
        "Post \"http://127.0.0.1:"
            + downPort
            + "/graphql\": dial tcp 127.0.0.1:"
            + downPort
            + ": connect: connection refused",
        last(run, "down").getMessage());
    assertTrue(
        last(run, "malformed").getMessage().startsWith("could not parse the NerdGraph response: "),
        last(run, "malformed").getMessage());
    assertEquals(
        "NerdGraph query failed: NRQL Syntax Error: Error at line 1",
        last(run, "syntax").getMessage());
    assertEquals("no results returned from NRQL query", last(run, "empty").getMessage());
    assertEquals("secrets \"nr-missing\" not found", last(run, "no-profile").getMessage());
  }
}
