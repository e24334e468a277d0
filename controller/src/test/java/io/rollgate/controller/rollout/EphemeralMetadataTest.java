package io.rollgate.controller.rollout;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EphemeralMetadataTest {

  @Test
  void diffSetsDesiredRemovesNoLongerDesiredAndLeavesOtherKeys() {
    var patch =
        EphemeralMetadata.diff(
            Map.of("app", "web", "role", "canary", "track", "x", "team", "a"),
            Map.of("role", "stable"),
            Map.of("role", "canary", "track", "x"),
            List.of("app"));
    assertEquals("{\"role\":\"stable\",\"track\":null}", patch.toString());
  }

  @Test
  void diffNeverTouchesSelectorKeys() {
    var patch = EphemeralMetadata.diff(Map.of("app", "web"), Map.of("app", "other"), Map.of("app", "web"), List.of("app"));
    assertEquals("{}", patch.toString());
  }
}
