package io.rollgate.e2e.analysis.providers;

import static io.rollgate.e2e.analysis.providers.AnalysisRunFixture.last;
import static io.rollgate.e2e.analysis.providers.AnalysisRunFixture.params;
import static io.rollgate.e2e.analysis.providers.AnalysisRunFixture.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Measurement;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.TestHttpServer;
import io.rollgate.e2e.support.TestHttpServer.Request;
import io.rollgate.e2e.support.TestHttpServer.Response;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * AnalysisRuns measured by the controller's Wavefront provider against a local stand-in of
 * Wavefront's chart API ({@code GET /api/v2/chart/api}, bearer token, time series answers), with
 * the tokens in the {@code wavefront-api-tokens} Secret of the controller's namespace. The stand-in
 * is plain HTTP, so the metrics give their {@code address} as a URL; the token is the one stored
 * under the URL's host.
 */
@ExtendWith(ProviderRuns.KeepOnFailure.class)
class WavefrontProviderE2E {

  static final String TOKEN = "wf-token-4711";

  static TestHttpServer wavefront;
  static AnalysisRunFixture fixture;
  static int downPort;

  @BeforeAll
  static void setUp() {
    wavefront = TestHttpServer.http();
    wavefront.route("/api/v2/chart/api", WavefrontProviderE2E::answer);
    downPort = ControllerProcess.freePort();
    fixture = AnalysisRunFixture.start("wavefront-provider");
    fixture.secret(
        "wavefront-api-tokens",
        Map.of("127.0.0.1", TOKEN, "localhost", "wf-revoked", "127.0.0.2", TOKEN));
  }

  @AfterAll
  static void tearDown() {
    if (fixture != null) {
      fixture.close(WavefrontProviderE2E.class);
    }
    if (wavefront != null) {
      wavefront.close();
    }
  }

  static Response answer(Request r) {
    if (!("Bearer " + TOKEN).equals(r.header("Authorization"))) {
      return Response.json(
          401, "{\"status\":{\"result\":\"ERROR\",\"message\":\"401 Unauthorized\",\"code\":401}}");
    }
    Map<String, String> p = params(r.query());
    String q = p.get("q");
    if (q.contains("malformed")) {
      return Response.json(200, "{\"timeseries\": [");
    }
    long at = Long.parseLong(p.get("s")) / 1000;
    String series;
    if (q.contains("checkout")) {
      series =
          "[{\"label\":\"errors\",\"host\":\"checkout\",\"data\":[["
              + (at - 60)
              + ",0.5],["
              + (at - 2)
              + ",0.012]]}]";
    } else if (q.contains("payments")) {
      series = "[{\"label\":\"errors\",\"data\":[[" + (at - 1) + ",0.31]]}]";
    } else {
      series = "[]";
    }
    return Response.json(
        200,
        "{\"name\":\""
            + q
            + "\",\"query\":\""
            + q
            + "\",\"granularity\":1,\"warnings\":\"partial data\","
            + "\"timeseries\":"
            + series
            + "}");
  }

  static String metric(String name, String address, String query) {
    return "- name: "
        + name
        + "\n  consecutiveErrorLimit: 0\n  successCondition: 'result < 0.05'\n"
        + "  provider:\n    wavefront:\n      address: '"
        + address
        + "'\n      query: '"
        + query
        + "'\n";
  }

  @Test
  void pointClosestToTheMeasurementDecides() {
    int before = wavefront.requests("/api/v2/chart/api").size();
    String address = "http://127.0.0.1:" + wavefront.port();
    fixture.create(
        "wf-errors-rate",
        "",
        metric("checkout", address, "sum(rate(ts(errors, service=checkout)))")
            + metric("payments", address, "sum(rate(ts(errors, service=payments)))"));
    AnalysisRun run = fixture.awaitCompleted("wf-errors-rate");
    assertEquals("Failed", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    Measurement checkout = last(run, "checkout");
    assertEquals("Successful", checkout.getPhase());
    assertEquals("0.01", checkout.getValue());
    assertEquals("partial data", checkout.getMetadata().get("warnings"));
    assertEquals("-2", checkout.getMetadata().get("drift"));
    assertEquals("Failed", result(run, "payments").getPhase());
    assertEquals("0.31", last(run, "payments").getValue());
    fixture.awaitMetricType("wf-errors-rate", "checkout", "Wavefront");

    Request seen =
        wavefront.requests("/api/v2/chart/api").subList(before, before + 2).stream()
            .filter(r -> r.query().contains("checkout"))
            .findFirst()
            .orElseThrow();
    assertEquals("GET", seen.method());
    Map<String, String> p = params(seen.query());
    assertEquals("sum(rate(ts(errors, service=checkout)))", p.get("q"));
    assertEquals(p.get("s"), p.get("e"));
    assertEquals("s", p.get("g"));
    assertEquals("1", p.get("p"));
    assertEquals("true", p.get("i"));
    Instant started = Instant.parse(checkout.getStartedAt());
    long at = Long.parseLong(p.get("s")) / 1000;
    assertTrue(Math.abs(at - started.getEpochSecond()) <= 2, at + " vs " + started);
    assertEquals(String.valueOf(at - 2), checkout.getMetadata().get("timestamps"));
  }

  @Test
  void rejectedTokenUnreachableServerBrokenBodiesAndNoSeriesAreErrors() {
    String address = "http://127.0.0.1:" + wavefront.port();
    fixture.create(
        "wf-errors",
        "",
        metric(
                "unauthorized",
                "http://localhost:" + wavefront.port(),
                "ts(errors, service=checkout)")
            + metric("down", "http://127.0.0.2:" + downPort, "ts(errors)")
            + metric("malformed", address, "ts(malformed)")
            + metric("no-series", address, "ts(nothing)")
            + metric("no-token", "http://127.0.0.3:" + downPort, "ts(errors)"));
    AnalysisRun run = fixture.awaitCompleted("wf-errors");
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals(
        "server returned 401: {\"status\":{\"result\":\"ERROR\",\"message\":\"401 Unauthorized\",\"code\":401}}",
        last(run, "unauthorized").getMessage());
    assertTrue(
        last(run, "down")
            .getMessage()
            .startsWith(
                "Get \"http://127.0.0.2:" + downPort + "/api/v2/chart/api?q=ts%28errors%29"),
        last(run, "down").getMessage());
    assertTrue(
        last(run, "down")
            .getMessage()
            .endsWith("\": dial tcp 127.0.0.2:" + downPort + ": connect: connection refused"),
        last(run, "down").getMessage());
    assertTrue(
        last(run, "malformed").getMessage().startsWith("could not parse the Wavefront response: "),
        last(run, "malformed").getMessage());
    assertEquals(
        "No TimeSeries found in response from Wavefront", last(run, "no-series").getMessage());
    assertEquals("API token not found", last(run, "no-token").getMessage());
  }
}
