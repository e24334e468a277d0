package io.rollgate.e2e.analysis.providers;

import static io.rollgate.e2e.analysis.providers.AnalysisRunFixture.last;
import static io.rollgate.e2e.analysis.providers.AnalysisRunFixture.params;
import static io.rollgate.e2e.analysis.providers.AnalysisRunFixture.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Measurement;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.TestHttpServer;
import io.rollgate.e2e.support.TestHttpServer.Request;
import io.rollgate.e2e.support.TestHttpServer.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * AnalysisRuns measured by the controller's Kayenta provider against a local stand-in of Kayenta's
 * REST API: the canary config list, the start of a judgement (scopes and thresholds in the body)
 * and the execution status, which reports the judgement incomplete on its first poll, so the
 * measurement is resumed after its {@code resumeAt}.
 */
@ExtendWith(ProviderRuns.KeepOnFailure.class)
class KayentaProviderE2E {

  static final ObjectMapper JSON = new ObjectMapper();
  static final Map<String, Integer> SCORES = Map.of("good", 95, "marginal", 80, "bad", 42);

  static TestHttpServer kayenta;
  static AnalysisRunFixture fixture;
  static int downPort;
  static final Map<String, AtomicInteger> POLLS = new ConcurrentHashMap<>();

  @BeforeAll
  static void setUp() {
    kayenta = TestHttpServer.http();
    kayenta.route("/canaryConfig", KayentaProviderE2E::configs);
    kayenta.route("/canary/cfg-checkout", KayentaProviderE2E::start);
    for (String app : List.of("good", "marginal", "bad", "garbled")) {
      kayenta.route("/canary/exec-" + app, r -> status(app));
    }
    downPort = ControllerProcess.freePort();
    fixture = AnalysisRunFixture.start("kayenta-provider");
    // Its judgement takes two polls 15 s apart: started here, it runs alongside the other tests.
    fixture.create(
        "kayenta-no-score",
        "",
        metric("judgement", "http://127.0.0.1:" + kayenta.port(), "garbled"));
  }

  @AfterAll
  static void tearDown() {
    if (fixture != null) {
      fixture.close(KayentaProviderE2E.class);
    }
    if (kayenta != null) {
      kayenta.close();
    }
  }

  static Response configs(Request r) {
    if ("locked".equals(params(r.query()).get("application"))) {
      return Response.json(401, "{\"error\":\"Unauthorized\"}");
    }
    return Response.json(
        200,
        "[{\"id\":\"cfg-other\",\"name\":\"other\",\"applications\":[\"x\"]},"
            + "{\"id\":\"cfg-checkout\",\"name\":\"checkout\",\"applications\":[\"good\"]}]");
  }

  static Response start(Request r) {
    String app = params(r.query()).get("application");
    if ("broken".equals(app)) {
      return Response.json(200, "{\"canaryExecutionId\":");
    }
    return Response.json(200, "{\"canaryExecutionId\":\"exec-" + app + "\"}");
  }

  static Response status(String app) {
    if (POLLS.computeIfAbsent(app, a -> new AtomicInteger()).incrementAndGet() == 1) {
      return Response.json(200, "{\"complete\":false,\"status\":\"running\"}");
    }
    if (app.equals("garbled")) {
      return Response.json(200, "{\"complete\":true,\"result\":{}}");
    }
    return Response.json(
        200,
        "{\"complete\":true,\"status\":\"succeeded\",\"result\":{\"judgeResult\":{\"score\":{\"score\":"
            + SCORES.get(app)
            + ".0,\"classification\":\"x\"}}}}");
  }

  static String metric(String name, String address, String application) {
    return "- name: "
        + name
        + "\n  interval: 5m\n  count: 1\n  consecutiveErrorLimit: 0\n"
        + "  provider:\n    kayenta:\n"
        + "      address: "
        + address
        + "\n"
        + "      application: "
        + application
        + "\n"
        + "      canaryConfigName: checkout\n"
        + "      metricsAccountName: prometheus-account\n"
        + "      configurationAccountName: config-store\n"
        + "      storageAccountName: result-store\n"
        + "      threshold: {pass: 90, marginal: 75}\n"
        + "      scopes:\n"
        + "      - name: default\n"
        + "        controlScope: {scope: 'app=checkout-stable', region: eu-west-1, step: 60}\n"
        + "        experimentScope: {scope: 'app=checkout-canary', region: eu-west-1, step: 60}\n";
  }

