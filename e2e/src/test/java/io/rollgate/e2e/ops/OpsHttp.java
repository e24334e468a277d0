package io.rollgate.e2e.ops;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Plain HTTP GETs against a controller's metrics and health ports. */
final class OpsHttp {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** A response: status code (or -1 when nothing answered) and body. */
  record Response(int status, String body) {}

  private OpsHttp() {}

  static Response get(int port, String path) {
    try {
      HttpResponse<String> r =
          CLIENT.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.body());
    } catch (IOException e) {
      return new Response(-1, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Response(-1, e.toString());
    }
  }

  /**
   * The value of the one sample whose line starts with {@code prefix} (metric name and labels), or
   * null.
   */
  static Double sample(String exposition, String prefix) {
    for (String line : exposition.split("\n")) {
      if (line.startsWith(prefix + " ")) {
        return Double.valueOf(line.substring(prefix.length() + 1).trim());
      }
    }
    return null;
  }
}
