package io.rollgate.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rollgate.api.AnalysisTemplateRef;
import io.rollgate.api.AnalysisTemplateSpec;
import io.rollgate.api.DryRun;
import io.rollgate.api.ModelJson;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class AnalysisTemplatesTest {

  static AnalysisTemplateSpec spec(String json) {
    return ModelJson.fromJson(json, AnalysisTemplateSpec.class);
  }

  static AnalysisTemplates.Lookup lookup(
      Map<String, AnalysisTemplateSpec> ns, Map<String, AnalysisTemplateSpec> cluster) {
    return new AnalysisTemplates.Lookup() {
      @Override
      public AnalysisTemplateSpec namespaced(String name) {
        return ns.get(name);
      }

      @Override
      public AnalysisTemplateSpec cluster(String name) {
        return cluster.get(name);
      }
    };
  }

  static AnalysisTemplateRef ref(String name, boolean cluster) {
    AnalysisTemplateRef r = new AnalysisTemplateRef();
    r.setTemplateName(name);
    if (cluster) {
      r.setClusterScope(true);
    }
    return r;
  }

  static List<String> metricNames(AnalysisTemplates.Flattened f) {
    return f.metrics().stream().map(m -> m.getName()).collect(Collectors.toList());
  }

  @Test
  void resolvesNestedTemplatesRecursivelyAndFlattensNamespacedBeforeCluster() throws Exception {
    var lookup =
        lookup(
            Map.of(
                "top",
                    spec(
                        "{\"metrics\":[{\"name\":\"a\"}],\"templates\":[{\"templateName\":\"c1\",\"clusterScope\":true},{\"templateName\":\"inner\"}]}"),
                "inner",
                    spec(
                        "{\"metrics\":[{\"name\":\"b\"}],\"templates\":[{\"templateName\":\"top\"}]}")),
            Map.of("c1", spec("{\"metrics\":[{\"name\":\"c\"}]}")));
    var templates = AnalysisTemplates.resolve(List.of(ref("top", false)), lookup);
    assertEquals(
        List.of("top", "inner", "c1"),
        templates.stream().map(AnalysisTemplates.Template::name).collect(Collectors.toList()));
    assertEquals(List.of("a", "b", "c"), metricNames(AnalysisTemplates.flatten(templates)));
  }

  @Test
  void duplicateReferencesAreUsedOnce() throws Exception {
    var lookup = lookup(Map.of("t", spec("{\"metrics\":[{\"name\":\"a\"}]}")), Map.of());
    var templates = AnalysisTemplates.resolve(List.of(ref("t", false), ref("t", false)), lookup);
    assertEquals(List.of("a"), metricNames(AnalysisTemplates.flatten(templates)));
  }

  @Test
  void missingTemplatesAreNamedWithTheirKind() {
    var lookup = lookup(Map.of(), Map.of());
    var e1 =
        assertThrows(
            AnalysisSpecException.class,
            () -> AnalysisTemplates.resolve(List.of(ref("x", false)), lookup));
    assertEquals("AnalysisTemplate 'x' not found", e1.getMessage());
    var e2 =
        assertThrows(
            AnalysisSpecException.class,
            () -> AnalysisTemplates.resolve(List.of(ref("y", true)), lookup));
    assertEquals("ClusterAnalysisTemplate 'y' not found", e2.getMessage());
  }

  @Test
  void duplicateMetricNamesAreRejected() throws Exception {
    var lookup =
        lookup(
            Map.of(
                "a",
                spec("{\"metrics\":[{\"name\":\"m\"}]}"),
                "b",
                spec("{\"metrics\":[{\"name\":\"m\"}]}")),
            Map.of());
    var templates = AnalysisTemplates.resolve(List.of(ref("a", false), ref("b", false)), lookup);
    var e = assertThrows(AnalysisSpecException.class, () -> AnalysisTemplates.flatten(templates));
    assertEquals("two metrics have the same name 'm'", e.getMessage());
  }

  @Test
  void sameArgumentMustAgreeAcrossTemplates() throws Exception {
    var agree =
        lookup(
            Map.of(
                "a", spec("{\"args\":[{\"name\":\"x\",\"value\":\"1\"},{\"name\":\"y\"}]}"),
                "b", spec("{\"args\":[{\"name\":\"x\",\"value\":\"1\"}]}")),
            Map.of());
    var f =
        AnalysisTemplates.flatten(
            AnalysisTemplates.resolve(List.of(ref("a", false), ref("b", false)), agree));
    assertEquals(
        List.of("x", "y"), f.args().stream().map(a -> a.getName()).collect(Collectors.toList()));
    var disagree =
        lookup(
            Map.of(
                "a",
                spec("{\"args\":[{\"name\":\"x\",\"value\":\"1\"}]}"),
                "b",
                spec("{\"args\":[{\"name\":\"x\",\"value\":\"2\"}]}")),
            Map.of());
    var templates = AnalysisTemplates.resolve(List.of(ref("a", false), ref("b", false)), disagree);
    var e = assertThrows(AnalysisSpecException.class, () -> AnalysisTemplates.flatten(templates));
    assertEquals(
        "Argument `x` specified multiple times with different values: '1', '2'", e.getMessage());
  }

  @Test
  void anArgumentOnlyDeclaredByOneTemplateTakesTheValueAnotherGives() throws Exception {
    var partial =
        lookup(
            Map.of(
                "a", spec("{\"args\":[{\"name\":\"host\",\"value\":\"h\"},{\"name\":\"repo\"}]}"),
                "b", spec("{\"args\":[{\"name\":\"host\"},{\"name\":\"repo\",\"value\":\"r\"}]}")),
            Map.of());
    var f =
        AnalysisTemplates.flatten(
            AnalysisTemplates.resolve(List.of(ref("a", false), ref("b", false)), partial));
    assertEquals(
        List.of("host=h", "repo=r"),
        f.args().stream().map(a -> a.getName() + "=" + a.getValue()).collect(Collectors.toList()));
  }

  @Test
  void dryRunAndRetentionRulesMayNameAMetricOnce() throws Exception {
    DryRun d = new DryRun();
    d.setMetricName("m");
    var e =
        assertThrows(
            AnalysisSpecException.class,
            () -> AnalysisTemplates.mergeDryRun(List.of(d), List.of(d)));
    assertEquals("two Dry-Run metric rules have the same name 'm'", e.getMessage());
    var lookup =
        lookup(
            Map.of(
                "a", spec("{\"measurementRetention\":[{\"metricName\":\"m\",\"limit\":2}]}"),
                "b", spec("{\"measurementRetention\":[{\"metricName\":\"m\",\"limit\":3}]}")),
            Map.of());
    var templates = AnalysisTemplates.resolve(List.of(ref("a", false), ref("b", false)), lookup);
    var e2 = assertThrows(AnalysisSpecException.class, () -> AnalysisTemplates.flatten(templates));
    assertEquals("two Measurement Retention metric rules have the same name 'm'", e2.getMessage());
  }
}
