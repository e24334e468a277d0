package io.rollgate.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The request timer's series as scraped. */
class WebhookMetricsTest {

  private static long countLines(String text, String... parts) {
    return text.lines()
        .filter(l -> l.startsWith("rollgate_webhook_requests_seconds_count{"))
        .filter(l -> java.util.Arrays.stream(parts).allMatch(l::contains))
        .count();
  }

  @Test
  void repeatedRequestsAddUpInOneSeries() {
    WebhookMetrics metrics = new WebhookMetrics();
    for (int i = 0; i < 3; i++) {
      metrics.record("validate", "Rollout", "CREATE", "allowed", 1_000_000);
    }
    metrics.record("validate", "", "", "bad_request", 0);
    String text = metrics.scrape();
    assertEquals(1, countLines(text, "kind=\"Rollout\"", "verdict=\"allowed\""), text);
    assertTrue(
        text.lines()
            .anyMatch(
                l ->
                    l.startsWith("rollgate_webhook_requests_seconds_count{")
                        && l.contains("Rollout")
                        && l.endsWith(" 3")),
        text);
    assertEquals(
        1,
        countLines(text, "kind=\"unknown\"", "operation=\"unknown\"", "verdict=\"bad_request\""),
        text);
  }

  @Test
  void madeUpKindsCannotGrowTheRegistryWithoutBound() {
    WebhookMetrics metrics = new WebhookMetrics();
    int sent = WebhookMetrics.MAX_SERIES + 200;
    for (int i = 0; i < sent; i++) {
      metrics.record("validate", "Kind" + i, "CREATE", "ignored", 1000);
    }
    String text = metrics.scrape();
    assertEquals(
        WebhookMetrics.MAX_SERIES + 1,
        countLines(text),
        "series kept apart, plus one for the rest");
    assertTrue(
        text.lines()
            .anyMatch(
                l ->
                    l.startsWith("rollgate_webhook_requests_seconds_count{")
                        && l.contains("kind=\"other\"")
                        && l.contains("operation=\"other\"")
                        && l.endsWith(" 200")),
        text);
  }
}
