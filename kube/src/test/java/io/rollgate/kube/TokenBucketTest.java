package io.rollgate.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

  private static final long SECOND = 1_000_000_000L;

  @Test
  void grantsBurstWithoutWaiting_thenMakesCallersWaitOneIntervalEach() {
    AtomicLong now = new AtomicLong();
    TokenBucket bucket = new TokenBucket(40, 80, now::get);
    for (int i = 0; i < 80; i++) {
      assertEquals(0, bucket.reserve(), "call " + i + " is within the burst");
    }
    // the 81st call waits one token at 40/s = 25 ms; the 82nd, queued behind it, 50 ms
    assertEquals(25_000_000L, bucket.reserve());
    assertEquals(50_000_000L, bucket.reserve());
  }

  @Test
  void idleTokensGoOnlyToLowPriorityCallsWhenNoReservationWaits() {
    AtomicLong now = new AtomicLong();
    TokenBucket bucket = new TokenBucket(10, 2, now::get);
    assertEquals(0, bucket.takeIfIdle());
    assertEquals(0, bucket.reserve());
    // Empty: a low-priority call takes nothing and learns when a token comes (100 ms at 10/s).
    assertEquals(SECOND / 10, bucket.takeIfIdle());
    assertEquals(0.0, bucket.available(), 1e-9);
    // A reservation borrows the next token; the low-priority call now has to wait for two.
    assertEquals(SECOND / 10, bucket.reserve());
    assertEquals(2 * SECOND / 10, bucket.takeIfIdle());
    now.addAndGet(SECOND / 10); // the reserved call's token
    assertEquals(SECOND / 10, bucket.takeIfIdle());
    now.addAndGet(SECOND / 10);
    assertEquals(0, bucket.takeIfIdle());
  }

  @Test
  void refillsAtQps_andNeverAboveBurst() {
    AtomicLong now = new AtomicLong();
    TokenBucket bucket = new TokenBucket(10, 5, now::get);
    for (int i = 0; i < 5; i++) {
      bucket.reserve();
    }
    now.addAndGet(SECOND / 2); // +5 tokens at 10/s
    assertEquals(5.0, bucket.available(), 1e-9);
    now.addAndGet(10 * SECOND); // an hour of idling still holds only `burst` tokens
    assertEquals(5.0, bucket.available(), 1e-9);
    for (int i = 0; i < 5; i++) {
      assertEquals(0, bucket.reserve());
    }
    assertEquals(SECOND / 10, bucket.reserve());
  }

  @Test
  void reservationsInDebtAreRepaidByTime() {
    AtomicLong now = new AtomicLong();
    TokenBucket bucket = new TokenBucket(1, 1, now::get);
    assertEquals(0, bucket.reserve());
    assertEquals(SECOND, bucket.reserve());
    assertEquals(2 * SECOND, bucket.reserve());
    now.addAndGet(2 * SECOND); // the two waiting callers have now made their calls
    assertEquals(SECOND, bucket.reserve());
  }

  @Test
  void rejectsNonPositiveSettings() {
    assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0, 1, System::nanoTime));
    assertThrows(IllegalArgumentException.class, () -> new TokenBucket(1, 0, System::nanoTime));
  }
}
