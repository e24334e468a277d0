package io.rollgate.controller.experiment.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.analysis.AnalysisSpecException;
import io.rollgate.api.Argument;
import io.rollgate.api.Experiment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Placeholders in an Experiment's analysis arguments ({@code spec.analyses[].args[].value}). */
class ExperimentArgsTest {

  private static final String EXPERIMENT =
      """
      metadata: {name: ex, namespace: shop, uid: u-1}
      spec:
        duration: 30s
        templates:
        - name: baseline
          selector: {matchLabels: {app: b}}
          template: {metadata: {labels: {app: b}}, spec: {containers: [{name: c, image: "app:v1"}]}}
        - name: canary
          selector: {matchLabels: {app: c}}
          template: {metadata: {labels: {app: c}}, spec: {containers: [{name: c, image: "app:v2"}]}}
      """;

  private static Experiment experiment() throws Exception {
    return new YAMLMapper().readValue(EXPERIMENT, Experiment.class);
  }

  private static Map<String, ReplicaSet> replicaSets() throws Exception {
    Experiment ex = experiment();
    return Map.of(
        "ex-baseline",
            ExperimentObjects.replicaSet(ex, ex.getSpec().getTemplates().get(0), "b1b1b1"),
        "ex-canary",
            ExperimentObjects.replicaSet(ex, ex.getSpec().getTemplates().get(1), "c2c2c2"));
  }

  private static Argument arg(String name, String value) {
    Argument a = new Argument();
    a.setName(name);
    a.setValue(value);
    return a;
  }

  @Test
  void substitutesEachTemplatesPodTemplateHashAndReplicaSetName() throws Exception {
    List<Argument> out =
        ExperimentArgs.resolve(
            List.of(
                arg("baseline-hash", "{{templates.baseline.podTemplateHash}}"),
                arg("canary-hash", "{{ templates.canary.podTemplateHash }}"),
                arg(
                    "selector",
                    "rollouts-pod-template-hash={{templates.canary.podTemplateHash}},app=c"),
                arg("rs", "{{templates.baseline.replicaset.name}}"),
                arg("plain", "no placeholder"),
                arg("none", null)),
            experiment(),
            null,
            replicaSets());

    assertEquals("b1b1b1", out.get(0).getValue());
    assertEquals("c2c2c2", out.get(1).getValue(), "whitespace inside the braces is ignored");
    assertEquals("rollouts-pod-template-hash=c2c2c2,app=c", out.get(2).getValue());
    assertEquals("ex-baseline", out.get(3).getValue());
    assertEquals("no placeholder", out.get(4).getValue());
    assertNull(out.get(5).getValue());
    assertEquals("none", out.get(5).getName());
  }

  @Test
  void substitutesAvailableAtAndFinishedAt_whenTheExperimentIsAvailable() throws Exception {
    List<Argument> out =
        ExperimentArgs.resolve(
            List.of(
                arg("from", "{{experiment.availableAt}}"), arg("to", "{{experiment.finishedAt}}")),
            experiment(),
            "2026-01-01T10:00:00Z",
            replicaSets());

    assertEquals("2026-01-01T10:00:00Z", out.get(0).getValue());
    assertEquals("2026-01-01T10:00:30Z", out.get(1).getValue());
  }

  @Test
  void failsOnAnUnknownPlaceholder() throws Exception {
    AnalysisSpecException e =
        assertThrows(
            AnalysisSpecException.class,
            () ->
                ExperimentArgs.resolve(
                    List.of(arg("x", "{{templates.missing.podTemplateHash}}")),
                    experiment(),
                    null,
                    replicaSets()));
    assertEquals("failed to resolve {{templates.missing.podTemplateHash}}", e.getMessage());
  }

  @Test
  void failsOnATemplateHash_whenItsReplicaSetDoesNotExistYet() throws Exception {
    assertThrows(
        AnalysisSpecException.class,
        () ->
            ExperimentArgs.resolve(
                List.of(arg("x", "{{templates.canary.podTemplateHash}}")),
                experiment(),
                null,
                Map.of()));
  }

  @Test
  void failsOnAvailableAt_whenTheExperimentIsNotAvailableYet() throws Exception {
    assertThrows(
        AnalysisSpecException.class,
        () ->
            ExperimentArgs.resolve(
                List.of(arg("x", "{{experiment.availableAt}}")),
                experiment(),
                null,
                replicaSets()));
  }

  @Test
  void failsOnAnOpeningBraceWithoutClosingOne() throws Exception {
    AnalysisSpecException e =
        assertThrows(
            AnalysisSpecException.class,
            () ->
                ExperimentArgs.resolve(
                    List.of(arg("x", "test-{{args.var")), experiment(), null, replicaSets()));
    assertTrue(e.getMessage().startsWith("cannot find end tag"), e.getMessage());
  }
}
