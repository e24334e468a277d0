package io.rollgate.webhook;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rollgate.kube.ApiCallMetrics;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The webhook's meters, exposed in Prometheus text format on {@code GET /metrics}.
 *
 * <p>{@code rollgate_webhook_requests_seconds} (count, sum, max, and histogram buckets from 0.25 ms
 * to 1 s) tagged with {@code endpoint} ({@code validate} or {@code mutate}), {@code kind} (the
 * object's kind, {@code unknown} for unreadable bodies, {@code other} past {@link #MAX_SERIES}
 * series), {@code operation} and {@code verdict} ({@code allowed}, {@code warned}, {@code denied},
 * {@code patched}, {@code ignored}, {@code bad_request}, {@code too_large}, {@code overloaded},
 * {@code error}).
 *
 * <p>The webhook's own API-server calls: {@code rollgate_webhook_kube_requests_total} by {@code
 * verb}, {@code resource} and {@code status_code}, and {@code
 * rollgate_webhook_kube_throttle_seconds}, the time calls waited for the client-side rate limiter.
 */
public final class WebhookMetrics implements ApiCallMetrics {

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  /**
   * Most series kept apart. Kind and operation come from request bodies, which any client that
   * reaches the port can make up; past this many tag combinations, new ones are counted as kind and
   * operation {@code other}, so such traffic cannot grow the registry without bound.
   */
  static final int MAX_SERIES = 500;

  /** The timers by tags. */
  private final Map<Series, Timer> timers = new ConcurrentHashMap<>();

  /**
   * Histogram buckets of the handling time ({@code _bucket} series, {@code le} in seconds): around
   * the API server's budget for a webhook call, so {@code histogram_quantile} can tell a 1 ms
   * answer from a 10 ms one.
   */
  private static final Duration[] BUCKETS = {
    Duration.ofNanos(250_000),
    Duration.ofNanos(500_000),
    Duration.ofMillis(1),
    Duration.ofMillis(2),
    Duration.ofMillis(5),
    Duration.ofMillis(10),
    Duration.ofMillis(50),
    Duration.ofMillis(250),
    Duration.ofSeconds(1)
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
    // The timer of a tag combination is built once: building and registering it for every request
    // would cost more garbage than the rest of a small review's bookkeeping.
    Series series = new Series(endpoint, kind, operation, verdict);
    Timer timer = timers.get(series);
    if (timer == null) {
      if (timers.size() >= MAX_SERIES) {
        series = new Series(endpoint, "other", "other", verdict);
      }
      timer = timers.computeIfAbsent(series, this::timer);
    }
    timer.record(nanos, TimeUnit.NANOSECONDS);
  }

  private Timer timer(Series s) {
    return Timer.builder("rollgate.webhook.requests")
        .description("AdmissionReview requests handled, by endpoint, kind, operation and verdict")
        .tag("endpoint", s.endpoint())
        .tag("kind", s.kind().isEmpty() ? "unknown" : s.kind())
        .tag("operation", s.operation().isEmpty() ? "unknown" : s.operation())
        .tag("verdict", s.verdict())
        .serviceLevelObjectives(BUCKETS)
        .register(registry);
  }

  private final Timer throttle =
      Timer.builder("rollgate.webhook.kube.throttle")
          .description("Time API-server calls waited for the client-side rate limiter")
          .register(registry);

  /**
   * Counts one API-server request of the webhook ({@code rollgate_webhook_kube_requests_total}).
   *
   * @param verb {@code get}, {@code list}, {@code create}, {@code patch} or {@code apply}
   * @param resource the resource, for example {@code secrets} or {@code rolloutpolicies/status}
   * @param statusCode the HTTP status, or {@code timeout}, {@code refused} or {@code error}
   */
  @Override
  public void apiRequest(String verb, String resource, String statusCode) {
    Counter.builder("rollgate.webhook.kube.requests")
        .description("API-server requests of the webhook, by verb, resource and status code")
        .tags("verb", verb, "resource", resource, "status_code", statusCode)
        .register(registry)
        .increment();
  }

  /**
   * Records the time one API-server call waited for the rate limiter ({@code
   * rollgate_webhook_kube_throttle_seconds}).
   *
   * @param nanos the wait, in nanoseconds
   */
  @Override
  public void throttled(long nanos) {
    throttle.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** The tags of one series, as given to {@link #record}. */
  private record Series(String endpoint, String kind, String operation, String verdict) {}

  /**
   * Renders every meter in the Prometheus text exposition format.
   *
   * @return the exposition text
   */
  public String scrape() {
    return registry.scrape();
  }
}
