package io.rollgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RolloutModelTest {

  private static final List<String> FULL_FIXTURES =
      List.of(
          "rollout-canary-full.json",
          "rollout-bluegreen-full.json",
          "rollout-canary-alternatives.json");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "rollout-canary-full.json",
        "rollout-bluegreen-full.json",
        "rollout-canary-alternatives.json",
        "rollout-unknown-fields.json"
      })
  void roundTripsFixtureUnchanged(String fixture) {
    Rollout rollout = Fixtures.rollout(fixture);

    JsonAssert.assertSameJson(Fixtures.tree(fixture), ModelJson.toTree(rollout));
  }

  @ParameterizedTest
  @ValueSource(strings = {"rollout-canary-full.json", "rollout-bluegreen-full.json"})
  void roundTripsFixtureUnchanged_withAPlainObjectMapper(String fixture) throws Exception {
    // The wire format must come from the classes' annotations alone, because fabric8's client
    // serializes them with its own mapper.
    ObjectMapper plain = new ObjectMapper();

    Rollout rollout = plain.readValue(Fixtures.text(fixture), Rollout.class);

    JsonAssert.assertSameJson(Fixtures.tree(fixture), plain.valueToTree(rollout));
  }

  @Test
  void fullFixturesMapEveryPropertyToAModelField() {
    for (String fixture : FULL_FIXTURES) {
      ModelWalker walker = ModelWalker.walk(Fixtures.rollout(fixture));

      assertEquals(
          Map.of(),
          walker.unknown,
          fixture + ": properties not mapped to a field (misspelt @JsonProperty?)");
    }
  }

  @Test
  void fullFixturesTogetherSetEveryModelField() {
    Set<String> set = new TreeSet<>();
    for (String fixture : FULL_FIXTURES) {
      set.addAll(ModelWalker.walk(Fixtures.rollout(fixture)).setFields);
    }

    Set<String> missing = new TreeSet<>(ModelWalker.allModelFields());
    missing.removeAll(set);

    assertEquals(Set.of(), missing, "model fields no full fixture sets");
  }

  @Test
  void parsesCanaryFixtureIntoTypedFields() {
    Rollout rollout = Fixtures.rollout("rollout-canary-full.json");

    assertEquals("web", rollout.getMetadata().getName());
    RolloutSpec spec = rollout.getSpec();
    assertEquals(5, spec.getReplicas());
    assertEquals(Boolean.FALSE, spec.getPaused());
    assertEquals(
        "registry.example.com/web:1.2.3",
        spec.getTemplate().getSpec().getContainers().get(0).getImage());
    CanaryStrategy canary = spec.getStrategy().getCanary();
    assertNull(spec.getStrategy().getBlueGreen());
    assertEquals(new IntOrString("25%"), canary.getMaxSurge());
    assertEquals(new IntOrString(0), canary.getMaxUnavailable());
    assertEquals(2, canary.getAnalysis().getStartingStep());
    assertEquals("latency", canary.getAnalysis().getTemplates().get(1).getTemplateName());
    assertEquals(1000, canary.getTrafficRouting().getMaxTrafficWeight());
    assertEquals(
        "web-vs.shop", canary.getTrafficRouting().getIstio().getVirtualService().getName());
    assertEquals(
        443L,
        canary.getTrafficRouting().getIstio().getVirtualService().getTlsRoutes().get(0).getPort());
    JsonNode pluginConfig = canary.getTrafficRouting().getPlugins().get("argoproj-labs/gatewayAPI");
    assertEquals("web-route", pluginConfig.get("httpRoute").asText());

    List<CanaryStep> steps = canary.getSteps();
    assertEquals(10, steps.get(0).getSetWeight());
    assertEquals(new IntOrString(30), steps.get(1).getPause().getDuration());
    assertEquals(new IntOrString("1m30s"), steps.get(2).getPause().getDuration());
    assertNull(steps.get(3).getPause().getDuration());
    assertEquals(2, steps.get(4).getSetCanaryScale().getReplicas());
    assertEquals(
        "Stable",
        steps.get(7).getAnalysis().getArgs().get(0).getValueFrom().getPodTemplateHashValue());
    assertEquals("stable", steps.get(8).getExperiment().getTemplates().get(0).getSpecRef());
    assertEquals(
        "^beta-.*", steps.get(9).getSetHeaderRoute().getMatch().get(1).getHeaderValue().getRegex());
    RouteMatch mirrorMatch = steps.get(10).getSetMirrorRoute().getMatch().get(0);
    assertEquals(".*Mobile.*", mirrorMatch.getHeaders().get("user-agent").getRegex());
    assertEquals(3, steps.get(11).getPlugin().getConfig().get("retries").asInt());
    assertNull(steps.get(12).getSetHeaderRoute().getMatch());

    RolloutStatus status = rollout.getStatus();
    assertEquals(7, status.getHPAReplicas());
    assertEquals("6b8d9f7c5", status.getStableRS());
    assertEquals("7", status.getObservedGeneration());
    assertEquals(
        PauseReason.INCONCLUSIVE_ANALYSIS_RUN, status.getPauseConditions().get(0).getReason());
    assertEquals(ConditionType.PROGRESSING, status.getConditions().get(0).getType());
    assertEquals(ConditionReason.ROLLOUT_ABORTED, status.getConditions().get(0).getReason());
    assertEquals(RolloutPhase.DEGRADED, status.getPhase());
    assertEquals(400, status.getCanary().getWeights().getCanary().getWeight());
    assertEquals(
        "CHG-42",
        status.getCanary().getStepPluginStatuses().get(0).getStatus().get("ticket").asText());
    assertEquals(120L, status.getDuration().getTotalManualPauseDurationSeconds());
  }

  @Test
  void parsesBlueGreenFixtureIntoTypedFields() {
    Rollout rollout = Fixtures.rollout("rollout-bluegreen-full.json");

    BlueGreenStrategy blueGreen = rollout.getSpec().getStrategy().getBlueGreen();
    assertNull(rollout.getSpec().getTemplate());
    assertEquals("Deployment", rollout.getSpec().getWorkloadRef().getKind());
    assertEquals("api-active", blueGreen.getActiveService());
    assertEquals(Boolean.FALSE, blueGreen.getAutoPromotionEnabled());
    assertEquals(0, blueGreen.getAbortScaleDownDelaySeconds());
    assertEquals(new IntOrString("50%"), blueGreen.getMaxUnavailable());
    assertEquals(
        new RequiredDuringSchedulingIgnoredDuringExecution(),
        blueGreen.getAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution());
    assertEquals("5d7b9c8f6", rollout.getStatus().getBlueGreen().getPreviewSelector());
    assertEquals(Boolean.TRUE, rollout.getStatus().getBlueGreen().getScaleUpPreviewCheckPoint());
  }

  @Test
  void keepsUnknownPropertiesAtEveryLevelThroughReadModifyWrite() {
    Rollout rollout = Fixtures.rollout("rollout-unknown-fields.json");

    rollout.getSpec().setPaused(true);
    rollout.getSpec().getStrategy().getCanary().getSteps().get(0).setSetWeight(30);
    rollout.getStatus().setPhase(RolloutPhase.PAUSED);

    ObjectNode expected = (ObjectNode) Fixtures.tree("rollout-unknown-fields.json");
    ((ObjectNode) expected.get("spec")).put("paused", true);
    ((ObjectNode) expected.at("/spec/strategy/canary/steps/0")).put("setWeight", 30);
    ((ObjectNode) expected.get("status")).put("phase", "Paused");
    JsonAssert.assertSameJson(expected, ModelJson.toTree(rollout));
  }

  @Test
  void exposesUnknownPropertiesToJavaCode() {
    Rollout rollout = Fixtures.rollout("rollout-unknown-fields.json");

    assertEquals(
        Map.of("note", "written by a newer tool"),
        rollout.getAdditionalProperties().get("futureTopLevel"));
    assertEquals("kept", rollout.getSpec().getAdditionalProperties().get("futureSpecField"));
    List<CanaryStep> steps = rollout.getSpec().getStrategy().getCanary().getSteps();
    assertEquals("kept-too", steps.get(0).getAdditionalProperties().get("futureStepField"));
    assertEquals(
        new CanaryStep(),
        withoutUnknown(steps.get(1)),
        "an unknown step kind leaves every known field null");
    assertTrue(steps.get(2).getPause().getAdditionalProperties().containsKey("futurePauseField"));
    assertEquals(
        Map.of("items", List.of(1, 2, 3)),
        rollout.getStatus().getCanary().getAdditionalProperties().get("futureCanaryStatus"));
    assertEquals(
        "x",
        rollout
            .getStatus()
            .getConditions()
            .get(0)
            .getAdditionalProperties()
            .get("futureConditionField"));
    assertEquals(
        Map.of("enabled", true),
        rollout
            .getSpec()
            .getTemplate()
            .getSpec()
            .getContainers()
            .get(0)
            .getAdditionalProperties()
            .get("futureContainerField"));
  }

  @Test
  void doesNotAddAbsentOptionalFields() {
    String minimal =
        "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"Rollout\",\"metadata\":{\"name\":\"m\"},"
            + "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"m\"}},"
            + "\"strategy\":{\"canary\":{\"steps\":[{\"pause\":{}},{\"setWeight\":0}]}}}}";

    Rollout rollout = ModelJson.fromJson(minimal, Rollout.class);

    assertEquals(
        ModelJson.toTree(ModelJson.fromJson(minimal, JsonNode.class)), ModelJson.toTree(rollout));
    assertNull(rollout.getStatus());
    assertNull(rollout.getSpec().getReplicas());
    assertNull(rollout.getSpec().getStrategy().getCanary().getTrafficRouting());
  }

  @Test
  void writesNothingForEmptyModelObjects() {
    assertEquals("{}", ModelJson.toJson(new RolloutStatus()));
    assertEquals("{}", ModelJson.toJson(new CanaryStep()));
    assertEquals("{}", ModelJson.toJson(new RolloutPause()));
    assertEquals("{}", ModelJson.toJson(new RolloutAnalysisBackground()));
  }

  @Test
  void keepsEmptyListsDistinctFromAbsentOnes() {
    String json = "{\"steps\":[],\"trafficRouting\":{\"managedRoutes\":[]}}";

    CanaryStrategy canary = ModelJson.fromJson(json, CanaryStrategy.class);

    assertEquals(List.of(), canary.getSteps());
    assertNull(canary.getCanaryMetadata());
    assertEquals(ModelJson.fromJson(json, JsonNode.class), ModelJson.toTree(canary));
  }

  @Test
  void keepsObservedGenerationAString() {
    Rollout rollout = Fixtures.rollout("rollout-canary-full.json");
    rollout.getStatus().setObservedGeneration("8");

    JsonNode written = ModelJson.toTree(rollout).at("/status/observedGeneration");

    assertTrue(written.isTextual(), "observedGeneration must be a JSON string, was " + written);
    assertEquals("8", written.textValue());
  }

  @Test
  void spellsArgoFieldNamesExactly() throws Exception {
    RolloutStatus status = new RolloutStatus();
    status.setHPAReplicas(3);
    status.setStableRS("abc");
    String expected = "{\"HPAReplicas\":3,\"stableRS\":\"abc\"}";

    assertEquals(ModelJson.mapper().readTree(expected), ModelJson.toTree(status));
    assertEquals(ModelJson.mapper().readTree(expected), new ObjectMapper().valueToTree(status));
    assertEquals(
        3, ModelJson.fromJson("{\"HPAReplicas\":3}", RolloutStatus.class).getHPAReplicas());
  }

  @Test
  void keepsIntOrStringWireTypes() {
    JsonNode canary =
        ModelJson.toTree(Fixtures.rollout("rollout-canary-full.json")).at("/spec/strategy/canary");
    JsonNode alternatives =
        ModelJson.toTree(Fixtures.rollout("rollout-canary-alternatives.json"))
            .at("/spec/strategy/canary");

    assertTrue(canary.at("/maxSurge").isTextual());
    assertTrue(canary.at("/maxUnavailable").isInt());
    assertTrue(canary.at("/steps/1/pause/duration").isInt());
    assertTrue(canary.at("/steps/2/pause/duration").isTextual());
    assertTrue(alternatives.at("/maxSurge").isInt());
    assertEquals(
        "45", alternatives.at("/steps/1/pause/duration").textValue(), "digit strings stay strings");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "rollout-unknown-fields.json",
        "rollout-canary-full.json",
        "rollout-canary-alternatives.json",
        "rollout-bluegreen-full.json"
      })
  void deepCopyEqualsTheCopyReadBackFromJsonText(String fixture) throws Exception {
    Rollout original = Fixtures.rollout(fixture);
    Rollout fromText =
        ModelJson.mapper().readValue(ModelJson.mapper().writeValueAsBytes(original), Rollout.class);

    Rollout copy = ModelJson.deepCopy(original);

    assertEquals(fromText, copy);
    assertEquals(ModelJson.toJson(fromText), ModelJson.toJson(copy));
    assertEquals(ModelJson.toTree(fromText), ModelJson.toTree(copy));
  }

  @Test
  void deepCopyIsEqualButIndependent() {
    Rollout original = Fixtures.rollout("rollout-unknown-fields.json");

    Rollout copy = ModelJson.deepCopy(original);

    assertNotSame(original, copy);
    assertEquals(original, copy);
    assertEquals(original.hashCode(), copy.hashCode());
    copy.getSpec().getStrategy().getCanary().getSteps().get(0).setSetWeight(99);
    copy.getStatus().getCanary().getAdditionalProperties().put("futureCanaryStatus", "changed");
    assertEquals(20, original.getSpec().getStrategy().getCanary().getSteps().get(0).getSetWeight());
    assertEquals(
        Map.of("items", List.of(1, 2, 3)),
        original.getStatus().getCanary().getAdditionalProperties().get("futureCanaryStatus"));
    assertNotEquals(original, copy);
  }

  @Test
  void equalsComparesKnownAndUnknownProperties() {
    SetCanaryScale a = new SetCanaryScale();
    a.setWeight(20);
    SetCanaryScale b = new SetCanaryScale();
    b.setWeight(20);
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());

    b.setAdditionalProperty("future", true);
    assertNotEquals(a, b);

    RolloutAnalysis plain = new RolloutAnalysis();
    RolloutAnalysisBackground background = new RolloutAnalysisBackground();
    assertNotEquals(plain, background, "different classes are never equal");
    RolloutAnalysisBackground other = new RolloutAnalysisBackground();
    other.setStartingStep(1);
    assertNotEquals(background, other);
  }

  @Test
  void rendersToStringAsCompactJson() {
    SetCanaryScale scale = new SetCanaryScale();
    scale.setWeight(20);

    assertEquals("SetCanaryScale{\"weight\":20}", scale.toString());
  }

  @Test
  void describesTheRolloutKind() {
    Rollout rollout = new Rollout();

    assertEquals("argoproj.io/v1alpha1", rollout.getApiVersion());
    assertEquals("Rollout", rollout.getKind());
    assertEquals("rollouts", rollout.getPlural());
    assertEquals("rollouts.argoproj.io", rollout.getCRDName());
    assertEquals("Namespaced", rollout.getScope());
    assertEquals(List.of("ro"), List.of(Rollout.getShortNames(Rollout.class)));
    assertNull(rollout.getSpec());
    assertNull(rollout.getStatus());
    assertFalse(ModelJson.toTree(rollout).has("status"));
  }

  private static CanaryStep withoutUnknown(CanaryStep step) {
    CanaryStep copy = ModelJson.deepCopy(step);
    new ArrayList<>(copy.getAdditionalProperties().keySet())
        .forEach(copy.getAdditionalProperties()::remove);
    return copy;
  }
}
