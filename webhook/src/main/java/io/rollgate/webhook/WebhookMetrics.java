package io.rollgate.webhook;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The webhook's meters, exposed in Prometheus text format on {@code GET /metrics}.
 *
 * <p>{@code rollgate_webhook_requests_seconds} (count, sum, max, and histogram buckets from 0.25 ms to 1 s) tagged with {@code endpoint} ({@code validate} or
 * {@code mutate}), {@code kind} (the object's kind, {@code unknown} for unreadable bodies), {@code operation} and
 * {@code verdict} ({@code allowed}, {@code warned}, {@code denied}, {@code patched}, {@code ignored},
 * {@code bad_request}, {@code too_large}, {@code error}).
 */
public final class WebhookMetrics {

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  /**
   * Histogram buckets of the handling time ({@code _bucket} series, {@code le} in seconds): around the API server's
   * budget for a webhook call, so {@code histogram_quantile} can tell a 1 ms answer from a 10 ms one.
   */
  private static final Duration[] BUCKETS = {
    Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2),
    Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(250), Duration.ofSeconds(1)
  };

  /**
   * Records one admission request.
   *
   * @param endpoint {@code validate} or {@code mutate}
   * @param kind the object's kind
   * @param operation the operation ({@code CREATE}, ...)
   * @param verdict the verdict
   * @param nanos the handling time, in nanoseconds
   */
  public void record(String endpoint, String kind, String operation, String verdict, long nanos) {
    Timer.builder("rollgate.webhook.requests")
        .description("AdmissionReview requests handled, by endpoint, kind, operation and verdict")
        .tag("endpoint", endpoint)
        .tag("kind", kind.isEmpty() ? "unknown" : kind)
        .tag("operation", operation.isEmpty() ? "unknown" : operation)
        .tag("verdict", verdict)
        .serviceLevelObjectives(BUCKETS)
        .register(registry)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Renders every meter in the Prometheus text exposition format.
   *
   * @return the exposition text
   */
  public String scrape() {
    return registry.scrape();
  }
}
