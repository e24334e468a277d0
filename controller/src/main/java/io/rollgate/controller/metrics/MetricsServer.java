package io.rollgate.controller.metrics;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;

/**
 * Serves {@code GET /metrics} on the metrics port ({@code --metricsport}, default 8090, as Argo
 * Rollouts), listening on all addresses. Rendering walks the informer cache, so it runs on a worker
 * thread, never on the event loop.
 */
public final class MetricsServer {

  /** Content type of the Prometheus text format 0.0.4. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final Vertx vertx;
  private final ControllerMetrics metrics;
  private HttpServer server;

  /**
   * Creates the server (nothing listens until {@link #listen(int)}).
   *
   * @param vertx the Vert.x instance
   * @param metrics the meters to expose
   */
  public MetricsServer(Vertx vertx, ControllerMetrics metrics) {
    this.vertx = vertx;
    this.metrics = metrics;
  }

  /**
   * Starts listening.
   *
   * @param port the TCP port
   * @return a Future with the bound port, failed when the port cannot be bound
   */
  public Future<Integer> listen(int port) {
    server = vertx.createHttpServer().requestHandler(this::handle);
    return server.listen(port, "0.0.0.0").map(HttpServer::actualPort);
  }

  /**
   * Stops listening.
   *
   * @return a Future completing when closed
   */
  public Future<Void> close() {
    return server == null ? Future.succeededFuture() : server.close();
  }

  private void handle(HttpServerRequest req) {
    if (!"/metrics".equals(req.path())) {
      req.response().setStatusCode(404).end("not found\n");
      return;
    }
    if (req.method() != HttpMethod.GET && req.method() != HttpMethod.HEAD) {
      req.response().setStatusCode(405).end();
      return;
    }
    vertx
        .executeBlocking(metrics::scrape, false)
        .onSuccess(body -> req.response().putHeader("Content-Type", CONTENT_TYPE).end(body))
        .onFailure(
            err ->
                req.response().setStatusCode(500).end("scrape failed: " + err.getMessage() + "\n"));
  }
}
