package io.rollgate.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the webhook's Vert.x Web router: {@code POST /validate}, {@code POST /mutate}, and the
 * routes of {@link HealthRouter}.
 *
 * <p>Bad input never reaches the handlers as an exception: a body over the limit is refused with
 * 413 before it is buffered, a body that does not arrive whole within {@link #BODY_DEADLINE_MILLIS}
 * gets 408, a request that would take the bodies being read past their shared memory budget gets
 * 503 ({@link ReviewBody}), an unusable body gets 400, an unknown path 404 and a wrong method 405,
 * each with a Kubernetes {@code Status} explaining why; an unexpected failure while deciding
 * becomes a denied review (the API server would deny anyway, as {@code failurePolicy} is {@code
 * Fail}).
 */
public final class AdmissionRouter {

  /**
   * Default request body limit, in bytes (3 MiB: the API server's own limit for an object is 3 MiB
   * in etcd).
   */
  public static final long DEFAULT_BODY_LIMIT = 3L * 1024 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(AdmissionRouter.class);

  private static final CharSequence APPLICATION_JSON =
      HttpHeaders.createOptimized("application/json");

  /**
   * How long a request body may take to arrive whole, in milliseconds: the API server gives the
   * webhook at most 30 s per call ({@code timeoutSeconds}; the chart sets 10), so a slower body is
   * of no use to it.
   */
  static final long BODY_DEADLINE_MILLIS = 10_000;

  /** The bytes all request bodies being read may hold together, for every router of this JVM. */
  private static final ReviewBody.Budget BODY_BUDGET = ReviewBody.Budget.forHeap();

  private final WebhookMetrics metrics;
  private final long bodyLimit;
  private final long deadlineMillis;

  private AdmissionRouter(WebhookMetrics metrics, long bodyLimit, long deadlineMillis) {
    this.metrics = metrics;
    this.bodyLimit = bodyLimit;
    this.deadlineMillis = deadlineMillis;
  }

  /**
   * Creates the router.
   *
   * @param vertx the Vert.x instance
   * @param metrics the meters
   * @param mutate whether {@code /mutate} patches; when false it allows everything without a patch
   * @param bodyLimit the request body limit, in bytes; larger bodies get 413
   * @param ready whether a serving certificate is loaded (drives {@code /readyz})
   * @return the router
   */
  public static Router create(
      Vertx vertx, WebhookMetrics metrics, boolean mutate, long bodyLimit, BooleanSupplier ready) {
    return create(vertx, metrics, new AdmissionHandler(ClusterView.NONE), mutate, bodyLimit, ready);
  }

  /**
   * Creates the router with decisions that consult the cluster (plugin registry, RolloutPolicies).
   *
   * @param vertx the Vert.x instance
   * @param metrics the meters
   * @param admission the decisions for every checked kind
   * @param mutate whether {@code /mutate} patches; when false it allows everything without a patch
   * @param bodyLimit the request body limit, in bytes; larger bodies get 413
   * @param ready whether a serving certificate is loaded (drives {@code /readyz})
   * @return the router
   */
  public static Router create(
      Vertx vertx,
      WebhookMetrics metrics,
      AdmissionHandler admission,
      boolean mutate,
      long bodyLimit,
      BooleanSupplier ready) {
    return create(
        vertx, metrics, admission, mutate, bodyLimit, BODY_BUDGET, BODY_DEADLINE_MILLIS, ready);
  }

  /**
   * Creates the router with a given budget for the bodies being read and a given body deadline
   * (tests).
   *
   * @param budget the bytes all request bodies being read may hold together; past it a request gets
   *     503
   * @param deadlineMillis how long a body may take to arrive whole, in milliseconds; past it the
   *     request gets 408
   */
  static Router create(
      Vertx vertx,
      WebhookMetrics metrics,
      AdmissionHandler admission,
      boolean mutate,
      long bodyLimit,
      ReviewBody.Budget budget,
      long deadlineMillis,
      BooleanSupplier ready) {
    AdmissionRouter handlers = new AdmissionRouter(metrics, bodyLimit, deadlineMillis);
    Router router = Router.router(vertx);
    router
        .post("/validate")
        .handler(
            new ReviewBody(
                bodyLimit,
                budget,
                deadlineMillis,
                (ctx, body) -> handlers.handle(ctx, body, "validate", admission::validate)))
        .failureHandler(ctx -> handlers.failure(ctx, "validate"));
    Function<AdmissionRequest, AdmissionDecision> mutation =
        mutate
            ? admission::mutate
            : r ->
                new AdmissionDecision(
                    AdmissionReviews.allowed(r.uid(), java.util.List.of()), "ignored", 0);
    router
        .post("/mutate")
        .handler(
            new ReviewBody(
                bodyLimit,
                budget,
                deadlineMillis,
                (ctx, body) -> handlers.handle(ctx, body, "mutate", mutation)))
        .failureHandler(ctx -> handlers.failure(ctx, "mutate"));
    HealthRouter.mount(router, ready, metrics);
    // Answers for paths and methods the webhook does not serve, as Kubernetes Status objects like
    // every other error.
    router.errorHandler(
        404, ctx -> status(ctx, 404, "NotFound", "no such path: " + ctx.request().path()));
    router.errorHandler(
        405,
        ctx ->
            status(
                ctx,
                405,
                "MethodNotAllowed",
                "method " + ctx.request().method() + " not allowed on " + ctx.request().path()));
    return router;
  }

  private void handle(
      RoutingContext ctx,
      byte[] body,
      String endpoint,
      Function<AdmissionRequest, AdmissionDecision> decide) {
    long start = System.nanoTime();
    AdmissionRequest request;
    try {
      request = AdmissionReviews.parse(body);
    } catch (BadReviewException e) {
      metrics.record(endpoint, "", "", "bad_request", System.nanoTime() - start);
      LOG.info("bad request on /{}: {}", endpoint, e.getMessage());
      status(ctx, 400, "BadRequest", e.getMessage());
      return;
    }
    AdmissionDecision decision;
    try {
      decision = decide.apply(request);
    } catch (RuntimeException e) {
      LOG.error(
          "uid={} kind={} ns/name={}/{}: cannot decide",
          request.uid(),
          request.kind(),
          request.namespace(),
          request.name(),
          e);
      decision =
          new AdmissionDecision(
              AdmissionReviews.badObject(request, "internal error while checking the object: " + e),
              "error",
              0);
    }
    if ("denied".equals(decision.verdict())) {
      LOG.info(
          "denied uid={} kind={} ns/name={}/{} causes={}",
          request.uid(),
          request.kind(),
          request.namespace(),
          request.name(),
          decision.causes());
    }
    metrics.record(
        endpoint,
        request.kind(),
        request.operation(),
        decision.verdict(),
        System.nanoTime() - start);
    json(ctx, 200, decision.review());
  }

  private void failure(RoutingContext ctx, String endpoint) {
    int code = ctx.statusCode();
    if (ctx.response().headWritten()) {
      ctx.response().reset();
      return;
    }
    if (code == 413) {
      metrics.record(endpoint, "", "", "too_large", 0);
      status(
          ctx,
          413,
          "RequestEntityTooLarge",
          "request body larger than the limit of " + bodyLimit + " bytes");
    } else if (code == 408) {
      metrics.record(endpoint, "", "", "bad_request", 0);
      status(
          ctx, 408, "Timeout", "request body not received whole within " + deadlineMillis + " ms");
    } else if (code == 417) {
      metrics.record(endpoint, "", "", "bad_request", 0);
      status(ctx, 417, "BadRequest", "only 'Expect: 100-continue' is supported");
    } else if (code == 503) {
      metrics.record(endpoint, "", "", "overloaded", 0);
      status(ctx, 503, "ServiceUnavailable", "too many request bodies being read at once; retry");
    } else if (code >= 400 && code < 500) {
      metrics.record(endpoint, "", "", "bad_request", 0);
      status(ctx, code, "BadRequest", "cannot read the request body");
    } else {
      LOG.warn("/{} failed: {}", endpoint, String.valueOf(ctx.failure()));
      metrics.record(endpoint, "", "", "bad_request", 0);
      status(ctx, 400, "BadRequest", "cannot read the request body");
    }
  }

  private static void status(RoutingContext ctx, int code, String reason, String message) {
    ObjectNode status = AdmissionReviews.mapper().createObjectNode();
    status.put("apiVersion", "v1");
    status.put("kind", "Status");
    status.put("status", "Failure");
    status.put("code", code);
    status.put("reason", reason);
    status.put("message", message);
    json(ctx, code, status);
  }

  private static void json(RoutingContext ctx, int code, ObjectNode body) {
    Buffer bytes;
    try {
      // Straight to UTF-8 bytes: no intermediate String.
      bytes = Buffer.buffer(AdmissionReviews.mapper().writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      // A tree of strings, numbers and booleans always serializes; this would be a bug.
      throw new IllegalStateException("cannot write the answer", e);
    }
    ctx.response()
        .setStatusCode(code)
        .putHeader(HttpHeaders.CONTENT_TYPE, APPLICATION_JSON)
        .end(bytes);
  }
}
