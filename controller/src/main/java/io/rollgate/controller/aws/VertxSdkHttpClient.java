package io.rollgate.controller.aws;

import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.http.SdkHttpFullResponse;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.async.AsyncExecuteRequest;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;
import software.amazon.awssdk.http.async.SdkAsyncHttpResponseHandler;

/**
 * The AWS SDK's asynchronous HTTP transport, implemented on the controller's Vert.x HTTP client
 * ({@link MetricHttpClient}), so that SDK calls never block a thread while they wait for AWS: the
 * request body is gathered from the SDK's publisher, sent with a total timeout, and the whole
 * response is handed back as one buffer (CloudWatch and ELBv2 answers are small). Used by the
 * CloudWatch provider and the ALB target-group verification instead of the SDK's own Netty client.
 */
public final class VertxSdkHttpClient implements SdkAsyncHttpClient {

  /** Headers Vert.x computes itself from the body it sends. */
  private static final Set<String> OWN_HEADERS =
      Set.of("content-length", "transfer-encoding", "expect");

  private final MetricHttpClient http;
  private final Duration timeout;

  /**
   * Creates the transport.
   *
   * @param http the shared metric HTTP client
   * @param timeout the total time one HTTP attempt may take (connect, send, receive)
   */
  public VertxSdkHttpClient(MetricHttpClient http, Duration timeout) {
    this.http = http;
    this.timeout = timeout;
  }

  @Override
  public CompletableFuture<Void> execute(AsyncExecuteRequest request) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    SdkAsyncHttpResponseHandler handler = request.responseHandler();
    collect(request.requestContentPublisher())
        .compose(body -> send(request.request(), body))
        .onComplete(
            ar -> {
              if (ar.failed()) {
                handler.onError(ar.cause());
                done.completeExceptionally(ar.cause());
                return;
              }
              try {
                deliver(ar.result(), handler);
                done.complete(null);
              } catch (RuntimeException e) {
                handler.onError(e);
                done.completeExceptionally(e);
              }
            });
    return done;
  }

  private Future<HttpResponse<Buffer>> send(SdkHttpRequest request, Buffer body) {
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    request.forEachHeader(
        (name, values) -> {
          if (!OWN_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
            values.forEach(v -> headers.add(Map.entry(name, v)));
          }
        });
    HttpMethod method = HttpMethod.valueOf(request.method().name());
    return http.send(
        new MetricHttpClient.Call(
            method,
            request.getUri().toString(),
            headers,
            body.length() == 0 ? null : body,
            null,
            false,
            timeout));
  }

  private static void deliver(HttpResponse<Buffer> response, SdkAsyncHttpResponseHandler handler) {
    SdkHttpFullResponse.Builder headers =
        SdkHttpFullResponse.builder()
            .statusCode(response.statusCode())
            .statusText(response.statusMessage());
    response
        .headers()
        .names()
        .forEach(name -> headers.putHeader(name, response.headers().getAll(name)));
    handler.onHeaders(headers.build());
    Buffer body = response.body() == null ? Buffer.buffer() : response.body();
    handler.onStream(new SingleBufferPublisher(ByteBuffer.wrap(body.getBytes())));
  }

  /** Reads the SDK's request body publisher into one buffer (an adapter to its callback API). */
  private static Future<Buffer> collect(Publisher<ByteBuffer> content) {
    if (content == null) {
      return Future.succeededFuture(Buffer.buffer());
    }
    Promise<Buffer> promise = Promise.promise();
    Buffer body = Buffer.buffer();
    content.subscribe(
        new Subscriber<ByteBuffer>() {
          @Override
          public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
          }

          @Override
          public void onNext(ByteBuffer chunk) {
            byte[] bytes = new byte[chunk.remaining()];
            chunk.get(bytes);
            body.appendBytes(bytes);
          }

          @Override
          public void onError(Throwable t) {
            promise.tryFail(t);
          }

          @Override
          public void onComplete() {
            promise.tryComplete(body);
          }
        });
    return promise.future();
  }

  @Override
  public String clientName() {
    return "RollgateVertx";
  }

  @Override
  public void close() {
    // the MetricHttpClient belongs to the controller, which closes it
  }

  /** A publisher of exactly one buffer, then completion: the response body, already read whole. */
  static final class SingleBufferPublisher implements Publisher<ByteBuffer> {

    private final ByteBuffer buffer;

    SingleBufferPublisher(ByteBuffer buffer) {
      this.buffer = buffer;
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
      AtomicBoolean finished = new AtomicBoolean();
      subscriber.onSubscribe(
          new Subscription() {
            @Override
            public void request(long n) {
              if (finished.get()) {
                return;
              }
              if (n <= 0) {
                finished.set(true);
                subscriber.onError(
                    new IllegalArgumentException("request(" + n + "): n must be positive"));
                return;
              }
              if (finished.compareAndSet(false, true)) {
                if (buffer.hasRemaining()) {
                  subscriber.onNext(buffer.asReadOnlyBuffer());
                }
                subscriber.onComplete();
              }
            }

            @Override
            public void cancel() {
              finished.set(true);
            }
          });
    }
  }
}
