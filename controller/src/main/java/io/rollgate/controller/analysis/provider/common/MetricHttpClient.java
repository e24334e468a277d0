package io.rollgate.controller.analysis.provider.common;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * The HTTP client shared by the metric providers: two Vert.x {@link WebClient}s on the controller's
 * {@link Vertx}, one that verifies server certificates and one for {@code insecure: true} (trust
 * any certificate, no host-name check, as Argo's {@code InsecureSkipVerify}). Every call has a
 * total timeout and fails with a Go-style message naming the method and URL ({@code Get
 * "https://...": context deadline exceeded ...}), so measurement messages read like Argo's.
 */
public final class MetricHttpClient {

  /** One outgoing request. Header values may be secrets: they never appear in failure messages. */
  public record Call(
      HttpMethod method,
      String url,
      List<Map.Entry<String, String>> headers,
      Buffer body,
      MultiMap form,
      boolean insecure,
      Duration timeout) {}

  private final Vertx vertx;
  private final WebClient verifying;
  private final WebClient insecure;

  /**
   * Creates the clients.
   *
   * @param vertx the controller's Vert.x instance
   */
  public MetricHttpClient(Vertx vertx) {
    this.vertx = vertx;
    this.verifying = WebClient.create(vertx, options().setVerifyHost(true));
    this.insecure = WebClient.create(vertx, options().setTrustAll(true).setVerifyHost(false));
  }

  private static WebClientOptions options() {
    WebClientOptions o = new WebClientOptions();
    o.setUserAgent("rollgate-controller");
    o.setFollowRedirects(true);
    o.setKeepAlive(true);
    return o;
  }

  /** The Vert.x instance the clients run on (its timers serve the providers' timeouts). */
  public Vertx vertx() {
    return vertx;
  }

  /**
   * Sends a request and completes with the whole response, whatever its status code.
   *
   * @param call the request; {@code timeout} bounds connect, send and receive together
   * @return the response, or a failure whose message is Go-like: {@code <Method> "<url>":
   *     <reason>}, with {@code context deadline exceeded (Client.Timeout exceeded while awaiting
   *     headers)} as the timeout reason
   */
  public Future<HttpResponse<Buffer>> send(Call call) {
    String prefix = goMethod(call.method()) + " \"" + call.url() + "\": ";
    HttpRequest<Buffer> request;
    try {
      request = (call.insecure() ? insecure : verifying).requestAbs(call.method(), call.url());
    } catch (RuntimeException e) {
      return Future.failedFuture(new MetricProviderException(prefix + e.getMessage()));
    }
    long millis = Math.max(1, call.timeout().toMillis());
    request.connectTimeout(millis).idleTimeout(millis);
    for (Map.Entry<String, String> h : call.headers()) {
      request.putHeader(h.getKey(), h.getValue());
    }
    Future<HttpResponse<Buffer>> sent;
    if (call.form() != null) {
      sent = request.sendForm(call.form());
    } else if (call.body() != null) {
      sent = request.sendBuffer(call.body());
    } else {
      sent = request.send();
    }
    return sent.timeout(millis, TimeUnit.MILLISECONDS)
        .recover(
            e ->
                Future.failedFuture(
                    new MetricProviderException(prefix + reason(e, call.url()), e)));
  }

  private static String reason(Throwable e, String url) {
    if (e instanceof TimeoutException || e.getClass().getSimpleName().contains("Timeout")) {
      return "context deadline exceeded (Client.Timeout exceeded while awaiting headers)";
    }
    if (e instanceof SSLException || e.getCause() instanceof SSLException) {
      String m = rootMessage(e);
      if (m.contains("unable to find valid certification path")) {
        m = "x509: certificate signed by unknown authority";
      }
      return "tls: failed to verify certificate: " + m;
    }
    if (e instanceof ConnectException) {
      String m = rootMessage(e);
      if (m.startsWith("Connection refused")) {
        return "dial tcp " + hostPort(url) + ": connect: connection refused";
      }
      return "dial tcp " + hostPort(url) + ": " + m;
    }
    if (e instanceof UnknownHostException) {
      return "dial tcp: lookup " + e.getMessage() + ": no such host";
    }
    return rootMessage(e);
  }

  private static String hostPort(String url) {
    try {
      java.net.URI uri = new java.net.URI(url);
      int port =
          uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
      return uri.getHost() + ":" + port;
    } catch (java.net.URISyntaxException ex) {
      return url;
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage();
    return m == null ? t.getClass().getSimpleName() : m;
  }

  /** The longest response excerpt a measurement message quotes, in characters. */
  public static final int EXCERPT_LIMIT = 512;

  /**
   * A response's body as text.
   *
   * @param response the response
   * @return the body decoded as UTF-8; empty when there is none
   */
  public static String bodyText(HttpResponse<Buffer> response) {
    return response.body() == null ? "" : response.body().toString();
  }

  /**
   * The part of a response body a measurement message may quote: trimmed and cut at {@link
   * #EXCERPT_LIMIT} characters, so that an HTML error page does not end up whole in the
   * AnalysisRun's status.
   *
   * @param body the body
   * @return the excerpt, ending with {@code ...} when cut
   */
  public static String excerpt(String body) {
    String t = body.strip();
    return t.length() <= EXCERPT_LIMIT ? t : t.substring(0, EXCERPT_LIMIT) + "...";
  }

  /**
   * Go's spelling of an HTTP method in client errors ({@code Get}, {@code Post}, {@code Put}).
   *
   * @param method the method
   * @return the capitalised name
   */
  public static String goMethod(HttpMethod method) {
    String n = method.name();
    return n.charAt(0) + n.substring(1).toLowerCase(java.util.Locale.ROOT);
  }

  /** Closes both clients. */
  public void close() {
    verifying.close();
    insecure.close();
  }
}
