package io.rollgate.controller.experiment.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.analysis.AnalysisTemplates;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisTemplateSpec;
import io.rollgate.api.Experiment;
import io.rollgate.api.ExperimentTemplate;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The objects an Experiment owns (docs/compatibility.md §12.1). */
class ExperimentObjectsTest {

  private static final String EXPERIMENT =
      """
      metadata: {name: ex, namespace: shop, uid: u-1}
      spec:
        templates:
        - name: baseline
          service: {}
          selector: {matchLabels: {app: b}}
          template: {metadata: {labels: {app: b}}, spec: {containers: [{name: c, image: "app:v1"}]}}
        - name: canary
          service: {}
          selector: {matchLabels: {app: c}}
          template:
            metadata: {labels: {app: c}}
            spec: {containers: [{name: c, image: "app:v2", ports: [{name: http, containerPort: 8080}]}]}
        analyses:
        - name: compare
          templateName: compare
          args:
          - {name: baseline-hash, value: "{{templates.baseline.podTemplateHash}}"}
          - {name: canary-hash, value: "{{templates.canary.podTemplateHash}}"}
      """;

  private static final String TEMPLATE =
      """
      args: [{name: baseline-hash}, {name: canary-hash}]
      metrics:
      - name: m
        provider: {job: {spec: {template: {spec: {containers: [{name: j, image: busybox}], restartPolicy: Never}}}}}
      """;

  private static Experiment experiment() throws Exception {
    return new YAMLMapper().readValue(EXPERIMENT, Experiment.class);
  }

  @Test
  void createsNoService_whenNoContainerDeclaresAPort() throws Exception {
    Experiment ex = experiment();
    ExperimentTemplate baseline = ex.getSpec().getTemplates().get(0);

    assertTrue(ExperimentObjects.service(ex, baseline, "h").isEmpty());
  }

  @Test
  void createsAServiceWithTheContainerPorts_whenAContainerDeclaresOne() throws Exception {
    Experiment ex = experiment();
    ExperimentTemplate canary = ex.getSpec().getTemplates().get(1);

    Optional<Service> svc = ExperimentObjects.service(ex, canary, "h");

    assertEquals("ex-canary", svc.orElseThrow().getMetadata().getName());
    assertEquals(8080, svc.get().getSpec().getPorts().get(0).getPort());
    assertEquals(
        Map.of("app", "c", "rollouts-pod-template-hash", "h"), svc.get().getSpec().getSelector());
  }

  @Test
  void passesEachTemplatesPodTemplateHashToTheAnalysisRun() throws Exception {
    Experiment ex = experiment();
    AnalysisTemplateSpec template =
        new YAMLMapper().readValue(TEMPLATE, AnalysisTemplateSpec.class);
    AnalysisTemplates.Lookup lookup =
        new AnalysisTemplates.Lookup() {
          @Override
          public AnalysisTemplateSpec namespaced(String name) {
            return "compare".equals(name) ? template : null;
          }

          @Override
          public AnalysisTemplateSpec cluster(String name) {
            return null;
          }
        };
    Map<String, ReplicaSet> replicaSets =
        Map.of(
            "ex-baseline",
                ExperimentObjects.replicaSet(ex, ex.getSpec().getTemplates().get(0), "b1b1b1"),
            "ex-canary",
                ExperimentObjects.replicaSet(ex, ex.getSpec().getTemplates().get(1), "c2c2c2"));

    AnalysisRun run =
        ExperimentObjects.analysisRun(
            ex, ex.getSpec().getAnalyses().get(0), lookup, "2026-01-01T10:00:00Z", replicaSets);

    assertEquals("ex-compare", run.getMetadata().getName());
    assertEquals("baseline-hash", run.getSpec().getArgs().get(0).getName());
    assertEquals("b1b1b1", run.getSpec().getArgs().get(0).getValue());
    assertEquals("c2c2c2", run.getSpec().getArgs().get(1).getValue());
  }
}
