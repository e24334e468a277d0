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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * Checks the Experiment CRD generated into {@code target/classes} (and post-processed by {@code
 * build-tools/CrdWithoutStatusSubresource.java}) against docs/compatibility.md §0 and §12.1.
 */
class ExperimentCrdTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final String FILE = "experiments.argoproj.io-v1.yml";

  @Test
  void namesTheExperimentKindWithoutStatusSubresource() throws IOException {
    JsonNode crd = crd();
    JsonNode version = crd.at("/spec/versions/0");

    assertEquals("experiments.argoproj.io", crd.at("/metadata/name").asText());
    assertEquals("Experiment", crd.at("/spec/names/kind").asText());
    assertEquals("experiment", crd.at("/spec/names/singular").asText());
    assertEquals("exp", crd.at("/spec/names/shortNames/0").asText());
    assertEquals("Namespaced", crd.at("/spec/scope").asText());
    assertEquals("v1alpha1", version.get("name").asText());
    assertEquals(
        0, version.get("subresources").size(), "Experiment must have no subresources: " + version);
    Map<String, String> columns = new java.util.TreeMap<>();
    version
        .get("additionalPrinterColumns")
        .forEach(c -> columns.put(c.get("name").asText(), c.get("jsonPath").asText()));
    assertEquals(Map.of("Status", ".status.phase", "Age", ".metadata.creationTimestamp"), columns);
  }

  @Test
  void describesTemplatesAnalysesAndStatus() throws IOException {
    JsonNode spec = crd().at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties");
    JsonNode status =
        crd().at("/spec/versions/0/schema/openAPIV3Schema/properties/status/properties");

    assertEquals(
        Set.of(
            "templates",
            "duration",
            "progressDeadlineSeconds",
            "terminate",
            "analyses",
            "scaleDownDelaySeconds",
            "dryRun",
            "measurementRetention",
            "analysisRunMetadata"),
        names(spec));
    assertEquals(
        Set.of("name", "replicas", "minReadySeconds", "selector", "template", "service"),
        names(spec.at("/templates/items/properties")));
    assertEquals(
        Set.of("name", "templateName", "clusterScope", "args", "requiredForCompletion"),
        names(spec.at("/analyses/items/properties")));
    assertEquals(
        Set.of("phase", "message", "templateStatuses", "availableAt", "conditions", "analysisRuns"),
        names(status));
    assertEquals(
        Set.of(
            "name",
            "replicas",
            "updatedReplicas",
            "readyReplicas",
            "availableReplicas",
            "collisionCount",
            "status",
            "message",
            "lastTransitionTime",
            "serviceName",
            "podTemplateHash"),
        names(status.at("/templateStatuses/items/properties")));
    assertEquals(
        Set.of("name", "analysisRun", "phase", "message"),
        names(status.at("/analysisRuns/items/properties")));
  }

  @Test
  void isStructural() throws IOException {
    List<String> untyped = new ArrayList<>();
    walk(
        crd().at("/spec/versions/0/schema/openAPIV3Schema"),
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
  }

  @Test
  void matchesTheGoldenFile() throws IOException {
    assertEquals(
        YAML.readTree(read("/golden/" + FILE)),
        crd(),
        "generated CRD differs from src/test/resources/golden/"
            + FILE
            + "; if the change is intended, run "
            + "`cp common/target/classes/META-INF/fabric8/"
            + FILE
            + " common/src/test/resources/golden/`");
  }

  @Test
  void roundTripsAnExperimentWithUnknownFields() {
    String json =
        "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"Experiment\",\"metadata\":{\"name\":\"e\"},"
            + "\"spec\":{\"duration\":\"1m\",\"templates\":[{\"name\":\"baseline\",\"replicas\":2,"
            + "\"selector\":{\"matchLabels\":{\"app\":\"b\"}},\"service\":{},\"future\":1}],"
            + "\"analyses\":[{\"name\":\"a\",\"templateName\":\"t\",\"requiredForCompletion\":true,"
            + "\"args\":[{\"name\":\"x\",\"value\":\"1\"}]}]},"
            + "\"status\":{\"phase\":\"Running\",\"availableAt\":\"2024-01-01T00:00:00Z\","
            + "\"templateStatuses\":[{\"name\":\"baseline\",\"status\":\"Running\",\"availableReplicas\":2}],"
            + "\"analysisRuns\":[{\"name\":\"a\",\"analysisRun\":\"e-a\",\"phase\":\"Running\"}]}}";
    Experiment e = ModelJson.fromJson(json, Experiment.class);

    assertEquals("baseline", e.getSpec().getTemplates().get(0).getName());
    assertEquals(1, e.getSpec().getTemplates().get(0).getAdditionalProperties().get("future"));
    assertTrue(e.getSpec().getAnalyses().get(0).getRequiredForCompletion());
    assertEquals("e-a", e.getStatus().getAnalysisRuns().get(0).getAnalysisRun());
    assertEquals(
        ModelJson.mapper().valueToTree(ModelJson.fromJson(json, Object.class)),
        ModelJson.toTree(e));
    assertFalse(
        e.getSpec()
            .getTemplates()
            .get(0)
            .getService()
            .getAdditionalProperties()
            .containsKey("name"));
  }

  private static Set<String> names(JsonNode node) {
    Set<String> names = new TreeSet<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

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

  private static JsonNode crd() throws IOException {
    return YAML.readTree(read("/META-INF/fabric8/" + FILE));
  }

  private static byte[] read(String resource) throws IOException {
    try (InputStream in = ExperimentCrdTest.class.getResourceAsStream(resource)) {
      assertNotNull(
          in, resource + " not on the test classpath (did crd-generator-maven-plugin run?)");
      return in.readAllBytes();
    }
  }
}
