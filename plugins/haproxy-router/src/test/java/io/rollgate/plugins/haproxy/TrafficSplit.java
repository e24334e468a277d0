package io.rollgate.plugins.haproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.awaitility.Awaitility;

/**
 * Observes how a load balancer splits traffic, the way a user checks it: real HTTP requests, one
 * answer body per backend ({@code stable}, {@code canary}, ...), counted.
 */
public final class TrafficSplit {

  /** Requests in the sample a split is asserted on. */
  public static final int REQUESTS = 200;

  /** Requests per sample while waiting for the balancer to settle. */
  public static final int SETTLE_REQUESTS = 100;

  /**
   * Round-robin is exact over whole cycles; 5 points leave room for a cycle cut at the end of a
   * sample.
   */
  public static final double TOLERANCE_PERCENT = 5.0;

  /** HTTP/1.1 only: an h2c upgrade would turn the client connection into a tunnel to one server. */
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private TrafficSplit() {}

  /**
   * Sends requests and counts the answers per body.
   *
   * @param url the frontend URL
   * @param requests how many requests
   * @return answer body to count
   */
  public static Map<String, Integer> observe(String url, int requests)
      throws IOException, InterruptedException {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (int i = 0; i < requests; i++) {
      HttpResponse<String> r =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), "answer through " + url + ": " + r.body());
      counts.merge(r.body(), 1, Integer::sum);
    }
    return counts;
  }

  /**
   * Describes how a sample misses the expected split.
   *
   * @return null when every backend is within {@link #TOLERANCE_PERCENT} of its share, else what is
   *     off
   */
  public static String offShare(
      Map<String, Integer> counts, int requests, Map<String, Integer> expectedPercent) {
    for (Map.Entry<String, Integer> e : expectedPercent.entrySet()) {
      double observed = 100.0 * counts.getOrDefault(e.getKey(), 0) / requests;
      if (Math.abs(observed - e.getValue()) > TOLERANCE_PERCENT) {
        return e.getKey()
            + ": observed "
            + observed
            + "% of "
            + requests
            + " requests, expected "
            + e.getValue()
            + "% ("
            + counts
            + ")";
      }
    }
    int total = counts.values().stream().mapToInt(Integer::intValue).sum();
    int expected = expectedPercent.keySet().stream().mapToInt(k -> counts.getOrDefault(k, 0)).sum();
    return expected == total ? null : "answers from other backends: " + counts;
  }

  /**
   * Waits (bounded, 60 s) until HAProxy's round-robin has settled on new weights (after a weight
   * change it may take a few hundred requests, HAProxy's documentation says), then checks the split
   * of {@link #REQUESTS} more requests.
   *
   * @param url the frontend URL
   * @param expectedPercent answer body to its expected share, percent
   */
  public static void assertSplit(String url, Map<String, Integer> expectedPercent)
      throws Exception {
    Awaitility.await("split " + expectedPercent + " through " + url)
        .atMost(Duration.ofSeconds(60))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .until(
            () ->
                offShare(observe(url, SETTLE_REQUESTS), SETTLE_REQUESTS, expectedPercent) == null);
    String off = offShare(observe(url, REQUESTS), REQUESTS, expectedPercent);
    assertTrue(off == null, off);
  }
}
