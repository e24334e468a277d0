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
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Checks the AnalysisTemplate, ClusterAnalysisTemplate and AnalysisRun CRDs generated into {@code
 * target/classes} (and post-processed by {@code build-tools/CrdWithoutStatusSubresource.java})
 * against docs/compatibility.md §0 and §9.
 */
class AnalysisCrdTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Test
  void namesTheAnalysisRunKindWithoutStatusSubresource() throws IOException {
    JsonNode crd = crd("analysisruns");
    JsonNode version = crd.at("/spec/versions/0");

    assertNames(crd, "AnalysisRun", "analysisruns", "analysisrun", "ar", "Namespaced");
    assertTrue(version.get("subresources").isObject());
    assertEquals(
        0, version.get("subresources").size(), "AnalysisRun must have no subresources: " + version);
    assertEquals(
        Map.of("Status", ".status.phase string", "Age", ".metadata.creationTimestamp date"),
        columns(version));
    assertTrue(
        version.at("/schema/openAPIV3Schema/properties/status/properties").has("metricResults"));
  }

  @Test
  void namesTheTemplateKindsWithoutStatus() throws IOException {
    JsonNode namespaced = crd("analysistemplates");
    JsonNode cluster = crd("clusteranalysistemplates");

    assertNames(
        namespaced,
        "AnalysisTemplate",
        "analysistemplates",
        "analysistemplate",
        "at",
        "Namespaced");
    assertNames(
        cluster,
        "ClusterAnalysisTemplate",
        "clusteranalysistemplates",
        "clusteranalysistemplate",
        "cat",
        "Cluster");
    for (JsonNode crd : List.of(namespaced, cluster)) {
      JsonNode version = crd.at("/spec/versions/0");
      assertFalse(version.has("subresources"), version.toString());
      assertEquals(Map.of("Age", ".metadata.creationTimestamp date"), columns(version));
      assertFalse(version.at("/schema/openAPIV3Schema/properties").has("status"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"analysisruns", "analysistemplates", "clusteranalysistemplates"})
  void marksIntOrStringCountsAndLimits(String plural) throws IOException {
    JsonNode metric = schema(plural).at("/properties/spec/properties/metrics/items/properties");

    for (String field :
        List.of(
            "count",
            "failureLimit",
            "inconclusiveLimit",
            "consecutiveErrorLimit",
            "consecutiveSuccessLimit")) {
      assertTrue(metric.at("/" + field + "/x-kubernetes-int-or-string").asBoolean(), field);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"analysisruns", "analysistemplates", "clusteranalysistemplates"})
  void preservesUnknownFieldsOnlyForOtherProvidersAndSchemalessObjects(String plural)
      throws IOException {
    Set<String> preserving = new TreeSet<>();
    walk(
        schema(plural),
        "",
        (path, node) -> {
          if (node.path("x-kubernetes-preserve-unknown-fields").asBoolean()) {
            preserving.add(path);
          }
        });

    assertEquals(
        Set.of(
            "spec.metrics[].provider",
            "spec.metrics[].provider.job.spec",
            "spec.metrics[].provider.web.jsonBody"),
        preserving);
  }

  @ParameterizedTest
  @ValueSource(strings = {"analysisruns", "analysistemplates", "clusteranalysistemplates"})
  void isStructural(String plural) throws IOException {
    List<String> untyped = new ArrayList<>();
    walk(
        schema(plural),
        "",
        (path, node) -> {
          boolean exempt =
              node.path("x-kubernetes-int-or-string").asBoolean()
                  || node.path("x-kubernetes-preserve-unknown-fields").asBoolean();
          if (!node.hasNonNull("type") && !exempt) {
            untyped.add(path);
          }
          if (path.endsWith(".additionalProperties") || path.endsWith(".additionalProperty")) {
            untyped.add(path + " (unknown-property bookkeeping leaked)");
          }
        });

    assertEquals(List.of(), untyped);
    assertFalse(
        new String(
                read("/META-INF/fabric8/" + plural + ".argoproj.io-v1.yml"), StandardCharsets.UTF_8)
            .contains("$ref"));
  }

  @Test
  void describesArgumentSourcesOfRunsAndTemplates() throws IOException {
    JsonNode valueFrom =
        schema("analysisruns").at("/properties/spec/properties/args/items/properties/valueFrom");

    assertEquals(
        Set.of("name", "key"), fieldNames(valueFrom.at("/properties/secretKeyRef/properties")));
    assertTrue(valueFrom.at("/properties/fieldRef/properties").has("fieldPath"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"analysisruns", "analysistemplates", "clusteranalysistemplates"})
  void matchesTheGoldenFile(String plural) throws IOException {
    String file = plural + ".argoproj.io-v1.yml";
    JsonNode golden = YAML.readTree(read("/golden/" + file));

    assertEquals(
        golden,
        crd(plural),
        "generated CRD differs from src/test/resources/golden/"
            + file
            + "; if the change is intended, run "
            + "`cp common/target/classes/META-INF/fabric8/"
            + file
            + " common/src/test/resources/golden/`");
  }

  private static void assertNames(
      JsonNode crd, String kind, String plural, String singular, String shortName, String scope) {
    assertEquals("apiextensions.k8s.io/v1", crd.get("apiVersion").asText());
    assertEquals(plural + ".argoproj.io", crd.at("/metadata/name").asText());
    assertEquals("argoproj.io", crd.at("/spec/group").asText());
    assertEquals(kind, crd.at("/spec/names/kind").asText());
    assertEquals(plural, crd.at("/spec/names/plural").asText());
    assertEquals(singular, crd.at("/spec/names/singular").asText());
    assertEquals(List.of(shortName), texts(crd.at("/spec/names/shortNames")));
    assertEquals(scope, crd.at("/spec/scope").asText());
    assertEquals(1, crd.at("/spec/versions").size());
    assertEquals("v1alpha1", crd.at("/spec/versions/0/name").asText());
    assertTrue(crd.at("/spec/versions/0/served").asBoolean());
    assertTrue(crd.at("/spec/versions/0/storage").asBoolean());
  }

  private static Map<String, String> columns(JsonNode version) {
    Map<String, String> columns = new TreeMap<>();
    for (JsonNode column : version.get("additionalPrinterColumns")) {
      columns.put(
          column.get("name").asText(),
          column.get("jsonPath").asText() + " " + column.get("type").asText());
    }
    return columns;
  }

  private static JsonNode crd(String plural) throws IOException {
    return YAML.readTree(read("/META-INF/fabric8/" + plural + ".argoproj.io-v1.yml"));
  }

  private static JsonNode schema(String plural) throws IOException {
    return crd(plural).at("/spec/versions/0/schema/openAPIV3Schema");
  }

  /** Visits every schema node: properties, array items and map values ({@code {}}). */
  private static void walk(JsonNode node, String path, BiConsumer<String, JsonNode> visitor) {
    if (!path.isEmpty()) {
      visitor.accept(path, node);
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

  private static Set<String> fieldNames(JsonNode node) {
    Set<String> names = new TreeSet<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(item -> out.add(item.asText()));
    return out;
  }

  private static byte[] read(String resource) throws IOException {
    try (InputStream in = AnalysisCrdTest.class.getResourceAsStream(resource)) {
      assertNotNull(
          in, resource + " not on the test classpath (did crd-generator-maven-plugin run?)");
      return in.readAllBytes();
    }
  }
}
