package io.rollgate.e2e.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small HTTP or HTTPS server on a free loopback port whose answers a test programs per path,
 * standing in for the external systems behind a metric provider (a web metric endpoint, an OAuth2
 * token endpoint, a gateway in front of Prometheus). Every request is recorded. A handler that
 * returns {@code null} never answers, so a client's timeout can be observed without any sleeping
 * thread; such exchanges are closed when the server stops.
 */
public final class TestHttpServer implements AutoCloseable {

  /** One received request; header names are case-insensitive. */
  public record Request(
      String method, String path, String query, Map<String, List<String>> headers, String body) {

    /**
     * Returns the first value of a header.
     *
     * @param name the header name (any case)
     * @return the value, or null when absent
     */
    public String header(String name) {
      List<String> values = headers.get(name);
      return values == null || values.isEmpty() ? null : values.get(0);
    }
  }

  /** An answer: status code, Content-Type and body. */
  public record Response(int status, String contentType, String body) {

    /**
     * A JSON answer.
     *
     * @param status the HTTP status code
     * @param json the JSON text
     * @return the response
     */
    public static Response json(int status, String json) {
      return new Response(status, "application/json", json);
    }

    /**
     * A plain-text answer.
     *
     * @param status the HTTP status code
     * @param text the body
     * @return the response
     */
    public static Response text(int status, String text) {
      return new Response(status, "text/plain; charset=utf-8", text);
    }
  }

  /** Answers one request; {@code null} means never answer. */
  @FunctionalInterface
  public interface Handler {
    /**
     * Answers a request.
     *
     * @param request the request
     * @return the response, or null to leave the client waiting
     * @throws Exception any failure, answered with HTTP 500
     */
    Response handle(Request request) throws Exception;
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final boolean tls;
  private final Map<String, Handler> routes = new ConcurrentHashMap<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final List<HttpExchange> pending = new CopyOnWriteArrayList<>();

  private TestHttpServer(boolean tls) {
    this.tls = tls;
    try {
      InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
      if (tls) {
        HttpsServer https = HttpsServer.create(address, 0);
        https.setHttpsConfigurator(
            new HttpsConfigurator(TestCertificates.selfSignedServerContext()));
        server = https;
      } else {
        server = HttpServer.create(address, 0);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    executor =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "test-http-" + (tls ? "tls" : "plain"));
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    server.createContext("/", this::dispatch);
    server.start();
  }

  /**
   * Starts an HTTPS server with a fresh self-signed certificate for 127.0.0.1 and localhost.
   *
   * @return the running server
   */
  public static TestHttpServer https() {
    return new TestHttpServer(true);
  }

  /**
   * Starts a plain HTTP server.
   *
   * @return the running server
   */
  public static TestHttpServer http() {
    return new TestHttpServer(false);
  }

  /**
   * Sets the handler of an exact path (without query).
   *
   * @param path the path, e.g. {@code /metrics}
   * @param handler the handler
   * @return this server
   */
  public TestHttpServer route(String path, Handler handler) {
    routes.put(path, handler);
    return this;
  }

  /**
   * The URL of a path on this server, e.g. {@code https://127.0.0.1:40123/status}.
   *
   * @param path the path, starting with {@code /}
   * @return the URL
   */
  public String url(String path) {
    return (tls ? "https" : "http") + "://127.0.0.1:" + port() + path;
  }

  /** The bound port. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** The address {@code 127.0.0.1:port}, as a Prometheus scrape target. */
  public String hostPort() {
    return "127.0.0.1:" + port();
  }

  /**
   * The requests received on a path so far, oldest first.
   *
   * @param path the path
   * @return the requests
   */
  public List<Request> requests(String path) {
    List<Request> out = new ArrayList<>();
    for (Request r : requests) {
      if (r.path().equals(path)) {
        out.add(r);
      }
    }
    return out;
  }

  private void dispatch(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, List.copyOf(v)));
    Request request =
        new Request(
            exchange.getRequestMethod(),
            exchange.getRequestURI().getPath(),
            exchange.getRequestURI().getRawQuery(),
            headers,
            body);
    requests.add(request);
    Handler handler = routes.get(request.path());
    Response response;
    if (handler == null) {
      response = Response.text(404, "no route for " + request.path());
    } else {
      try {
        response = handler.handle(request);
      } catch (Exception e) {
        response = Response.text(500, String.valueOf(e));
      }
    }
    if (response == null) {
      pending.add(exchange);
      return;
    }
    byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", response.contentType());
    exchange.sendResponseHeaders(response.status(), bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }

  /** Stops the server and closes the requests left unanswered. */
  @Override
  public void close() {
    for (HttpExchange e : pending) {
      e.close();
    }
    server.stop(0);
    executor.shutdownNow();
  }
}
