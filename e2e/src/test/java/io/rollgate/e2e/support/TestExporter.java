package io.rollgate.e2e.support;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * A Prometheus exporter served from the test JVM ({@code GET /metrics}, text exposition format
 * 0.0.4) whose series the test controls: counters that grow at a chosen rate per second (so {@code
 * rate(x[1m])} answers that rate) and gauges with a chosen value. A series is dropped again with
 * {@link #remove}.
 */
public final class TestExporter implements AutoCloseable {

  private record Counter(double base, double perSecond, long sinceNanos) {
    double valueAt(long nanos) {
      return base + perSecond * (nanos - sinceNanos) / 1e9;
    }
  }

  private final TestHttpServer server = TestHttpServer.http();
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private final Map<String, Double> gauges = new ConcurrentHashMap<>();

  /** Starts the exporter on a free loopback port. */
  public TestExporter() {
    server.route("/metrics", r -> TestHttpServer.Response.text(200, render()));
  }

  /** The scrape target {@code 127.0.0.1:port}. */
  public String target() {
    return server.hostPort();
  }

  /**
   * Makes a counter grow at a rate from now on, keeping the value it has reached.
   *
   * @param name the metric name, e.g. {@code http_requests_total}
   * @param labels its labels
   * @param perSecond the increase per second
   */
  public synchronized void setRate(String name, Map<String, String> labels, double perSecond) {
    String key = seriesKey(name, labels);
    long now = System.nanoTime();
    Counter old = counters.get(key);
    double base = old == null ? 0 : old.valueAt(now);
    counters.put(key, new Counter(base, perSecond, now));
  }

  /**
   * Sets a gauge.
   *
   * @param name the metric name
   * @param labels its labels
   * @param value the value
   */
  public void setGauge(String name, Map<String, String> labels, double value) {
    gauges.put(seriesKey(name, labels), value);
  }

  /**
   * Stops exporting a series (counter or gauge).
   *
   * @param name the metric name
   * @param labels its labels
   */
  public synchronized void remove(String name, Map<String, String> labels) {
    String key = seriesKey(name, labels);
    counters.remove(key);
    gauges.remove(key);
  }

  private static String seriesKey(String name, Map<String, String> labels) {
    if (labels.isEmpty()) {
      return name;
    }
    return name
        + new TreeMap<>(labels)
            .entrySet().stream()
                .map(
                    e ->
                        e.getKey()
                            + "=\""
                            + e.getValue().replace("\\", "\\\\").replace("\"", "\\\"")
                            + "\"")
                .collect(Collectors.joining(",", "{", "}"));
  }

  private synchronized String render() {
    long now = System.nanoTime();
    StringBuilder out = new StringBuilder();
    new TreeMap<>(counters)
        .forEach((k, c) -> out.append(k).append(' ').append(c.valueAt(now)).append('\n'));
    new TreeMap<>(gauges).forEach((k, v) -> out.append(k).append(' ').append(v).append('\n'));
    return out.toString();
  }

  @Override
  public void close() {
    server.close();
  }
}
