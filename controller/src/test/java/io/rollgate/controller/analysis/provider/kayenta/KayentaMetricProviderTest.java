package io.rollgate.controller.analysis.provider.kayenta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KayentaMetricProviderTest {

  static final ObjectMapper JSON = new ObjectMapper();
  static final Instant NOW = Instant.parse("2024-05-01T12:00:00.750Z");
  static final Instant RUN_START = Instant.parse("2024-05-01T11:00:00Z");
  static final KayentaConfig.Threshold THRESHOLD = new KayentaConfig.Threshold(90, 70);

  static KayentaConfig config(boolean lookback, String start, String end) {
    return new KayentaConfig(
        "http://k",
        "app",
        "cfg",
        "metrics",
        "configs",
        "store",
        THRESHOLD,
        List.of(
            new KayentaConfig.Scope(
                "default",
                new KayentaConfig.ScopeDetail("app=stable", "us", 60, start, end),
                new KayentaConfig.ScopeDetail("app=canary", "us", 60, start, end))),
        lookback);
  }

  @Test
  void scopesWithoutTimesCoverTheLastIntervalOrTheRun() {
    assertEquals(
        "{\"scopes\":{\"default\":{\"controlScope\":{\"scope\":\"app=stable\",\"location\":\"us\",\"step\":60,"
            + "\"start\":\"2024-05-01T11:55:00Z\",\"end\":\"2024-05-01T12:00:00Z\"},\"experimentScope\":{\"scope\":"
            + "\"app=canary\",\"location\":\"us\",\"step\":60,\"start\":\"2024-05-01T11:55:00Z\","
            + "\"end\":\"2024-05-01T12:00:00Z\"}}},\"thresholds\":{\"pass\":90,\"marginal\":70}}",
        KayentaMetricProvider.judgementRequest(config(false, null, null), RUN_START, NOW, "5m")
            .toString());
    assertEquals(
        "2024-05-01T11:00:00Z",
        KayentaMetricProvider.judgementRequest(config(true, null, null), RUN_START, NOW, null)
            .path("scopes")
            .path("default")
            .path("controlScope")
            .path("start")
            .asText());
    assertEquals(
        "2020-01-01T00:00:00Z",
        KayentaMetricProvider.judgementRequest(
                config(false, "2020-01-01T00:00:00Z", "2020-01-01T01:00:00Z"), RUN_START, NOW, null)
            .path("scopes")
            .path("default")
            .path("experimentScope")
            .path("start")
            .asText());
  }

  @Test
  void urlsNameTheAccounts() {
    assertEquals(
        "http://k/canaryConfig?application=app&configurationAccountName=configs",
        KayentaMetricProvider.configListUrl("http://k", config(false, null, null)));
    assertEquals(
        "http://k/canary/id%201?application=app&metricsAccountName=metrics&configurationAccountName=configs"
            + "&storageAccountName=store",
        KayentaMetricProvider.startUrl("http://k", "id 1", config(false, null, null)));
  }

  @Test
  void findsTheConfigIdByName() throws Exception {
    assertEquals(
        "c-2",
        KayentaMetricProvider.configId(
            JSON.readTree("[{\"id\":\"c-1\",\"name\":\"x\"},{\"id\":\"c-2\",\"name\":\"cfg\"}]"),
            "cfg"));
    assertEquals(
        "Canary config not found: cfg",
        assertThrows(
                MetricProviderException.class,
                () -> KayentaMetricProvider.configId(JSON.readTree("[]"), "cfg"))
            .getMessage());
  }

  @Test
  void scoreDecidesThePhase() throws Exception {
    Map<String, String> md = Map.of("canaryExecutionId", "e1");
    assertEquals(
        new ProviderResult.Running(NOW.plusSeconds(15), md),
        KayentaMetricProvider.judgement(JSON.readTree("{\"complete\":false}"), THRESHOLD, NOW, md));
    assertEquals(new ProviderResult.Verdict("Successful", null, md, "95"), judge(95.4, md));
    assertEquals(new ProviderResult.Verdict("Successful", null, md, "90"), judge(90, md));
    assertEquals(new ProviderResult.Verdict("Inconclusive", null, md, "70"), judge(70, md));
    assertEquals(new ProviderResult.Verdict("Failed", null, md, "69"), judge(69.9, md));
    assertEquals(
        "Missing Score",
        assertThrows(
                MetricProviderException.class,
                () ->
                    KayentaMetricProvider.judgement(
                        JSON.readTree("{\"complete\":true}"), THRESHOLD, NOW, md))
            .getMessage());
    assertEquals(
        "Missing Complete Status",
        assertThrows(
                MetricProviderException.class,
                () -> KayentaMetricProvider.judgement(JSON.readTree("{}"), THRESHOLD, NOW, md))
            .getMessage());
  }

  static ProviderResult judge(double score, Map<String, String> md) throws Exception {
    return KayentaMetricProvider.judgement(
        JSON.readTree(
            "{\"complete\":true,\"result\":{\"judgeResult\":{\"score\":{\"score\":"
                + score
                + "}}}}"),
        THRESHOLD,
        NOW,
        md);
  }
}