  @Test
  void scoreOfTheFinishedJudgementDecides() throws Exception {
    String address = "http://127.0.0.1:" + kayenta.port();
    fixture.create("kayenta-good", "", metric("judgement", address, "good"));
    fixture.create("kayenta-marginal", "", metric("judgement", address, "marginal"));
    fixture.create("kayenta-bad", "", metric("judgement", address, "bad"));

    AnalysisRun good = fixture.awaitCompleted("kayenta-good");
    Measurement m = last(good, "judgement");
    assertEquals("Successful", good.getStatus().getPhase(), () -> String.valueOf(good.getStatus()));
    assertEquals("95", m.getValue());
    assertEquals("exec-good", m.getMetadata().get("canaryExecutionId"));
    assertEquals(2, POLLS.get("good").get(), "polled until complete");
    fixture.awaitMetricType("kayenta-good", "judgement", "Kayenta");
    assertTrue(
        Duration.between(Instant.parse(m.getStartedAt()), Instant.parse(m.getFinishedAt()))
                .toSeconds()
            >= 25,
        m.getStartedAt() + " .. " + m.getFinishedAt());

    AnalysisRun marginal = fixture.awaitCompleted("kayenta-marginal");
    assertEquals(
        "Inconclusive",
        marginal.getStatus().getPhase(),
        () -> String.valueOf(marginal.getStatus()));
    assertEquals("80", last(marginal, "judgement").getValue());
    AnalysisRun bad = fixture.awaitCompleted("kayenta-bad");
    assertEquals("Failed", bad.getStatus().getPhase(), () -> String.valueOf(bad.getStatus()));
    assertEquals("42", last(bad, "judgement").getValue());
    assertEquals("Failed", result(bad, "judgement").getPhase());

    Request lookup =
        kayenta.requests("/canaryConfig").stream()
            .filter(r -> r.query().contains("application=good"))
            .findFirst()
            .orElseThrow();
    assertEquals(
        Map.of("application", "good", "configurationAccountName", "config-store"),
        params(lookup.query()));
    Request started =
        kayenta.requests("/canary/cfg-checkout").stream()
            .filter(r -> r.query().contains("application=good"))
            .findFirst()
            .orElseThrow();
    assertEquals("POST", started.method());
    assertEquals("application/json", started.header("Content-Type"));
    assertEquals(
        Map.of(
            "application", "good",
            "metricsAccountName", "prometheus-account",
            "configurationAccountName", "config-store",
            "storageAccountName", "result-store"),
        params(started.query()));
    JsonNode body = JSON.readTree(started.body());
    assertEquals(JSON.readTree("{\"pass\":90,\"marginal\":75}"), body.path("thresholds"));
    JsonNode control = body.at("/scopes/default/controlScope");
    assertEquals("app=checkout-stable", control.path("scope").asText());
    assertEquals("eu-west-1", control.path("location").asText());
    assertEquals(60, control.path("step").asInt());
    assertEquals("app=checkout-canary", body.at("/scopes/default/experimentScope/scope").asText());
    Instant from = Instant.parse(control.path("start").asText());
    Instant to = Instant.parse(control.path("end").asText());
    assertEquals(
        Duration.ofMinutes(5),
        Duration.between(from, to),
        "one interval back from the measurement");
    assertEquals(control.path("start"), body.at("/scopes/default/experimentScope/start"));
  }

  @Test
  void unauthorizedUnreachableBrokenAnswersAndUnknownConfigsAreErrors() {
    String address = "http://127.0.0.1:" + kayenta.port();
    String down = "http://127.0.0.1:" + downPort;
    fixture.create(
        "kayenta-errors",
        "",
        metric("unauthorized", address, "locked")
            + metric("down", down, "good")
            + metric("malformed", address, "broken")
            + metric("unknown-config", address, "good")
                .replace("canaryConfigName: checkout", "canaryConfigName: nope"));
    AnalysisRun run = fixture.awaitCompleted("kayenta-errors");
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals(
        "Invalid Response: HTTP 401 {\"error\":\"Unauthorized\"}",
        last(run, "unauthorized").getMessage());
    assertEquals(
        "Get \""
            + down
            + "/canaryConfig?application=good&configurationAccountName=config-store\": dial tcp 127.0.0.1:"
            + downPort
            + ": connect: connection refused",
        last(run, "down").getMessage());
    assertTrue(
        last(run, "malformed").getMessage().startsWith("Invalid Response: "),
        last(run, "malformed").getMessage());
    assertEquals("Canary config not found: nope", last(run, "unknown-config").getMessage());
  }

  @Test
  void completedJudgementWithoutAScoreIsAnError() {
    AnalysisRun run = fixture.awaitCompleted("kayenta-no-score");
    assertEquals("Error", run.getStatus().getPhase(), () -> String.valueOf(run.getStatus()));
    assertEquals("Missing Score", last(run, "judgement").getMessage());
    assertEquals(
        "Metric \"judgement\" assessed Error due to consecutiveErrors (1) > consecutiveErrorLimit (0): "
            + "\"Error Message: Missing Score\"",
        run.getStatus().getMessage());
  }
}
