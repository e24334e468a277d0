package io.rollgate.webhook.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.rollgate.api.policy.PolicyViolation;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.api.policy.RolloutPolicyStatus;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PolicyAuditorTest {

  static RolloutPolicy policy(RolloutPolicyStatus stored) {
    RolloutPolicy p = new RolloutPolicy();
    p.setMetadata(
        new ObjectMetaBuilder()
            .withName("production")
            .withGeneration(3L)
            .withResourceVersion("77")
            .build());
    p.setStatus(stored);
    return p;
  }

  static RolloutPolicyStatus status(String time, long generation, PolicyViolation... violations) {
    RolloutPolicyStatus s = new RolloutPolicyStatus();
    s.setObservedGeneration(generation);
    s.setLastAuditTime(time);
    s.setTotalViolations(violations.length);
    s.setViolations(List.of(violations));
    return s;
  }

  static final PolicyViolation WEB =
      new PolicyViolation("shop", "web", List.of("spec.replicas: too many"));
  static final PolicyViolation API =
      new PolicyViolation("shop", "api", List.of("spec.strategy: no analysis"));

  @Test
  void theFirstAuditWritesTheWholeStatus_guardedByTheResourceVersionRead() {
    ObjectNode patch =
        PolicyAuditor.statusPatch(policy(null), status("2026-12-03T10:00:00Z", 3, WEB))
            .orElseThrow();
    assertEquals("77", patch.at("/metadata/resourceVersion").asText());
    assertEquals(1, patch.at("/status/totalViolations").asInt());
    assertEquals("web", patch.at("/status/violations/0/name").asText());
    assertEquals(3, patch.at("/status/observedGeneration").asLong());
    assertEquals("2026-12-03T10:00:00Z", patch.at("/status/lastAuditTime").asText());
  }

  @Test
  void anAuditThatFindsWhatIsStoredWritesNothing_thoughItsTimeIsLater() {
    RolloutPolicy stored = policy(status("2026-12-03T10:00:00Z", 3, WEB));
    assertEquals(
        Optional.empty(),
        PolicyAuditor.statusPatch(stored, status("2026-12-03T10:01:00Z", 3, WEB)));
  }

  @Test
  void aNewViolationWritesOnlyWhatChanged_withTheNewAuditTime() {
    RolloutPolicy stored = policy(status("2026-12-03T10:00:00Z", 3, WEB));
    ObjectNode patch =
        PolicyAuditor.statusPatch(stored, status("2026-12-03T10:01:00Z", 3, API, WEB))
            .orElseThrow();
    ObjectNode written = (ObjectNode) patch.get("status");
    assertEquals(2, written.get("totalViolations").asInt());
    assertEquals(2, written.get("violations").size());
    assertEquals("2026-12-03T10:01:00Z", written.get("lastAuditTime").asText());
    assertFalse(written.has("observedGeneration"), "unchanged fields are not sent");
    assertEquals("77", patch.at("/metadata/resourceVersion").asText());
  }

  @Test
  void aNewGenerationAloneIsWritten() {
    RolloutPolicy stored = policy(status("2026-12-03T10:00:00Z", 2));
    ObjectNode patch =
        PolicyAuditor.statusPatch(stored, status("2026-12-03T10:01:00Z", 3)).orElseThrow();
    assertEquals(3, patch.at("/status/observedGeneration").asLong());
  }

  @Test
  void storedFieldsTheAuditDoesNotWriteAreLeftAlone() {
    RolloutPolicyStatus old = status("2026-12-03T10:00:00Z", 3, WEB);
    old.setAdditionalProperty("note", "kept");
    RolloutPolicy stored = policy(old);
    assertEquals(
        Optional.empty(),
        PolicyAuditor.statusPatch(stored, status("2026-12-03T10:05:00Z", 3, WEB)));
    ObjectNode patch =
        PolicyAuditor.statusPatch(stored, status("2026-12-03T10:05:00Z", 3)).orElseThrow();
    assertFalse(patch.get("status").has("note"));
    assertTrue(patch.get("status").has("violations"));
    assertEquals(0, patch.at("/status/totalViolations").asInt());
  }
}
