package io.rollgate.webhook;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * Reads a request body into one byte array, for the AdmissionReview parser, and refuses bodies over
 * a limit.
 *
 * <p>Memory follows the bytes that arrived, never what a header promises: the first array holds at
 * most {@link #FIRST_CAPACITY} bytes, or the declared {@code Content-Length} when that is smaller
 * (the usual review fits in one array of its exact size), and it grows by doubling up to the
 * declared length, so a complete body ends in an array of exactly its size. Every array of every
 * request being read counts against one budget shared by the server's event loops; a request that
 * would exceed it is answered 503 at once. A body must arrive whole within a deadline, or the
 * request is answered 408 and its connection closed, so a client that trickles bytes cannot hold
 * memory for long.
 *
 * <p>A declared length over the limit fails the request with 413 before any byte is buffered; a
 * body that goes over it while streaming fails with 413 as soon as it does, and the rest of it is
 * read and dropped. A connection that fails before the body's end fails the request with its cause.
 * The failures go to the route's failure handler ({@link RoutingContext#fail(int)}), as Vert.x
 * Web's {@code BodyHandler} does.
 */
final class ReviewBody implements Handler<RoutingContext> {

  /** Largest first array, in bytes; larger bodies grow their array as bytes arrive. */
  static final int FIRST_CAPACITY = 64 * 1024;

  private static final byte[] EMPTY = new byte[0];

  /**
   * Bytes held by the arrays of the request bodies being read, shared by every {@link ReviewBody}
   * that is given it.
   */
  static final class Budget {
    private final long capacity;
    private final AtomicLong used = new AtomicLong();

    /**
     * Creates a budget.
     *
     * @param capacity the most bytes all bodies being read may hold together
     */
    Budget(long capacity) {
      this.capacity = capacity;
    }

    /**
     * A budget for this JVM: a quarter of its maximum heap, at most 64 MiB.
     *
     * @return the budget
     */
    static Budget forHeap() {
      return new Budget(Math.min(64L * 1024 * 1024, Runtime.getRuntime().maxMemory() / 4));
    }

    boolean reserve(long bytes) {
      while (true) {
        long now = used.get();
        if (now + bytes > capacity) {
          return false;
        }
        if (used.compareAndSet(now, now + bytes)) {
          return true;
        }
      }
    }

    void release(long bytes) {
      used.addAndGet(-bytes);
    }

    /** Bytes held now. */
    long used() {
      return used.get();
    }

    /** The most bytes all bodies may hold together. */
    long capacity() {
      return capacity;
    }
  }

  private final long limit;
  private final Budget budget;
  private final long deadlineMillis;
  private final BiConsumer<RoutingContext, byte[]> next;

  /**
   * Creates the handler.
   *
   * @param limit the largest body accepted, in bytes
   * @param budget the bytes all bodies being read may hold together (shared by the event loops'
   *     routers)
   * @param deadlineMillis how long a body may take to arrive whole after its headers, in
   *     milliseconds
   * @param next gets the context and the whole body (empty when the request has none), on the
   *     request's event loop
   */
  ReviewBody(
      long limit, Budget budget, long deadlineMillis, BiConsumer<RoutingContext, byte[]> next) {
    this.limit = limit;
    this.budget = budget;
    this.deadlineMillis = deadlineMillis;
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
    int first =
        (int)
            (declared >= 0 ? Math.min(declared, FIRST_CAPACITY) : Math.min(FIRST_CAPACITY, limit));
    if (!budget.reserve(first)) {
      // Read the body and drop it, then answer: a connection closed over unread bytes is reset, and
      // a reset can destroy the answer before the client reads it.
      request.handler(dropped -> {});
      request.endHandler(v -> ctx.fail(503));
      request.exceptionHandler(ctx::fail);
      request.resume();
      return;
    }
    Reader reader = new Reader(ctx, declared, first);
    reader.timer = ctx.vertx().setTimer(deadlineMillis, id -> reader.expire());
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
    private final long declared;
    private byte[] data;
    private int size;
    private boolean done;
    long timer;

    Reader(RoutingContext ctx, long declared, int first) {
      this.ctx = ctx;
      this.declared = declared;
      this.data = new byte[first];
    }

    @Override
    public void handle(Buffer chunk) {
      if (done) {
        return;
      }
      int length = chunk.length();
      if (size + (long) length > limit) {
        finish();
        ctx.fail(413);
        return;
      }
      if (size + length > data.length) {
        // Double, up to the declared length (a Content-Length body ends in an array of its exact
        // size) or the limit.
        long ceiling = declared >= 0 ? declared : limit;
        long grown = Math.min(ceiling, Math.max((long) data.length * 2, (long) size + length));
        if (!budget.reserve(grown - data.length)) {
          finish();
          ctx.fail(503);
          return;
        }
        // The budget held the old array's length and now the difference too: the new array's length
        // in all.
        data = Arrays.copyOf(data, (int) grown);
      }
      chunk.getBytes(0, length, data, size);
      size += length;
    }

    /**
     * The body did not arrive whole in time: 408, and the connection is closed so the client stops
     * sending.
     */
    void expire() {
      if (done) {
        return;
      }
      finish();
      ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
      ctx.response().endHandler(v -> ctx.request().connection().close());
      ctx.fail(408);
    }

    /**
     * The connection failed or closed before the body's end: the route's failure handler answers,
     * if it still can.
     */
    void fail(Throwable cause) {
      if (done) {
        return;
      }
      finish();
      ctx.fail(cause);
    }

    void end() {
      if (done) {
        return;
      }
      byte[] body = size == data.length ? data : Arrays.copyOf(data, size);
      finish();
      next.accept(ctx, body);
    }

    /**
     * Stops the deadline and gives the array's bytes back to the budget; later chunks are dropped.
     */
    private void finish() {
      done = true;
      ctx.vertx().cancelTimer(timer);
      budget.release(data.length);
      data = null;
    }
  }
}
