package io.rollgate.controller.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.Test;

/** The TraefikService weights of the Traefik router. */
class TraefikTrafficRouterTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  private static JsonNode json(String yaml) throws Exception {
    return YAML.readTree(yaml);
  }

  private static final String SERVICE =
      """
      apiVersion: traefik.io/v1alpha1
      kind: TraefikService
      metadata: {name: web-ts, namespace: shop}
      spec:
        weighted:
          sticky: {cookie: {name: lb}}
          services:
          - {name: other, port: 80, weight: 7}
          - {name: web-stable, port: 80}
          - {name: web-canary, port: 80, weight: 100}
      """;

  @Test
  void setsCanaryAndStableWeights_keepingOrderPortsAndOtherEntries() throws Exception {
    JsonNode ts = json(SERVICE);
    ArrayNode services =
        TraefikTrafficRouter.weightedServices("web-ts", ts, "web-canary", "web-stable", 30);
    assertEquals(3, services.size());
    assertEquals("other", services.get(0).path("name").asText());
    assertEquals(
        7, services.get(0).path("weight").asInt(), "entries of other Services are left alone");
    assertEquals("web-stable", services.get(1).path("name").asText());
    assertEquals(70, services.get(1).path("weight").asInt());
    assertEquals(80, services.get(1).path("port").asInt());
    assertEquals(30, services.get(2).path("weight").asInt());
    assertEquals(
        100,
        ts.path("spec").path("weighted").path("services").get(2).path("weight").asInt(),
        "the object read is not modified");
  }

  @Test
  void weightZeroSendsEverythingToStable() throws Exception {
    ArrayNode services =
        TraefikTrafficRouter.weightedServices(
            "web-ts", json(SERVICE), "web-canary", "web-stable", 0);
    assertEquals(100, services.get(1).path("weight").asInt());
    assertEquals(0, services.get(2).path("weight").asInt());
  }

  @Test
  void missingListEntryOrNameIsAClearError() throws Exception {
    IllegalArgumentException noList =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TraefikTrafficRouter.weightedServices(
                    "web-ts", json("spec: {mirroring: {name: x}}"), "c", "s", 10));
    assertEquals("TraefikService `web-ts` has no spec.weighted.services list", noList.getMessage());
    IllegalArgumentException noCanary =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TraefikTrafficRouter.weightedServices(
                    "web-ts", json(SERVICE), "missing", "web-stable", 10));
    assertEquals(
        "TraefikService `web-ts`: canary Service `missing` not found in spec.weighted.services",
        noCanary.getMessage());
    IllegalArgumentException noStable =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TraefikTrafficRouter.weightedServices(
                    "web-ts", json(SERVICE), "web-canary", "missing", 10));
    assertTrue(
        noStable.getMessage().contains("stable Service `missing` not found"),
        noStable.getMessage());
    IllegalArgumentException noName =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TraefikTrafficRouter.weightedServices(
                    "web-ts",
                    json("spec: {weighted: {services: [{name: web-canary}, {port: 80}]}}"),
                    "web-canary",
                    "web-stable",
                    10));
    assertEquals(
        "TraefikService `web-ts`: spec.weighted.services[1] has no name", noName.getMessage());
  }
}
