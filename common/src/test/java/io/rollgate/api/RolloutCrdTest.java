package io.rollgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks the CRD that {@code crd-generator-maven-plugin} writes into {@code target/classes} during
 * {@code process-classes}, against the Argo Rollouts contract (docs/compatibility.md §0).
 */
class RolloutCrdTest {

  private static final String CRD_RESOURCE = "/META-INF/fabric8/rollouts.argoproj.io-v1.yml";
  private static final String GOLDEN_RESOURCE = "/golden/rollouts.argoproj.io-v1.yml";
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static byte[] crdBytes;
  private static JsonNode crd;
  private static JsonNode version;
  private static JsonNode schema;

  @BeforeAll
  static void loadCrd() throws IOException {
    crdBytes = read(CRD_RESOURCE);
    crd = YAML.readTree(crdBytes);
    assertEquals(1, crd.at("/spec/versions").size());
    version = crd.at("/spec/versions/0");
    schema = version.at("/schema/openAPIV3Schema");
  }

  @Test
  void namesTheRolloutKind() {
    assertEquals("apiextensions.k8s.io/v1", crd.get("apiVersion").asText());
    assertEquals("rollouts.argoproj.io", crd.at("/metadata/name").asText());
    assertEquals("argoproj.io", crd.at("/spec/group").asText());
    assertEquals("Rollout", crd.at("/spec/names/kind").asText());
    assertEquals("rollouts", crd.at("/spec/names/plural").asText());
    assertEquals("rollout", crd.at("/spec/names/singular").asText());
    assertEquals(List.of("ro"), texts(crd.at("/spec/names/shortNames")));
    assertEquals("Namespaced", crd.at("/spec/scope").asText());
    assertEquals("v1alpha1", version.get("name").asText());
    assertTrue(version.get("served").asBoolean());
    assertTrue(version.get("storage").asBoolean());
  }

  @Test
  void hasStatusAndScaleSubresources() {
    JsonNode subresources = version.get("subresources");

    assertTrue(subresources.get("status").isObject());
    assertEquals(".spec.replicas", subresources.at("/scale/specReplicasPath").asText());
    assertEquals(".status.HPAReplicas", subresources.at("/scale/statusReplicasPath").asText());
    assertEquals(".status.selector", subresources.at("/scale/labelSelectorPath").asText());
  }

  @Test
  void hasArgoPrinterColumnsPlusPhase() {
    // crd-generator 7.9.0 orders columns by JSON path (case-insensitive), not by declaration, so
    // only the set is asserted; kubectl therefore shows Age first, then Desired, Available, Phase,
    // Current, Up-to-date.
    Map<String, String> columns = new TreeMap<>();
    for (JsonNode column : version.get("additionalPrinterColumns")) {
      columns.put(
          column.get("name").asText(),
          column.get("jsonPath").asText() + " " + column.get("type").asText());
    }

    assertEquals(
        Map.of(
            "Desired", ".spec.replicas integer",
            "Current", ".status.replicas integer",
            "Up-to-date", ".status.updatedReplicas integer",
            "Available", ".status.availableReplicas integer",
            "Phase", ".status.phase string",
            "Age", ".metadata.creationTimestamp date"),
        columns);
  }

  @Test
  void marksIntOrStringFields() {
    for (String path :
        List.of(
            "spec.strategy.canary.maxSurge",
            "spec.strategy.canary.maxUnavailable",
            "spec.strategy.blueGreen.maxUnavailable",
            "spec.strategy.canary.steps[].pause.duration")) {
      JsonNode field = property(path);
      assertTrue(
          field.path("x-kubernetes-int-or-string").asBoolean(),
          path + " is not int-or-string: " + field);
      assertFalse(field.has("type"), path + " must not also declare a type");
    }
  }

  @Test
  void preservesUnknownFieldsOnlyWhereArgoIsSchemaless() {
    Set<String> preserving = new TreeSet<>();
    walk(
        schema,
        "",
        (path, node) -> {
          if (node.path("x-kubernetes-preserve-unknown-fields").asBoolean()) {
            preserving.add(path);
          }
        });

    Set<String> objects =
        Set.of(
            "spec.strategy.canary.trafficRouting.plugins",
            "spec.strategy.canary.steps[].plugin.config",
            "status.canary.stepPluginStatuses[].status");
    // Pod-template quantities are schemaless so that YAML numbers are accepted, as for Pods
    // (build-tools/CrdQuantities).
    Set<String> others = new TreeSet<>(preserving);
    others.removeAll(objects);
    assertTrue(preserving.containsAll(objects), preserving.toString());
    for (String path : others) {
      String last = path.substring(path.lastIndexOf('.') + 1);
      assertTrue(
          Set.of("limits", "requests", "overhead", "divisor", "sizeLimit").contains(last), path);
      assertFalse(property(path).has("type"), path + " must not declare a type");
    }
    for (String path : objects) {
      assertEquals("object", property(path).path("type").asText(), path);
    }
  }

