package io.rollgate.controller.rollout.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rollgate.controller.rollout.model.ReplicaProgressThreshold.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReplicaProgressThresholdTest {

  @ParameterizedTest(name = "{0} {1}: spec {2}, available {3}, desired {4} => {5}")
  @CsvSource({
    // default rule: spec and available both equal desired
    "DEFAULT, 0, 5, 5, 5, true",
    "DEFAULT, 0, 5, 4, 5, false",
    "DEFAULT, 0, 6, 5, 5, false",
    "DEFAULT, 0, 0, 0, 0, true",
    // percentage of desired, exact integer comparison
    "PERCENT, 80, 5, 4, 5, true",
    "PERCENT, 80, 5, 3, 5, false",
    "PERCENT, 57, 100, 57, 100, true",
    "PERCENT, 100, 5, 5, 5, true",
    "PERCENT, 50, 3, 0, 0, true",
    "PERCENT, 0, 5, 0, 5, true",
    // absolute pods
    "PODS, 3, 5, 3, 5, true",
    "PODS, 3, 5, 2, 5, false",
    "PODS, 0, 5, 0, 5, true",
    // negative value falls back to the default rule
    "PERCENT, -1, 5, 4, 5, false",
    "PODS, -1, 5, 5, 5, true",
  })
  void decidesWhetherCanaryReachedDesiredCount(
      String type, int value, int spec, int available, int desired, boolean expected) {
    ReplicaProgressThreshold threshold =
        type.equals("DEFAULT") ? null : new ReplicaProgressThreshold(Type.valueOf(type), value);
    RsState rs = new RsState("new", spec, available, spec, 2);
    assertEquals(expected, ReplicaProgressThreshold.isMet(threshold, rs, desired));
  }

  @Test
  void isNeverMet_withoutReplicaSet() {
    assertFalse(ReplicaProgressThreshold.isMet(null, null, 0));
    assertFalse(
        ReplicaProgressThreshold.isMet(new ReplicaProgressThreshold(Type.PODS, 0), null, 0));
  }

  @Test
  void requiresType() {
    assertThrows(NullPointerException.class, () -> new ReplicaProgressThreshold(null, 1));
  }
}
