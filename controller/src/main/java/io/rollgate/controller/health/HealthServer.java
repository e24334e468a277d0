package io.rollgate.controller.health;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Serves the probes on the health port ({@code --healthzPort}, default 8080, as Argo Rollouts).
 *
 * <ul>
 *   <li>{@code GET /healthz} (liveness): 200 when the controller's event loop runs a task within
 *       {@link #LIVENESS_TIMEOUT_MILLIS} and the controller has not failed fatally; 503 otherwise.
 *   <li>{@code GET /readyz} (readiness): 200 once every informer has synced, 503 before; the body
 *       says whether this process is the {@code leader} or a {@code standby} (a synced standby is
 *       ready: it can take over at once).
 * </ul>
 */
public final class HealthServer {

  /**
   * How long, in milliseconds, the controller's event loop may take to answer the liveness ping.
   */
  public static final long LIVENESS_TIMEOUT_MILLIS = 5_000;

  private final Vertx vertx;
  private final Context controllerContext;
  private final BooleanSupplier synced;
  private final BooleanSupplier healthy;
  private final Supplier<String> role;
  private HttpServer server;

  /**
   * Creates the server (nothing listens until {@link #listen(int)}).
   *
   * @param vertx the Vert.x instance
   * @param controllerContext the context the work queue runs on; liveness pings it
   * @param synced whether every informer has synced
   * @param healthy false once the controller failed fatally (lost informer, lost leadership)
   * @param role {@code leader} or {@code standby}, for the readiness body
   */
  public HealthServer(
      Vertx vertx,
      Context controllerContext,
      BooleanSupplier synced,
      BooleanSupplier healthy,
      Supplier<String> role) {
    this.vertx = vertx;
    this.controllerContext = controllerContext;
    this.synced = synced;
    this.healthy = healthy;
    this.role = role;
  }

  /**
   * Starts listening on all addresses.
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
    switch (req.path()) {
      case "/healthz" -> liveness(req);
      case "/readyz" -> {
        boolean ready = synced.getAsBoolean() && healthy.getAsBoolean();
        req.response()
            .setStatusCode(ready ? 200 : 503)
            .putHeader("Content-Type", "text/plain; charset=utf-8")
            .end((ready ? "ok" : "informers not synced") + " role=" + role.get() + "\n");
      }
      default -> req.response().setStatusCode(404).end("not found\n");
    }
  }

  private void liveness(HttpServerRequest req) {
    Promise<Void> ping = Promise.promise();
    controllerContext.runOnContext(v -> ping.tryComplete());
    ping.future()
        .timeout(LIVENESS_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
        .onComplete(
            ar -> {
              boolean ok = ar.succeeded() && healthy.getAsBoolean();
              req.response()
                  .setStatusCode(ok ? 200 : 503)
                  .putHeader("Content-Type", "text/plain; charset=utf-8")
                  .end(
                      ok
                          ? "ok\n"
                          : ar.failed() ? "event loop unresponsive\n" : "controller failed\n");
            });
  }
}