  @Test
  void isStructural() {
    // Every node needs a type unless it is int-or-string or schemaless (apiextensions
    // structural-schema rule).
    List<String> untyped = new ArrayList<>();
    walk(
        schema,
        "",
        (path, node) -> {
          boolean typed = node.hasNonNull("type");
          boolean exempt =
              node.path("x-kubernetes-int-or-string").asBoolean()
                  || node.path("x-kubernetes-preserve-unknown-fields").asBoolean();
          if (!typed && !exempt) {
            untyped.add(path);
          }
        });

    assertEquals(List.of(), untyped);
    assertFalse(new String(crdBytes, StandardCharsets.UTF_8).contains("$ref"));
  }

  @Test
  void typesStatusFieldsLikeArgo() {
    assertEquals("string", property("status.observedGeneration").path("type").asText());
    assertEquals("string", property("status.workloadObservedGeneration").path("type").asText());
    assertEquals("integer", property("status.HPAReplicas").path("type").asText());
    assertEquals("string", property("status.selector").path("type").asText());
    assertEquals("integer", property("status.currentStepIndex").path("type").asText());
  }

  @Test
  void givesEveryIntegerTheFormatArgoDeclares() {
    assertEquals("int32", property("spec.replicas").path("format").asText());
    assertEquals("int32", property("status.HPAReplicas").path("format").asText());
    assertEquals(
        "int32", property("spec.strategy.canary.steps[].setWeight").path("format").asText());
    assertEquals(
        "int64",
        property("spec.template.spec.terminationGracePeriodSeconds").path("format").asText());
    assertEquals(
        "int64", property("spec.template.spec.securityContext.runAsUser").path("format").asText());
    List<String> unformatted = new ArrayList<>();
    walk(
        schema,
        "",
        (path, node) -> {
          if ("integer".equals(node.path("type").asText())
              && !node.path("format").asText().matches("int32|int64")) {
            unformatted.add(path);
          }
        });

    assertEquals(List.of(), unformatted);
  }

  @Test
  void keepsTheSelectorImmutable() {
    JsonNode rules = property("spec.selector").path("x-kubernetes-validations");

    assertEquals(1, rules.size());
    assertEquals("self == oldSelf", rules.at("/0/rule").asText());
    assertEquals(".spec.selector is immutable", rules.at("/0/message").asText());
  }

  @Test
  void describesThePodTemplateWithAFullSchema() {
    JsonNode container = property("spec.template.spec.containers[]");

    assertEquals("object", container.path("type").asText());
    assertTrue(
        container
            .at(
                "/properties/readinessProbe/properties/httpGet/properties/port/x-kubernetes-int-or-string")
            .asBoolean());
    assertTrue(
        container
            .at("/properties/resources/properties/limits/x-kubernetes-preserve-unknown-fields")
            .asBoolean());
    assertFalse(container.at("/properties/resources/properties/limits").has("type"));
    assertEquals("object", property("spec.template.metadata.labels").path("type").asText());
    assertTrue(crdBytes.length < 700 * 1024, "CRD is " + crdBytes.length + " bytes");
  }

  @Test
  void doesNotExposeUnknownPropertyBookkeeping() {
    List<String> leaked = new ArrayList<>();
    walk(
        schema,
        "",
        (path, node) -> {
          if (path.endsWith(".additionalProperties") || path.endsWith(".additionalProperty")) {
            leaked.add(path);
          }
        });

    assertEquals(List.of(), leaked);
  }

  @Test
  void matchesTheGoldenFile() throws IOException {
    JsonNode golden = YAML.readTree(read(GOLDEN_RESOURCE));

    assertEquals(
        golden,
        crd,
        "generated CRD differs from src/test/resources"
            + GOLDEN_RESOURCE
            + "; if the change is intended, run "
            + "`cp common/target/classes"
            + CRD_RESOURCE
            + " common/src/test/resources"
            + GOLDEN_RESOURCE
            + "`");
  }

  /** Looks up a schema property by a dotted path; {@code []} steps into array items. */
  private static JsonNode property(String path) {
    JsonNode node = schema;
    for (String segment : path.split("\\.")) {
      boolean array = segment.endsWith("[]");
      String name = array ? segment.substring(0, segment.length() - 2) : segment;
      node = node.path("properties").path(name);
      if (array) {
        node = node.path("items");
      }
    }
    assertFalse(node.isMissingNode(), "no schema for " + path);
    return node;
  }

  private interface Visitor {
    void visit(String path, JsonNode node);
  }

  /** Visits every schema node: properties, array items and map values ({@code {}}). */
  private static void walk(JsonNode node, String path, Visitor visitor) {
    if (!path.isEmpty()) {
      visitor.visit(path, node);
    }
    for (Map.Entry<String, JsonNode> property : node.path("properties").properties()) {
      walk(
          property.getValue(),
          path.isEmpty() ? property.getKey() : path + "." + property.getKey(),
          visitor);
    }
    if (node.has("items")) {
      walk(node.get("items"), path + "[]", visitor);
    }
    if (node.path("additionalProperties").isObject()) {
      walk(node.get("additionalProperties"), path + "{}", visitor);
    }
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(item -> out.add(item.asText()));
    return out;
  }

  private static byte[] read(String resource) throws IOException {
    try (InputStream in = RolloutCrdTest.class.getResourceAsStream(resource)) {
      assertNotNull(
          in, resource + " not on the test classpath (did crd-generator-maven-plugin run?)");
      return in.readAllBytes();
    }
  }
}
