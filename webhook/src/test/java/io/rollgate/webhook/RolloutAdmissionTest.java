package io.rollgate.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class RolloutAdmissionTest {

  static ObjectNode spec(ObjectNode rollout) {
    return (ObjectNode) rollout.get("spec");
  }

  @Test
  void allowsValidRolloutWithoutWarnings() {
    AdmissionDecision d =
        RolloutAdmission.validate(Reviews.parse(Reviews.review("CREATE", Reviews.validRollout())));
    JsonNode response = d.review().get("response");
    assertEquals("admission.k8s.io/v1", d.review().get("apiVersion").asText());
    assertEquals("AdmissionReview", d.review().get("kind").asText());
    assertEquals("705ab4f5-6393-11e8-b7cc-42010a800002", response.get("uid").asText());
    assertTrue(response.get("allowed").asBoolean());
    assertNull(response.get("warnings"));
    assertEquals("allowed", d.verdict());
  }

  @Test
  void deniesWithEveryProblemOnePerLine_whenWeightAndSelectorAreWrong() {
    ObjectNode rollout = Reviews.validRollout();
    spec(rollout).remove("selector");
    ((ObjectNode) spec(rollout).at("/strategy/canary/steps/0")).put("setWeight", 150);
    AdmissionDecision d =
        RolloutAdmission.validate(Reviews.parse(Reviews.review("CREATE", rollout)));
    JsonNode response = d.review().get("response");
    assertFalse(response.get("allowed").asBoolean());
    JsonNode status = response.get("status");
    assertEquals(422, status.get("code").asInt());
    assertEquals("Invalid", status.get("reason").asText());
    String[] lines = status.get("message").asText().split("\n");
    assertEquals("Rollout \"web\" is invalid (2 problems):", lines[0]);
    assertEquals(3, lines.length, status.get("message").asText());
    assertTrue(lines[1].startsWith("spec.selector: Required value"), lines[1]);
    assertTrue(
        lines[2].startsWith("spec.strategy.canary.steps[0].setWeight: Invalid value: 150"),
        lines[2]);
    JsonNode causes = status.at("/details/causes");
    assertEquals(2, causes.size());
    assertEquals("spec.selector", causes.get(0).get("field").asText());
    assertEquals("FieldValueRequired", causes.get(0).get("reason").asText());
    assertEquals("spec.strategy.canary.steps[0].setWeight", causes.get(1).get("field").asText());
    assertEquals("FieldValueInvalid", causes.get(1).get("reason").asText());
    assertEquals("Rollout", status.at("/details/kind").asText());
    assertEquals("denied", d.verdict());
    assertEquals(2, d.causes());
  }

  @Test
  void warnsAboutCanaryWithoutStepsAndImplicitDeadline() {
    ObjectNode rollout = Reviews.validRollout();
    ((ObjectNode) spec(rollout).at("/strategy/canary")).remove("steps");
    spec(rollout).put("progressDeadlineAbort", true);
    AdmissionDecision d =
        RolloutAdmission.validate(Reviews.parse(Reviews.review("UPDATE", rollout)));
    JsonNode response = d.review().get("response");
    assertTrue(response.get("allowed").asBoolean());
    JsonNode warnings = response.get("warnings");
    assertEquals(2, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).asText().startsWith("spec.progressDeadlineAbort:"));
    assertTrue(warnings.get(1).asText().startsWith("spec.strategy.canary.steps:"));
    assertEquals("warned", d.verdict());
  }

  @Test
  void warnsAboutDecreasingWeight() {
    ObjectNode rollout = Reviews.validRollout();
    ((ObjectNode) spec(rollout).at("/strategy/canary/steps/2")).put("setWeight", 10);
    JsonNode warnings =
        RolloutAdmission.validate(Reviews.parse(Reviews.review("CREATE", rollout)))
            .review()
            .at("/response/warnings");
    assertEquals(1, warnings.size());
    assertTrue(
        warnings
            .get(0)
            .asText()
            .startsWith("spec.strategy.canary.steps[2].setWeight: 10 is lower than steps[0]"));
  }

  @Test
  void allowsStatusSubresourceUntouched_evenWhenInvalid() {
    ObjectNode rollout = Reviews.validRollout();
    spec(rollout).remove("selector");
    ObjectNode review = Reviews.review("UPDATE", rollout);
    ((ObjectNode) review.get("request")).put("subResource", "status");
    AdmissionDecision v = RolloutAdmission.validate(Reviews.parse(review));
    assertTrue(v.review().at("/response/allowed").asBoolean());
    assertEquals("ignored", v.verdict());
    AdmissionDecision m = RolloutAdmission.mutate(Reviews.parse(review));
    assertTrue(m.review().at("/response/patch").isMissingNode());
  }

  @Test
  void allowsOtherKindsAndDeletes() {
    ObjectNode review = Reviews.review("CREATE", Reviews.validRollout());
    ((ObjectNode) review.at("/request/kind")).put("kind", "AnalysisRun");
    assertTrue(
        RolloutAdmission.validate(Reviews.parse(review))
            .review()
            .at("/response/allowed")
            .asBoolean());
    ObjectNode delete = Reviews.review("DELETE", null);
    assertTrue(
        RolloutAdmission.validate(Reviews.parse(delete))
            .review()
            .at("/response/allowed")
            .asBoolean());
  }

  @Test
  void deniesWithTheFieldPath_whenAValueHasTheWrongType() {
    ObjectNode rollout = Reviews.validRollout();
    spec(rollout).put("replicas", "three");
    AdmissionDecision d =
        RolloutAdmission.validate(Reviews.parse(Reviews.review("CREATE", rollout)));
    assertFalse(d.review().at("/response/allowed").asBoolean());
    assertEquals(422, d.review().at("/response/status/code").asInt());
    assertEquals(
        "spec.replicas", d.review().at("/response/status/details/causes/0/field").asText());
    assertTrue(
        d.review()
            .at("/response/status/message")
            .asText()
            .endsWith("\nspec.replicas: Invalid value: \"three\": must be a 32-bit integer"),
        d.review().at("/response/status/message").asText());
  }

  @Test
  void patchFillsOnlyAbsentReplicasAndIsIdempotent() throws Exception {
    ObjectNode rollout = Reviews.validRollout();
    AdmissionDecision first =
        RolloutAdmission.mutate(Reviews.parse(Reviews.review("CREATE", rollout)));
    JsonNode response = first.review().get("response");
    assertEquals("JSONPatch", response.get("patchType").asText());
    String patch =
        new String(
            Base64.getDecoder().decode(response.get("patch").asText()), StandardCharsets.UTF_8);
    assertEquals("[{\"op\":\"add\",\"path\":\"/spec/replicas\",\"value\":1}]", patch);
    assertEquals("patched", first.verdict());

    // Apply the patch (a single add) and ask again: nothing more to add.
    ArrayNode ops = (ArrayNode) AdmissionReviews.mapper().readTree(patch);
    spec(rollout).set("replicas", ops.get(0).get("value"));
    AdmissionDecision second =
        RolloutAdmission.mutate(Reviews.parse(Reviews.review("UPDATE", rollout)));
    assertTrue(second.review().at("/response/allowed").asBoolean());
    assertTrue(second.review().at("/response/patch").isMissingNode());
    assertTrue(second.review().at("/response/patchType").isMissingNode());
    assertEquals("allowed", second.verdict());
  }

  @Test
  void patchKeepsExplicitReplicas() {
    ObjectNode rollout = Reviews.validRollout();
    spec(rollout).put("replicas", 0);
    assertTrue(RolloutAdmission.defaultsPatch(rollout).isEmpty());
  }

  /** The single cause of a denial, as {@code field | message line}. */
  private static String onlyCause(ObjectNode rollout) {
    AdmissionDecision d =
        RolloutAdmission.validate(Reviews.parse(Reviews.review("CREATE", rollout)));
    JsonNode status = d.review().at("/response/status");
    assertEquals(422, status.get("code").asInt(), status.toString());
    assertEquals(1, status.at("/details/causes").size(), status.toString());
    return status.at("/details/causes/0/field").asText()
        + " | "
        + status.get("message").asText().split("\n")[1];
  }

  @Test
  void valuesOfTheWrongTypeOrRangeAreDeniedWithTheirFieldPath() {
    ObjectNode rollout = Reviews.validRollout();
    ((ObjectNode) spec(rollout).at("/strategy/canary")).put("maxSurge", 2147483648L);
    assertEquals(
        "spec.strategy.canary.maxSurge | spec.strategy.canary.maxSurge: Invalid value: 2147483648: must be a 32-bit"
            + " integer or a string",
        onlyCause(rollout));

    rollout = Reviews.validRollout();
    spec(rollout).put("replicas", new java.math.BigInteger("99999999999999999999"));
    assertEquals(
        "spec.replicas | spec.replicas: Invalid value: 99999999999999999999: must be a 32-bit integer",
        onlyCause(rollout));

    rollout = Reviews.validRollout();
    ((ObjectNode) spec(rollout).at("/strategy/canary/steps/0")).put("setWeight", "abc");
    assertEquals(
        "spec.strategy.canary.steps[0].setWeight | spec.strategy.canary.steps[0].setWeight: Invalid value: \"abc\":"
            + " must be a 32-bit integer",
        onlyCause(rollout));

    rollout = Reviews.validRollout();
    ((ObjectNode) spec(rollout).at("/strategy/canary")).put("steps", "lots");
    assertEquals(
        "spec.strategy.canary.steps | spec.strategy.canary.steps: Invalid value: \"lots\": must be a list",
        onlyCause(rollout));
  }
}
