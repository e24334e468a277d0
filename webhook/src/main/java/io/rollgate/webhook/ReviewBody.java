package io.rollgate.webhook;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * Reads a request body into one byte array, for the AdmissionReview parser, and refuses bodies over a limit.
 *
 * <p>With a {@code Content-Length} (the API server always sends one) the array is allocated once at the exact size
 * and each received chunk is copied into it once; a chunked body grows the array by doubling and is trimmed at the
 * end. A declared length over the limit fails the request with 413 before any byte is buffered; a body that goes over
 * it while streaming fails with 413 as soon as it does, and the rest of it is read and dropped. A connection that fails
 * before the body's end fails the request with its cause. The failures go to the route's failure handler
 * ({@link RoutingContext#fail(int)}), as Vert.x Web's {@code BodyHandler} does.
 */
final class ReviewBody implements Handler<RoutingContext> {

  private static final byte[] EMPTY = new byte[0];
  private static final int FIRST_CHUNKED_CAPACITY = 8192;

  private final long limit;
  private final BiConsumer<RoutingContext, byte[]> next;

  /**
   * Creates the handler.
   *
   * @param limit the largest body accepted, in bytes
   * @param next gets the context and the whole body (empty when the request has none), on the request's event loop
   */
  ReviewBody(long limit, BiConsumer<RoutingContext, byte[]> next) {
    this.limit = limit;
    this.next = next;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    long declared = contentLength(request.getHeader(HttpHeaders.CONTENT_LENGTH));
    if (declared == -2) {
      ctx.fail(400);
      return;
    }
    if (declared > limit) {
      ctx.fail(413);
      return;
    }
    String expect = request.getHeader(HttpHeaders.EXPECT);
    if (expect != null) {
      if (!"100-continue".equalsIgnoreCase(expect)) {
        ctx.fail(417);
        return;
      }
      if (request.version() != HttpVersion.HTTP_1_0) {
        ctx.response().writeContinue();
      }
    }
    if (request.isEnded()) {
      // The router pauses every request until a handler takes its body; an ended one had none.
      next.accept(ctx, EMPTY);
      return;
    }
    Reader reader = new Reader(ctx, declared);
    request.handler(reader);
    request.endHandler(v -> reader.end());
    request.exceptionHandler(reader::fail);
    request.resume();
  }

  /**
   * Parses a {@code Content-Length} value.
   *
   * @return the length in bytes, -1 when absent, -2 when not a non-negative decimal number
   */
  static long contentLength(String value) {
    if (value == null) {
      return -1;
    }
    if (value.isEmpty() || value.length() > 18) {
      return -2;
    }
    long n = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') {
        return -2;
      }
      n = n * 10 + (c - '0');
    }
    return n;
  }

  /** The body of one request, as it arrives. */
  private final class Reader implements Handler<Buffer> {
    private final RoutingContext ctx;
    private byte[] data;
    private int size;
    private boolean failed;

    Reader(RoutingContext ctx, long declared) {
      this.ctx = ctx;
      this.data = declared >= 0 ? new byte[(int) declared] : new byte[(int) Math.min(FIRST_CHUNKED_CAPACITY, limit)];
    }

    @Override
    public void handle(Buffer chunk) {
      if (failed) {
        return;
      }
      int length = chunk.length();
      if (size + (long) length > limit) {
        failed = true;
        data = null;
        ctx.fail(413);
        return;
      }
      if (size + length > data.length) {
        // Only a chunked body (or one longer than its Content-Length, which the HTTP codec does not let through).
        data = Arrays.copyOf(data, (int) Math.min(limit, Math.max((long) data.length * 2, (long) size + length)));
      }
      chunk.getBytes(0, length, data, size);
      size += length;
    }

    /** The connection failed or closed before the body's end: the route's failure handler answers, if it still can. */
    void fail(Throwable cause) {
      if (failed) {
        return;
      }
      failed = true;
      data = null;
      ctx.fail(cause);
    }

    void end() {
      if (failed) {
        return;
      }
      next.accept(ctx, size == data.length ? data : Arrays.copyOf(data, size));
    }
  }
}
