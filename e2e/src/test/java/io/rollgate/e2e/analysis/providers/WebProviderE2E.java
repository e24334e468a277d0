package io.rollgate.e2e.analysis.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.Metric;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.TestHttpServer;
import io.rollgate.e2e.support.TestHttpServer.Request;
import io.rollgate.e2e.support.TestHttpServer.Response;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The controller's web provider against a local HTTPS server with a self-signed certificate. */
class WebProviderE2E {

  static final String BODY =
      "{\"data\":{\"ok\":true,\"successPercent\":99.5,\"name\":\"web<1>\",\"count\":3},"
          + "\"items\":[{\"name\":\"a\",\"v\":1,\"status\":\"ok\"},{\"name\":\"b\",\"v\":2,\"status\":\"bad\"}]}";

  static TestHttpServer server;
  static ProviderHarness harness;
  static final AtomicInteger tokens = new AtomicInteger();

  @BeforeAll
  static void setUp() {
    server = TestHttpServer.https();
    server.route("/status", r -> Response.json(200, BODY));
    server.route("/text", r -> Response.text(200, "all good"));
    server.route("/unavailable", r -> Response.json(503, "{\"error\":\"down\"}"));
    server.route("/hang", r -> null);
    server.route(
        "/echo",
        r ->
            Response.json(
                200, "{\"method\":\"" + r.method() + "\",\"length\":" + r.body().length() + "}"));
    server.route("/secured", WebProviderE2E::secured);
    server.route(
        "/token",
        r ->
            Response.json(
                200,
                "{\"access_token\":\"web-tok-"
                    + tokens.incrementAndGet()
                    + "\",\"expires_in\":600}"));
    harness = new ProviderHarness(Map.of());
  }

  static Response secured(Request r) {
    String auth = r.header("Authorization");
    return auth != null && auth.startsWith("Bearer web-tok-")
        ? Response.json(200, "{\"ok\":true}")
        : Response.json(401, "{}");
  }

  @AfterAll
  static void tearDown() {
    if (harness != null) {
      harness.close();
    }
    if (server != null) {
      server.close();
    }
  }

  static String web(String yaml) {
    return "name: m\nprovider:\n  web:\n" + yaml.indent(4);
  }

  static ProviderResult.Value value(String yaml) {
    return harness.measure("web", web(yaml)).value();
  }

  static String error(String yaml) {
    return harness.measure("web", web(yaml)).errorMessage();
  }

  @Test
  void jsonPathSelectsTheValueTheConditionsSee() {
    ProviderResult.Value ok =
        value("url: " + server.url("/status") + "\ninsecure: true\njsonPath: '{$.data.ok}'");
    assertEquals(Boolean.TRUE, ok.value());
    assertEquals("true", ok.text());

    ProviderResult.Value percent =
        value(
            "url: "
                + server.url("/status")
                + "\ninsecure: true\njsonPath: '{$.data.successPercent}'");
    assertEquals(99.5, percent.value());
    assertEquals("99.5", percent.text());

    ProviderResult.Value count =
        value("url: " + server.url("/status") + "\ninsecure: true\njsonPath: '{.data.count}'");
    assertEquals(3.0, count.value());
    assertEquals("3", count.text());

    ProviderResult.Value name =
        value("url: " + server.url("/status") + "\ninsecure: true\njsonPath: '{$.data.name}'");
    assertEquals("web<1>", name.value());
    assertEquals("\"web\\u003c1\\u003e\"", name.text());

    ProviderResult.Value first =
        value(
            "url: "
                + server.url("/status")
                + "\ninsecure: true\njsonPath: \"{$.items[0]['name']}\"");
    assertEquals("a", first.value());
  }

  @Test
  void wildcardsAndFiltersSelectALists() {
    ProviderResult.Value all =
        value("url: " + server.url("/status") + "\ninsecure: true\njsonPath: '{$.items[*].v}'");
    assertEquals(List.of(1.0, 2.0), all.value());
    assertEquals("[1,2]", all.text());
    ProviderResult.Value ok =
        value(
            "url: "
                + server.url("/status")
                + "\ninsecure: true\njsonPath: '{$.items[?(@.status == \"ok\")].name}'");
    assertEquals(List.of("a"), ok.value());
  }

  @Test
  void withoutJsonPathTheWholeDocumentIsTheValue() {
    ProviderResult.Value v = value("url: " + server.url("/status") + "\ninsecure: true");
    assertTrue(v.value() instanceof Map<?, ?>);
    assertEquals(
        "{\"data\":{\"count\":3,\"name\":\"web\\u003c1\\u003e\",\"ok\":true,\"successPercent\":99.5},"
            + "\"items\":[{\"name\":\"a\",\"status\":\"ok\",\"v\":1},{\"name\":\"b\",\"status\":\"bad\",\"v\":2}]}",
        v.text());
  }

  @Test
  void nonJsonBodyIsTheRawString() {
    ProviderResult.Value v = value("url: " + server.url("/text") + "\ninsecure: true");
    assertEquals("all good", v.value());
    assertEquals("all good", v.text());
  }

