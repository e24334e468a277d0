package io.rollgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class AnalysisModelTest {

  @Test
  void roundTripsAnalysisRunUnchanged() {
    JsonAssert.assertSameJson(
        Fixtures.tree("analysisrun-full.json"),
        ModelJson.toTree(Fixtures.analysisRun("analysisrun-full.json")));
  }

  @Test
  void roundTripsAnalysisTemplateUnchanged() {
    JsonAssert.assertSameJson(
        Fixtures.tree("analysistemplate-full.json"),
        ModelJson.toTree(Fixtures.analysisTemplate("analysistemplate-full.json")));
  }

  @Test
  void roundTripsClusterAnalysisTemplateUnchanged_withAPlainObjectMapper() throws Exception {
    ObjectMapper plain = new ObjectMapper();
    ObjectNode tree = (ObjectNode) Fixtures.tree("analysistemplate-full.json");
    tree.put("kind", "ClusterAnalysisTemplate");
    ((ObjectNode) tree.get("metadata")).remove("namespace");

    ClusterAnalysisTemplate template = plain.treeToValue(tree, ClusterAnalysisTemplate.class);

    JsonAssert.assertSameJson(tree, plain.valueToTree(template));
  }

  @Test
  void roundTripsAnalysisRunUnchanged_withAPlainObjectMapper() throws Exception {
    ObjectMapper plain = new ObjectMapper();

    AnalysisRun run = plain.readValue(Fixtures.text("analysisrun-full.json"), AnalysisRun.class);

    JsonAssert.assertSameJson(Fixtures.tree("analysisrun-full.json"), plain.valueToTree(run));
  }

  @Test
  void fullFixturesMapEveryPropertyToAModelField() {
    AnalysisRun run = Fixtures.analysisRun("analysisrun-full.json");
    AnalysisTemplate template = Fixtures.analysisTemplate("analysistemplate-full.json");

    assertEquals(Map.of(), walk(run).unknown);
    assertEquals(
        Map.of(),
        ModelWalker.walk(
                template.getAdditionalProperties(),
                template.getMetadata(),
                template.getSpec(),
                null)
            .unknown);
  }

  @Test
  void fullFixturesTogetherSetEveryModelField() {
    AnalysisTemplate template = Fixtures.analysisTemplate("analysistemplate-full.json");
    Set<String> set = new TreeSet<>(walk(Fixtures.analysisRun("analysisrun-full.json")).setFields);
    set.addAll(
        ModelWalker.walk(
                template.getAdditionalProperties(),
                template.getMetadata(),
                template.getSpec(),
                null)
            .setFields);

    Set<String> missing =
        new TreeSet<>(
            ModelWalker.allModelFields(
                AnalysisRunSpec.class, AnalysisRunStatus.class, AnalysisTemplateSpec.class));
    missing.removeAll(set);

    assertEquals(Set.of(), missing, "model fields no full fixture sets");
  }

  @Test
  void parsesAnalysisRunIntoTypedFields() {
    AnalysisRun run = Fixtures.analysisRun("analysisrun-full.json");

    Metric rate = run.getSpec().getMetrics().get(0);
    assertEquals(new IntOrString(5), rate.getCount());
    assertEquals(new IntOrString("{{args.inconclusive-limit}}"), rate.getInconclusiveLimit());
    assertEquals(20L, rate.getProvider().getPrometheus().getTimeout());
    assertEquals("1m", rate.getProvider().getPrometheus().getRangeQuery().getStep());
    assertEquals(
        "reader",
        rate.getProvider().getPrometheus().getAuthentication().getBasicAuth().getUsername());
    WebMetric web = run.getSpec().getMetrics().get(1).getProvider().getWeb();
    assertEquals(1.5, web.getJsonBody().at("/deep/n").asDouble());
    assertEquals("Authorization", web.getHeaders().get(0).getKey());
    JobMetric job = run.getSpec().getMetrics().get(2).getProvider().getJob();
    assertEquals("qa", job.getMetadata().getLabels().get("team"));
    assertEquals("busybox:1.36", job.getSpec().at("/template/spec/containers/0/image").asText());
    assertEquals(
        "smoke-token", run.getSpec().getArgs().get(2).getValueFrom().getSecretKeyRef().getName());
    assertEquals(600, run.getSpec().getTtlStrategy().getSecondsAfterSuccess());

    AnalysisRunStatus status = run.getStatus();
    assertEquals(AnalysisPhase.RUNNING, status.getPhase());
    MetricResult result = status.getMetricResults().get(0);
    assertEquals(1, result.getError());
    assertEquals(AnalysisPhase.ERROR, result.getMeasurements().get(1).getPhase());
    assertEquals("w1", result.getMeasurements().get(2).getMetadata().get("warnings"));
    assertEquals(
        "0b5c.integration.1",
        status.getMetricResults().get(1).getMeasurements().get(0).getMetadata().get("job-name"));
    assertEquals(1, status.getDryRunSummary().getSuccessful());
  }

  @Test
  void keepsUnknownProvidersAndFieldsThroughReadModifyWrite() {
    AnalysisRun run = Fixtures.analysisRun("analysisrun-unknown-fields.json");

    MetricProviderConfig provider = run.getSpec().getMetrics().get(0).getProvider();
    assertNull(provider.getPrometheus());
    assertEquals(Set.of("datadog", "plugin"), provider.getAdditionalProperties().keySet());
    run.getStatus().setPhase(AnalysisPhase.FAILED);
    run.getStatus().getMetricResults().get(0).setCount(1);

    ObjectNode expected = (ObjectNode) Fixtures.tree("analysisrun-unknown-fields.json");
    ((ObjectNode) expected.get("status")).put("phase", "Failed");
    ((ObjectNode) expected.at("/status/metricResults/0")).put("count", 1);
    JsonAssert.assertSameJson(expected, ModelJson.toTree(run));
  }

  @Test
  void comparesByValue() {
    AnalysisRun a = Fixtures.analysisRun("analysisrun-full.json");
    AnalysisRun b = Fixtures.analysisRun("analysisrun-full.json");

    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertEquals(a.getSpec(), ModelJson.deepCopy(a.getSpec()));
    b.getStatus().getMetricResults().get(0).getMeasurements().get(0).setValue("[0.1]");
    assertNotEquals(a, b);
    b = Fixtures.analysisRun("analysisrun-full.json");
    b.getSpec().getMetrics().get(2).getProvider().getJob().getMetadata().getLabels().put("x", "y");
    assertNotEquals(a.getSpec(), b.getSpec());
    b = Fixtures.analysisRun("analysisrun-full.json");
    b.getSpec().getMetrics().get(0).getProvider().setAdditionalProperty("datadog", Map.of());
    assertNotEquals(a.getSpec(), b.getSpec());
  }

  @Test
  void ordersPhasesBySeverityAsArgo() {
    assertTrue(AnalysisPhase.isWorse(AnalysisPhase.FAILED, AnalysisPhase.ERROR));
    assertTrue(AnalysisPhase.isWorse(AnalysisPhase.ERROR, AnalysisPhase.INCONCLUSIVE));
    assertTrue(AnalysisPhase.isWorse(AnalysisPhase.INCONCLUSIVE, AnalysisPhase.PENDING));
    assertTrue(AnalysisPhase.isWorse(AnalysisPhase.PENDING, AnalysisPhase.RUNNING));
    assertTrue(AnalysisPhase.isWorse(AnalysisPhase.RUNNING, AnalysisPhase.SUCCESSFUL));
    assertTrue(AnalysisPhase.isWorse(AnalysisPhase.SUCCESSFUL, null));
    assertFalse(AnalysisPhase.isWorse(AnalysisPhase.SUCCESSFUL, AnalysisPhase.SUCCESSFUL));
    assertFalse(AnalysisPhase.isWorse("Unknown", AnalysisPhase.SUCCESSFUL));
    assertTrue(AnalysisPhase.isCompleted(AnalysisPhase.INCONCLUSIVE));
    assertFalse(AnalysisPhase.isCompleted(AnalysisPhase.RUNNING));
    assertFalse(AnalysisPhase.isCompleted(null));
  }

  private static ModelWalker walk(AnalysisRun run) {
    return ModelWalker.walk(
        run.getAdditionalProperties(), run.getMetadata(), run.getSpec(), run.getStatus());
  }
}
