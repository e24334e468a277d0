package io.rollgate.controller.leader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.client.http.HttpRequest;
import io.rollgate.kube.lease.WriteFence;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A late timer tick is a pause; the writes let through and unanswered when it began are named. */
class PauseDetectorTest {

  /** A request with only a method and a URI (what the fence reads). */
  static HttpRequest request(String method, String path) {
    URI uri = URI.create("https://api" + path);
    return (HttpRequest)
        Proxy.newProxyInstance(
            HttpRequest.class.getClassLoader(),
            new Class<?>[] {HttpRequest.class},
            (proxy, m, args) ->
                switch (m.getName()) {
                  case "method" -> method;
                  case "uri" -> uri;
                  case "toString" -> method + " " + uri;
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  default -> throw new UnsupportedOperationException(m.getName());
                });
  }

  @Test
  void aLateTickReportsTheWritesInFlightWhenThePauseBegan() {
    AtomicLong now = new AtomicLong(1_000_000_000L);
    WriteFence fence = new WriteFence((m, p) -> true, now::get);
    PauseDetector detector = new PauseDetector(fence, 250, 2_000, now::get);
    detector.tick();
    HttpRequest answered = request("PATCH", "/apis/apps/v1/namespaces/a/replicasets/x");
    HttpRequest inFlight =
        request("PATCH", "/apis/argoproj.io/v1alpha1/namespaces/a/rollouts/busy");
    fence.before(null, answered, null);
    fence.before(null, inFlight, null);
    fence.before(null, request("GET", "/apis/apps/v1/namespaces/a/replicasets/x"), null);
    now.addAndGet(1_000_000L);
    fence.after(answered, null, null);
    now.addAndGet(249_000_000L);
    assertNull(detector.tick(), "on time: no pause");
    // Let through after the last tick, just before the process froze: in flight too.
    HttpRequest justBefore = request("POST", "/api/v1/namespaces/a/events");
    now.addAndGet(100_000_000L);
    fence.before(null, justBefore, null);
    now.addAndGet(12_000_000_000L); // frozen
    fence.after(inFlight, null, null); // answered only after the pause
    assertEquals(
        List.of(
            "PATCH /apis/argoproj.io/v1alpha1/namespaces/a/rollouts/busy",
            "POST /api/v1/namespaces/a/events"),
        detector.tick());
    now.addAndGet(250_000_000L);
    assertNull(detector.tick());
  }
}
