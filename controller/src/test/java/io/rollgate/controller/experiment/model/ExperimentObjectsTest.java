package io.rollgate.controller.experiment.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.Service;
import io.rollgate.api.Experiment;
import io.rollgate.api.ExperimentTemplate;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The objects an Experiment owns (argo-spec.md 12.1). */
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
    assertEquals(Map.of("app", "c", "rollouts-pod-template-hash", "h"), svc.get().getSpec().getSelector());
  }
}
