package io.rollgate.controller.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Restart delays of plugin processes: 1 s doubling to 5 min, reset after 10 minutes of health. */
class RestartBackoffTest {

  @Test
  void doublesUpToFiveMinutes() {
    RestartBackoff b = new RestartBackoff();
    long[] expected = {1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300};
    for (long s : expected) {
      assertEquals(Duration.ofSeconds(s), b.failed(Duration.ZERO));
    }
  }

  @Test
  void startsAgainFromOneSecondAfterTenMinutesOfHealth() {
    RestartBackoff b = new RestartBackoff();
    b.failed(Duration.ZERO);
    b.failed(Duration.ofSeconds(30));
    assertEquals(Duration.ofSeconds(4), b.failed(Duration.ofMinutes(9)));
    assertEquals(Duration.ofSeconds(1), b.failed(Duration.ofMinutes(10)));
    assertEquals(Duration.ofSeconds(2), b.failed(Duration.ZERO));
  }
}
