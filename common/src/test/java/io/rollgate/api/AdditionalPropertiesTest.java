package io.rollgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.Field;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Unknown JSON properties: kept, written back, compared; an object without any holds no map. */
class AdditionalPropertiesTest {

  @Test
  void objectsReadWithoutUnknownPropertiesHoldNoMap() throws Exception {
    Rollout rollout =
        ModelJson.fromJson(
            "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"Rollout\",\"spec\":{\"strategy\":{\"canary\":"
                + "{\"steps\":[{\"setWeight\":20},{\"pause\":{\"duration\":\"1m\"}}]}}}}",
            Rollout.class);
    assertEquals(null, mapOf(rollout, ModelCustomResource.class));
    assertEquals(null, mapOf(rollout.getSpec(), ModelObject.class));
    assertEquals(
        null,
        mapOf(rollout.getSpec().getStrategy().getCanary().getSteps().get(0), ModelObject.class));

    ModelJson.toJson(rollout);
    assertEquals(ModelJson.deepCopy(rollout).hashCode(), rollout.hashCode());
    assertEquals(ModelJson.deepCopy(rollout), rollout);

    assertEquals(
        null,
        mapOf(rollout, ModelCustomResource.class),
        "writing, hashing and comparing allocate no map");
    assertEquals(null, mapOf(rollout.getSpec(), ModelObject.class));
  }

  @Test
  void theGetterReturnsALiveMapThatIsWrittenBack() {
    CanaryStep step = new CanaryStep();
    Map<String, Object> map = step.getAdditionalProperties();
    map.put("future", Map.of("a", 1));

    assertSame(map, step.getAdditionalProperties());
    assertEquals("{\"future\":{\"a\":1}}", ModelJson.toJson(step));

    Rollout rollout = new Rollout();
    rollout.getAdditionalProperties().put("extra", "x");
    assertEquals("x", ModelJson.toTree(rollout).get("extra").asText());
  }

  @Test
  void keepsUnknownPropertiesInInputOrder() throws Exception {
    String json = "{\"setWeight\":5,\"z\":1,\"a\":[true],\"m\":null}";

    CanaryStep step = new ObjectMapper().readValue(json, CanaryStep.class);

    assertEquals(
        java.util.List.of("z", "a", "m"),
        java.util.List.copyOf(step.getAdditionalProperties().keySet()));
    assertEquals(json, new ObjectMapper().writeValueAsString(step));
  }

  @Test
  void anEmptyMapEqualsNoMap() {
    CanaryStep plain = new CanaryStep();
    CanaryStep asked = new CanaryStep();
    asked.getAdditionalProperties();

    assertEquals(plain, asked);
    assertEquals(asked, plain);
    assertEquals(plain.hashCode(), asked.hashCode());

    asked.setAdditionalProperty("x", 1);
    assertNotEquals(plain, asked);
    assertNotEquals(asked, plain);

    Rollout rollout = new Rollout();
    Rollout askedRollout = new Rollout();
    askedRollout.getAdditionalProperties();
    assertEquals(rollout, askedRollout);
    assertEquals(askedRollout, rollout);
    assertEquals(rollout.hashCode(), askedRollout.hashCode());
    askedRollout.setAdditionalProperty("x", 1);
    assertNotEquals(rollout, askedRollout);
  }

  @Test
  void hashCodeIsThatOfTheMapAsBefore() {
    CanaryStep step = new CanaryStep();
    step.setSetWeight(10);
    step.setAdditionalProperty("x", "y");

    assertEquals(
        java.util.Objects.hash(
            step.getSetWeight(),
            step.getPause(),
            step.getExperiment(),
            step.getAnalysis(),
            step.getSetCanaryScale(),
            step.getSetHeaderRoute(),
            step.getSetMirrorRoute(),
            step.getPlugin(),
            step.getAdditionalProperties()),
        step.hashCode());
  }

  private static Object mapOf(Object o, Class<?> declaring) throws Exception {
    Field f = declaring.getDeclaredField("additionalProperties");
    f.setAccessible(true);
    return f.get(o);
  }
}
