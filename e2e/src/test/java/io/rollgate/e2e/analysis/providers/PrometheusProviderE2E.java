package io.rollgate.e2e.analysis.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.e2e.support.PrometheusServer;
import io.rollgate.e2e.support.TestExporter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The controller's Prometheus provider against a real Prometheus (the {@code prometheus} binary
 * scraping a test exporter every second), directly and through an HTTPS gateway that demands basic
 * auth or an OAuth2 token.
 */
class PrometheusProviderE2E {

  static final String ERROR_RATE =
      "sum(rate(http_requests_total{service=\"%s\",code=~\"5..\"}[1m])) / sum(rate(http_requests_total{service=\"%s\"}[1m]))";

  static TestExporter exporter;
  static PrometheusServer prometheus;
  static PrometheusGateway gateway;
  static ProviderHarness harness;

  @BeforeAll
  static void setUp() {
    exporter = new TestExporter();
    exporter.setRate("http_requests_total", Map.of("service", "healthy", "code", "200"), 99);
    exporter.setRate("http_requests_total", Map.of("service", "healthy", "code", "500"), 1);
    exporter.setRate("http_requests_total", Map.of("service", "broken", "code", "200"), 50);
    exporter.setRate("http_requests_total", Map.of("service", "broken", "code", "503"), 50);
    exporter.setGauge("rollgate_test_gauge", Map.of("pod", "a"), 1);
    exporter.setGauge("rollgate_test_gauge", Map.of("pod", "b"), 2);
    prometheus = PrometheusServer.start("prometheus-provider", List.of(exporter.target()));
    gateway = new PrometheusGateway(prometheus.address());
    harness = new ProviderHarness(Map.of());
    // rate() over [1m] needs two scrapes of each series; with a 1 s scrape interval that takes a
    // few seconds.
    prometheus.awaitQuery(errorRate("broken"), Duration.ofSeconds(60), r -> r.size() == 1);
    prometheus.awaitQuery(errorRate("healthy"), Duration.ofSeconds(60), r -> r.size() == 1);
  }

  @AfterAll
  static void tearDown() {
    if (harness != null) {
      harness.close();
    }
    if (gateway != null) {
      gateway.close();
    }
    if (prometheus != null) {
      prometheus.close();
    }
    if (exporter != null) {
      exporter.close();
    }
  }

  static String errorRate(String service) {
    return String.format(ERROR_RATE, service, service);
  }

  static String metric(String prometheusYaml) {
    return "name: m\nprovider:\n  prometheus:\n" + prometheusYaml.indent(4);
  }

