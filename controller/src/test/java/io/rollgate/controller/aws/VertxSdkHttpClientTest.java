package io.rollgate.controller.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

class VertxSdkHttpClientTest {

  @Test
  void singleBufferPublisherSendsOneBufferThenCompletes() {
    List<String> events = new ArrayList<>();
    new VertxSdkHttpClient.SingleBufferPublisher(
            ByteBuffer.wrap("body".getBytes(StandardCharsets.UTF_8)))
        .subscribe(
            new Subscriber<ByteBuffer>() {
              Subscription s;

              @Override
              public void onSubscribe(Subscription s) {
                this.s = s;
                s.request(1);
              }

              @Override
              public void onNext(ByteBuffer b) {
                events.add(StandardCharsets.UTF_8.decode(b).toString());
                s.request(1);
              }

              @Override
              public void onError(Throwable t) {
                events.add("error " + t.getMessage());
              }

              @Override
              public void onComplete() {
                events.add("complete");
              }
            });
    assertEquals(List.of("body", "complete"), events);
  }
}
