package io.rollgate.controller.analysis.provider.newrelic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NewRelicMetricProviderTest {

  @Test
  void accountComesFromTheProfileSecret() {
    assertEquals(
        new NewRelicMetricProvider.Account("k", 42, "https://api.newrelic.com/graphql"),
        NewRelicMetricProvider.account(
            "newrelic", Map.of("personal-api-key", "k", "account-id", "42")));
    assertEquals(
        "https://api.eu.newrelic.com/graphql",
        NewRelicMetricProvider.account(
                "p", Map.of("personal-api-key", "k", "account-id", "1", "region", "EU"))
            .endpoint());
    assertEquals(
        "http://nr.local/graphql",
        NewRelicMetricProvider.account(
                "p",
                Map.of(
                    "personal-api-key",
                    "k",
                    "account-id",
                    "1",
                    "region",
                    "eu",
                    "base-url-nerdgraph",
                    "http://nr.local/graphql"))
            .endpoint());
  }

  @Test
  void incompleteProfilesAreErrors() {
    assertEquals(
        "account ID or personal API key not found",
        assertThrows(
                MetricProviderException.class,
                () -> NewRelicMetricProvider.account("p", Map.of("account-id", "1")))
            .getMessage());
    assertEquals(
        "could not parse account ID: \"abc\" is not a number",
        assertThrows(
                MetricProviderException.class,
                () ->
                    NewRelicMetricProvider.account(
                        "p", Map.of("personal-api-key", "k", "account-id", "abc")))
            .getMessage());
    assertEquals(
        "secret \"p\": region \"mars\" is not one of us, eu, staging",
        assertThrows(
                MetricProviderException.class,
                () ->
                    NewRelicMetricProvider.account(
                        "p", Map.of("personal-api-key", "k", "account-id", "1", "region", "mars")))
            .getMessage());
  }

  @Test
  void sendsTheNrqlAsAGraphQlVariable() {
    String body = NewRelicMetricProvider.body(42, "SELECT count(*) FROM Transaction", 5).toString();
    assertEquals(
        "{\"query\":\""
            + NewRelicMetricProvider.GRAPHQL
            + "\",\"variables\":{\"accountId\":42,"
            + "\"query\":\"SELECT count(*) FROM Transaction\",\"timeout\":5}}",
        body.replace("\\\"", "\""));
  }

  @Test
  void oneRowIsAMapAndSeveralAList() {
    ProviderResult.Value one =
        NewRelicMetricProvider.parse(
            200,
            "{\"data\":{\"actor\":{\"account\":{\"nrql\":{\"results\":[{\"count\":10,\"rate\":0.5}]}}}}}",
            "q");
    assertEquals(Map.of("count", 10.0, "rate", 0.5), one.value());
    assertEquals("{\"count\":10,\"rate\":0.5}", one.text());
    assertEquals(Map.of("metricResult.ResolvedNewRelicQuery", "q"), one.metadata());
    ProviderResult.Value many =
        NewRelicMetricProvider.parse(
            200,
            "{\"data\":{\"actor\":{\"account\":{\"nrql\":{\"results\":[{\"a\":1},{\"a\":2}]}}}}}",
            "q");
    assertEquals(List.of(Map.of("a", 1.0), Map.of("a", 2.0)), many.value());
  }

  @Test
  void emptyResultsAndGraphQlErrorsAreErrors() {
    assertEquals(
        "no results returned from NRQL query",
        assertThrows(
                MetricProviderException.class,
                () ->
                    NewRelicMetricProvider.parse(
                        200,
                        "{\"data\":{\"actor\":{\"account\":{\"nrql\":{\"results\":[]}}}}}",
                        "q"))
            .getMessage());
    assertEquals(
        "NerdGraph query failed: NRQL Syntax Error, other",
        assertThrows(
                MetricProviderException.class,
                () ->
                    NewRelicMetricProvider.parse(
                        200,
                        "{\"errors\":[{\"message\":\"NRQL Syntax Error\"},{\"message\":\"other\"}]}",
                        "q"))
            .getMessage());
    assertEquals(
        "NerdGraph answered 401: {\"error\":\"unauthorized\"}",
        assertThrows(
                MetricProviderException.class,
                () -> NewRelicMetricProvider.parse(401, "{\"error\":\"unauthorized\"}", "q"))
            .getMessage());
  }
}