  @Test
  void non2xxAnswersAndMissingPathsAreErrors() {
    assertEquals(
        "received non 2xx response code: 503",
        error("url: " + server.url("/unavailable") + "\ninsecure: true\njsonPath: '{$.error}'"));
    assertEquals(
        "Could not find JSONPath in body: missing is not found",
        error("url: " + server.url("/status") + "\ninsecure: true\njsonPath: '{$.data.missing}'"));
    assertEquals(
        "Could not find JSONPath in body: {$.items[?(@.v > 5)]} selected no value",
        error(
            "url: "
                + server.url("/status")
                + "\ninsecure: true\njsonPath: '{$.items[?(@.v > 5)]}'"));
  }

  @Test
  void hangingServerTimesOutAfterTimeoutSeconds() {
    String[] msg = new String[1];
    Duration took =
        ProviderHarness.elapsed(
            () ->
                msg[0] =
                    error("url: " + server.url("/hang") + "\ninsecure: true\ntimeoutSeconds: 1"));
    assertEquals(
        "Get \""
            + server.url("/hang")
            + "\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
        msg[0]);
    assertTrue(took.compareTo(Duration.ofSeconds(8)) < 0, "took " + took);
  }

  @Test
  void unreachableServerIsAnError() {
    int port = ControllerProcess.freePort();
    String url = "http://127.0.0.1:" + port + "/status";
    assertEquals(
        "Get \"" + url + "\": dial tcp 127.0.0.1:" + port + ": connect: connection refused",
        error("url: " + url));
  }

  @Test
  void untrustedCertificateIsAnErrorUnlessInsecure() {
    String tls = error("url: " + server.url("/status"));
    assertEquals(
        "Get \""
            + server.url("/status")
            + "\": tls: failed to verify certificate: x509: certificate signed by unknown authority",
        tls);
  }

  @Test
  void postsJsonBodyAndPutsStringBodyWithHeaders() {
    int before = server.requests("/echo").size();
    ProviderResult.Value post =
        value(
            "url: "
                + server.url("/echo")
                + "\ninsecure: true\nmethod: POST\njsonPath: '{$.method}'"
                + "\nheaders:\n- key: X-Team\n  value: checkout"
                + "\njsonBody:\n  service: checkout\n  window: 5m");
    assertEquals("POST", post.value());
    Request seen = server.requests("/echo").get(before);
    assertEquals("application/json", seen.header("Content-Type"));
    assertEquals("checkout", seen.header("X-Team"));
    assertEquals("{\"service\":\"checkout\",\"window\":\"5m\"}", seen.body());

    ProviderResult.Value put =
        value(
            "url: "
                + server.url("/echo")
                + "\ninsecure: true\nmethod: PUT\nbody: 'plain payload'\njsonPath: '{$.length}'");
    assertEquals(13.0, put.value());
    assertEquals("plain payload", server.requests("/echo").get(before + 1).body());
  }

  @Test
  void invalidSettingsAreErrorsNamingTheProblem() {
    assertEquals(
        "Body can only be used with POST or PUT WebMetric Method types",
        error("url: " + server.url("/echo") + "\nbody: x"));
    assertEquals(
        "use either Body or JSONBody; both cannot exists for WebMetric payload",
        error("url: " + server.url("/echo") + "\nmethod: POST\nbody: x\njsonBody: {a: 1}"));
    assertTrue(
        error("url: " + server.url("/echo") + "\nmethod: DELETE")
            .contains("\"DELETE\" is not supported"));
    assertTrue(
        error("url: " + server.url("/echo") + "\njsonPath: '{$.a'").startsWith("jsonPath {$.a"));
  }

  @Test
  void oauth2AddsABearerToken() {
    ProviderResult.Value v =
        value(
            "url: "
                + server.url("/secured")
                + "\ninsecure: true\njsonPath: '{$.ok}'"
                + "\nauthentication:\n  oauth2:\n    tokenUrl: "
                + server.url("/token")
                + "\n    clientId: c\n    clientSecret: s");
    assertEquals(Boolean.TRUE, v.value());
    assertTrue(
        server
            .requests("/secured")
            .get(server.requests("/secured").size() - 1)
            .header("Authorization")
            .startsWith("Bearer web-tok-"));
  }

  @Test
  void secretValuesAreMaskedInMessages() {
    Metric metric =
        ProviderHarness.metric(
            web(
                "url: "
                    + server.url("/unavailable")
                    + "?token=t0psecret\ninsecure: true\ntimeoutSeconds: 1"));
    String msg = harness.measure("web", metric, Set.of("t0psecret")).errorMessage();
    assertEquals("received non 2xx response code: 503", msg);
    metric =
        ProviderHarness.metric(
            web(
                "url: "
                    + server.url("/hang")
                    + "?token=t0psecret\ninsecure: true\ntimeoutSeconds: 1"));
    msg = harness.measure("web", metric, Set.of("t0psecret")).errorMessage();
    assertTrue(msg.contains("token=*****") && !msg.contains("t0psecret"), msg);
  }
}
