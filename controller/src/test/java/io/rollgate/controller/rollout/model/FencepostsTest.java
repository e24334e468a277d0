package io.rollgate.controller.rollout.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FencepostsTest {

  @ParameterizedTest(name = "R={0} => surge {1}, unavailable {2}")
  @CsvSource({
    // 25% of R: surge rounds up, unavailable rounds down (0 for R < 4, then both-zero never happens
    // because surge > 0)
    "1, 1, 0",
    "3, 1, 0",
    "4, 1, 1",
    "5, 2, 1",
    "10, 3, 2",
    "12, 3, 3",
    "0, 0, 0",
  })
  void defaultsToTwentyFivePercentEach_whenUnset(int replicas, int surge, int unavailable) {
    assertEquals(new Fenceposts(surge, unavailable), Fenceposts.resolve(null, null, replicas));
  }

  @Test
  void treatsStringWithoutPercentSignAsPercentage() {
    // "5" is 5% of 10 = 0.5: surge rounds up to 1, unavailable rounds down to 0.
    assertEquals(new Fenceposts(1, 0), Fenceposts.resolve("5", "5", 10));
    assertEquals(new Fenceposts(1, 0), Fenceposts.resolve("5%", "5%", 10));
  }

  @Test
  void treatsIntegerAsAbsolutePodCount() {
    assertEquals(new Fenceposts(5, 5), Fenceposts.resolve(5, 5, 10));
  }

  @Test
  void mixesIntegerAndPercentage() {
    assertEquals(new Fenceposts(1, 2), Fenceposts.resolve(1, "25%", 10));
    assertEquals(new Fenceposts(5, 0), Fenceposts.resolve("50%", 0, 10));
  }

  @Test
  void allowsOneUnavailable_whenBothResolveToZero() {
    assertEquals(new Fenceposts(0, 1), Fenceposts.resolve(0, "10%", 5));
    assertEquals(new Fenceposts(0, 1), Fenceposts.resolve("0%", "0%", 5));
    assertEquals(new Fenceposts(0, 1), Fenceposts.resolve(0, 0, 1));
  }

  @Test
  void capsUnavailableAtReplicas() {
    assertEquals(new Fenceposts(0, 3), Fenceposts.resolve(0, 5, 3));
    assertEquals(new Fenceposts(1, 3), Fenceposts.resolve("25%", "200%", 3));
  }

  @Test
  void resolvesUnavailableToZero_whenReplicasIsZero() {
    assertEquals(new Fenceposts(2, 0), Fenceposts.resolve(2, 3, 0));
    assertEquals(new Fenceposts(0, 0), Fenceposts.resolve(0, 0, 0));
    assertEquals(new Fenceposts(0, 0), Fenceposts.resolve("50%", "50%", 0));
  }

  @Test
  void keepsSurgeAboveReplicas() {
    assertEquals(new Fenceposts(20, 0), Fenceposts.resolve("200%", 0, 10));
    assertEquals(new Fenceposts(7, 1), Fenceposts.resolve(7, 1, 2));
  }

  @Test
  void removesEveryPercentSign_likeLegacyKubernetesHelper() {
    assertEquals(new Fenceposts(5, 5), Fenceposts.resolve("%50", "5%0%", 10));
    assertEquals(new Fenceposts(5, 5), Fenceposts.resolve("+50%", "50", 10));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(
      strings = {"abc", "-5%", "-5", "", "%", " 5%", "5.5%", "1e2", "+", "99999999999%", "\u0665%"})
  void rejectsMalformedString_namingTheValue(String value) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Fenceposts.resolve(value, null, 10));
    assertTrue(e.getMessage().contains("\"" + value + "\""), e.getMessage());
  }

  @Test
  void rejectsNegativeInteger() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Fenceposts.resolve(null, -1, 4));
    assertTrue(e.getMessage().contains("-1"), e.getMessage());
  }

  @Test
  void rejectsOtherTypes() {
    assertThrows(IllegalArgumentException.class, () -> Fenceposts.resolve(5L, null, 4));
    assertThrows(IllegalArgumentException.class, () -> Fenceposts.resolve(null, 0.5, 4));
  }

  @Test
  void rejectsNegativeReplicas() {
    assertThrows(IllegalArgumentException.class, () -> Fenceposts.resolve(null, null, -1));
  }

  @ParameterizedTest(name = "{0} of {1}, up={2} => {3}")
  @CsvSource({
    "25%, 10, true, 3",
    "25%, 10, false, 2",
    "33, 3, true, 1",
    "33, 3, false, 0",
    "100, 7, false, 7",
    "0, 7, true, 0",
  })
  void scalesPercentageWithRounding(String value, int total, boolean roundUp, int expected) {
    assertEquals(expected, Fenceposts.scaledValue(value, total, roundUp));
  }
}