  static String quoted(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  @Test
  void instantVectorQueryAnswersTheListOfSampleValues() {
    ProviderResult.Value healthy =
        harness
            .measure(
                "prometheus",
                metric(
                    "address: "
                        + prometheus.address()
                        + "\nquery: "
                        + quoted(errorRate("healthy"))))
            .value();
    List<Double> h = ProviderHarness.doubles(healthy.value());
    assertEquals(1, h.size());
    assertEquals(0.01, h.get(0), 0.002);
    assertTrue(healthy.text().matches("\\[0\\.0\\d+]"), healthy.text());
    assertEquals(
        errorRate("healthy"), healthy.metadata().get("metricResult.ResolvedPrometheusQuery"));
    assertFalse(healthy.metadata().containsKey("warnings"));

    ProviderResult.Value broken =
        harness
            .measure(
                "prometheus",
                metric(
                    "address: " + prometheus.address() + "\nquery: " + quoted(errorRate("broken"))))
            .value();
    assertEquals(0.5, ProviderHarness.doubles(broken.value()).get(0), 0.02);
  }

  @Test
  void vectorOfSeveralSeriesKeepsEverySample() {
    ProviderResult.Value v =
        harness
            .measure(
                "prometheus",
                metric("address: " + prometheus.address() + "\nquery: 'sort(rollgate_test_gauge)'"))
            .value();
    assertEquals(List.of(1.0, 2.0), v.value());
    assertEquals("[1,2]", v.text());
  }

  @Test
  void scalarQueryAnswersADouble() {
    ProviderResult.Value v =
        harness
            .measure(
                "prometheus",
                metric(
                    "address: "
                        + prometheus.address()
                        + "\nquery: 'scalar(sum(rollgate_test_gauge))'"))
            .value();
    assertEquals(3.0, v.value());
    assertEquals("3", v.text());
  }

  @Test
  void emptyVectorAnswersAnEmptyList() {
    ProviderResult.Value v =
        harness
            .measure(
                "prometheus",
                metric(
                    "address: "
                        + prometheus.address()
                        + "\nquery: "
                        + quoted(errorRate("no-such-service"))))
            .value();
    assertEquals(List.of(), v.value());
    assertEquals("[]", v.text());
  }

  @Test
  void rangeQueryFlattensTheMatrix() {
    // the series must be older than the 4 s range, so that every step finds a sample
    prometheus.awaitQuery(
        "count_over_time(rollgate_test_gauge{pod=\"b\"}[1m]) >= 6",
        Duration.ofSeconds(60),
        r -> r.size() == 1);
    ProviderResult.Value v =
        harness
            .measure(
                "prometheus",
                metric(
                    "address: "
                        + prometheus.address()
                        + "\nquery: 'rollgate_test_gauge{pod=\"b\"}'"
                        + "\nrangeQuery:\n  start: 'now() - duration(\"4s\")'\n  end: 'now()'\n  step: 1s"))
            .value();
    List<Double> values = ProviderHarness.doubles(v.value());
    assertEquals(5, values.size(), "samples at now-4s, -3s, -2s, -1s, now: " + values);
    assertTrue(values.stream().allMatch(x -> x == 2.0), "samples: " + values);
    assertEquals("[2,2,2,2,2]", v.text());
  }

  @Test
  void rangeQueryFieldsAreChecked() {
    String base = "address: " + prometheus.address() + "\nquery: up\nrangeQuery:\n";
    assertEquals(
        "rangeQuery.step is required",
        harness
            .measure(
                "prometheus", metric(base + "  start: 'now() - duration(\"1m\")'\n  end: 'now()'"))
            .errorMessage());
    assertTrue(
        harness
            .measure(
                "prometheus", metric(base + "  start: '\"yesterday\"'\n  end: 'now()'\n  step: 1s"))
            .errorMessage()
            .startsWith("rangeQuery.start: expected a time"));
  }

  @Test
  void unsupportedResultTypeAndBadQueriesAreErrors() {
    assertEquals(
        "Prometheus metric type not supported",
        harness
            .measure(
                "prometheus", metric("address: " + prometheus.address() + "\nquery: '\"hello\"'"))
            .errorMessage());
    String bad =
        harness
            .measure("prometheus", metric("address: " + prometheus.address() + "\nquery: 'sum(('"))
            .errorMessage();
    assertTrue(bad.startsWith("bad_data: "), bad);
  }

  @Test
  void addressComesFromTheMetricOrTheEnvironment() {
    assertEquals(
        "prometheus address is not configured",
        harness.measure("prometheus", metric("query: up")).errorMessage());
    assertEquals(
        "prometheus address is not is url format",
        harness
            .measure("prometheus", metric("address: prometheus:9090/x\nquery: up"))
            .errorMessage());
    try (ProviderHarness withEnv =
        new ProviderHarness(Map.of("ARGO_ROLLOUTS_PROMETHEUS_ADDRESS", prometheus.address()))) {
      ProviderResult.Value v =
          withEnv
              .measure("prometheus", metric("query: 'scalar(sum(rollgate_test_gauge))'"))
              .value();
      assertEquals(3.0, v.value());
    }
  }

  @Test
  void negativeTimeoutIsAnError() {
    assertEquals(
        "prometheus timeout should not be negative",
        harness
            .measure(
                "prometheus",
                metric("address: " + prometheus.address() + "\nquery: up\ntimeout: -1"))
            .errorMessage());
  }

  @Test
  void basicAuthAndHeadersReachTheServerOverTls() {
    int before = gateway.server.requests("/api/v1/query").size();
    ProviderResult.Value v =
        harness
            .measure(
                "prometheus",
                metric(
                    "address: "
                        + gateway.url("")
                        + "\nquery: 'scalar(sum(rollgate_test_gauge))'\ninsecure: true"
                        + "\nheaders:\n- key: X-Scope-OrgID\n  value: team-a"
                        + "\nauthentication:\n  basicAuth:\n    username: admin\n    password: s3cret"))
            .value();
    assertEquals(3.0, v.value());
    var requests = gateway.server.requests("/api/v1/query");
    var last = requests.get(requests.size() - 1);
    assertTrue(requests.size() > before);
    assertEquals("team-a", last.header("X-Scope-OrgID"));
    assertEquals(PrometheusGateway.BASIC, last.header("Authorization"));
    assertEquals("POST", last.method());
  }

  @Test
  void wrongCredentialsAndUntrustedCertificatesAreErrors() {
    String wrong =
        harness
            .measure(
                "prometheus",
                metric(
                    "address: "
                        + gateway.url("")
                        + "\nquery: up\ninsecure: true"
                        + "\nauthentication:\n  basicAuth:\n    username: admin\n    password: nope"))
            .errorMessage();
    assertEquals("client_error: client error: 401", wrong);
    String tls =
        harness
            .measure(
                "prometheus",
                metric(
                    "address: "
                        + gateway.url("")
                        + "\nquery: up"
                        + "\nauthentication:\n  basicAuth:\n    username: admin\n    password: s3cret"))
            .errorMessage();
    assertTrue(
        tls.startsWith(
            "Post \"" + gateway.url("/api/v1/query") + "\": tls: failed to verify certificate"),
        tls);
  }

  @Test
  void oauth2TokenIsFetchedOnceAndReusedUntilItExpires() {
    String yaml =
        metric(
            "address: "
                + gateway.url("")
                + "\nquery: 'scalar(sum(rollgate_test_gauge))'\ninsecure: true"
                + "\nauthentication:\n  oauth2:\n    tokenUrl: "
                + gateway.url("/oauth/token")
                + "\n    clientId: rollgate\n    clientSecret: client-s3cret\n    scopes: [metrics.read, openid]");
    int before = gateway.tokensIssued.get();
    assertEquals(3.0, harness.measure("prometheus", yaml).value().value());
    assertEquals(3.0, harness.measure("prometheus", yaml).value().value());
    assertEquals(before + 1, gateway.tokensIssued.get());
    var tokenRequests = gateway.server.requests("/oauth/token");
    String body = tokenRequests.get(tokenRequests.size() - 1).body();
    assertTrue(
        body.contains("grant_type=client_credentials")
            && body.contains("scope=metrics.read+openid"),
        body);

    String refused =
        harness
            .measure(
                "prometheus",
                metric(
                    "address: "
                        + gateway.url("")
                        + "\nquery: up\ninsecure: true"
                        + "\nauthentication:\n  oauth2:\n    tokenUrl: "
                        + gateway.url("/oauth/token")
                        + "\n    clientId: rollgate\n    clientSecret: wrong"))
            .errorMessage();
    assertTrue(refused.startsWith("oauth2: cannot fetch token: 401"), refused);
  }

  @Test
  void slowServerTimesOutAfterTheConfiguredSeconds() {
    String[] msg = new String[1];
    Duration took =
        ProviderHarness.elapsed(
            () ->
                msg[0] =
                    harness
                        .measure(
                            "prometheus",
                            metric(
                                "address: "
                                    + gateway.url("/slow")
                                    + "\nquery: up\ninsecure: true\ntimeout: 1"))
                        .errorMessage());
    assertEquals(
        "Post \""
            + gateway.url("/slow/api/v1/query")
            + "\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
        msg[0]);
    assertTrue(took.compareTo(Duration.ofSeconds(15)) < 0, "took " + took);
  }

  @Test
  void warningsGoIntoMeasurementMetadata() {
    ProviderResult.Value v =
        harness
            .measure(
                "prometheus",
                metric("address: " + gateway.url("/warn") + "\nquery: up\ninsecure: true"))
            .value();
    assertEquals(List.of(0.25), v.value());
    assertEquals("query was partially evaluated, a store was slow", v.metadata().get("warnings"));
  }

  @Test
  void sigv4IsRefusedClearly() {
    assertEquals(
        "sigv4 authentication is not supported",
        harness
            .measure(
                "prometheus",
                metric(
                    "address: https://aps-workspaces.eu-west-1.amazonaws.com/workspaces/ws-1\nquery: up"
                        + "\nauthentication:\n  sigv4:\n    region: eu-west-1"))
            .errorMessage());
  }
}
