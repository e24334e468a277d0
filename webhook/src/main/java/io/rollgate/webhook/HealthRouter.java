package io.rollgate.webhook;

import io.vertx.ext.web.Router;
import java.util.function.BooleanSupplier;

/** Mounts {@code GET /healthz}, {@code GET /readyz} and {@code GET /metrics} on a router. */
public final class HealthRouter {

  private HealthRouter() {}

  /**
   * Adds the routes.
   *
   * @param router the router
   * @param ready whether a serving certificate is loaded; {@code /readyz} answers 503 until it is
   * @param metrics the meters rendered by {@code /metrics} (Prometheus text format)
   */
  public static void mount(Router router, BooleanSupplier ready, WebhookMetrics metrics) {
    router
        .get("/healthz")
        .handler(ctx -> ctx.response().putHeader("Content-Type", "text/plain").end("ok"));
    router
        .get("/readyz")
        .handler(
            ctx -> {
              boolean ok = ready.getAsBoolean();
              ctx.response()
                  .setStatusCode(ok ? 200 : 503)
                  .putHeader("Content-Type", "text/plain")
                  .end(ok ? "ok" : "no serving certificate loaded");
            });
    router
        .get("/metrics")
        .handler(
            ctx ->
                ctx.response()
                    .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                    .end(metrics.scrape()));
  }
}
