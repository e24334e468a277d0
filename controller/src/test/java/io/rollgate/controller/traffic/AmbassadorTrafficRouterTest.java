package io.rollgate.controller.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.rollgate.api.ModelJson;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The canary Mapping the Ambassador router derives from a stable Mapping. */
class AmbassadorTrafficRouterTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  private static final String STABLE =
      """
      apiVersion: getambassador.io/v2
      kind: Mapping
      metadata:
        name: web
        namespace: shop
        labels: {team: a}
        annotations: {note: b}
        resourceVersion: "12"
        uid: u-9
      spec:
        prefix: /web/
        rewrite: /
        host: web.example.com
        service: http://web-stable.shop:8080
        timeout_ms: 3000
      status: {state: Running}
      """;

  private static JsonNode json(String yaml) throws Exception {
    return YAML.readTree(yaml);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource r) {
    return (Map<String, Object>) r.getAdditionalProperties().get("spec");
  }

  @Test
  void canaryMappingCopiesTheSpecPointsAtTheCanaryServiceAndCarriesTheWeight() throws Exception {
    GenericKubernetesResource canary =
        AmbassadorTrafficRouter.canaryMapping(
            json(STABLE), "web-canary", "web-canary", "web-stable", 20);
    assertEquals("web-canary", canary.getMetadata().getName());
    assertTrue(
        canary.getMetadata().getLabels() == null || canary.getMetadata().getLabels().isEmpty(),
        "no metadata is copied from the stable Mapping");
    assertTrue(
        canary.getMetadata().getAnnotations() == null
            || canary.getMetadata().getAnnotations().isEmpty());
    assertNull(canary.getMetadata().getResourceVersion());
    assertNull(canary.getMetadata().getUid());
    Map<String, Object> spec = spec(canary);
    assertEquals(
        "http://web-canary.shop:8080",
        spec.get("service"),
        "first occurrence of the stable Service replaced");
    assertEquals(20, spec.get("weight"));
    assertEquals("/web/", spec.get("prefix"));
    assertEquals("/", spec.get("rewrite"));
    assertEquals("web.example.com", spec.get("host"));
    assertEquals(3000, spec.get("timeout_ms"));
    assertNull(canary.getAdditionalProperties().get("status"), "status is not copied");
    JsonNode back = ModelJson.mapper().valueToTree(canary);
    assertEquals(20, AmbassadorTrafficRouter.mappingWeight(back));
  }

  @Test
  void stableMappingWithAWeightOrWithoutTheStableServiceIsRefused() throws Exception {
    JsonNode weighted =
        json("metadata: {name: web}\nspec: {prefix: /, service: web-stable, weight: 10}");
    IllegalArgumentException w =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                AmbassadorTrafficRouter.canaryMapping(
                    weighted, "web-canary", "web-canary", "web-stable", 5));
    assertEquals("Ambassador mapping \"web\" can not define weight", w.getMessage());
    JsonNode other = json("metadata: {name: web}\nspec: {prefix: /, service: other:80}");
    IllegalArgumentException s =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                AmbassadorTrafficRouter.canaryMapping(
                    other, "web-canary", "web-canary", "web-stable", 5));
    assertEquals(
        "Ambassador mapping \"web\" spec.service \"other:80\" does not name the stable Service \"web-stable\"",
        s.getMessage());
  }

  @Test
  void weightIsZeroWhenAbsentOrNotAnInteger() throws Exception {
    assertEquals(0, AmbassadorTrafficRouter.mappingWeight(json("spec: {service: a}")));
    assertEquals(0, AmbassadorTrafficRouter.mappingWeight(json("spec: {weight: \"30\"}")));
    assertEquals(30, AmbassadorTrafficRouter.mappingWeight(json("spec: {weight: 30}")));
  }

  @Test
  void canaryMappingNameCutsTheStableNameTo246Characters() {
    assertEquals("web-canary", AmbassadorTrafficRouter.canaryMappingName("web"));
    String name = AmbassadorTrafficRouter.canaryMappingName("m".repeat(260));
    assertEquals(253, name.length());
    assertEquals("m".repeat(246) + "-canary", name);
  }
}
