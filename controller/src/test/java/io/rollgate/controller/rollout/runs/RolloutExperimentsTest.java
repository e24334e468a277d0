package io.rollgate.controller.rollout.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.rollgate.api.Experiment;
import io.rollgate.api.ExperimentTemplate;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.controller.runtime.ReconcileContext;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Experiment a canary experiment step asks for (docs/compatibility.md §12.2). */
class RolloutExperimentsTest {

  private static final String ROLLOUT =
      """
      metadata:
        name: web
        namespace: shop
        uid: u-1
        labels: {team: payments}
        annotations: {rollout.argoproj.io/revision: "3"}
      spec:
        replicas: 4
        minReadySeconds: 5
        progressDeadlineSeconds: 120
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: web, image: "app:v2"}]}
        strategy:
          canary:
            steps:
            - setWeight: 20
            - experiment:
                duration: 10m
                scaleDownDelaySeconds: 5
                dryRun: [{metricName: m}]
                templates:
                - {name: canary-a, specRef: canary, replicas: 2, metadata: {labels: {exp: a}, annotations: {note: x}}}
                - {name: stable-b, specRef: stable, weight: 5}
                analyses:
                - name: smoke
                  templateName: t
                  requiredForCompletion: true
                  args:
                  - {name: hash, valueFrom: {podTemplateHashValue: Latest}}
                  - {name: stable, valueFrom: {podTemplateHashValue: Stable}}
                  - {name: team, valueFrom: {fieldRef: {fieldPath: "metadata.labels['team']"}}}
      """;

  private static ReplicaSet rs(String hash, String image) {
    return new ReplicaSetBuilder()
        .withNewMetadata()
        .withName("web-" + hash)
        .addToLabels("rollouts-pod-template-hash", hash)
        .endMetadata()
        .withNewSpec()
        .withReplicas(1)
        .withNewSelector()
        .addToMatchLabels("app", "web")
        .addToMatchLabels("rollouts-pod-template-hash", hash)
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .addToLabels("app", "web")
        .addToLabels("rollouts-pod-template-hash", hash)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("web")
        .withImage(image)
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  private static RolloutPass pass() throws Exception {
    Rollout r = new YAMLMapper().readValue(ROLLOUT, Rollout.class);
    RolloutStatus status = new RolloutStatus();
    status.setStableRS("old");
    status.setCurrentStepIndex(1);
    r.setStatus(status);
    RolloutPass p =
        new RolloutPass(
            new ReconcileContext("Rollout", "shop", "web", 1, "test", Instant.EPOCH),
            ModelJson.deepCopy(r),
            Instant.EPOCH);
    p.stableRS = rs("old", "app:v1");
    p.newRS = rs("new", "app:v2");
    p.podHash = "new";
    return p;
  }

  @Test
  void buildsTheStepExperimentFromTheCanaryAndStableTemplates() throws Exception {
    RolloutPass pass = pass();
    Experiment ex = RolloutExperiments.build(pass, pass.steps().get(1).getExperiment(), 1);

    assertEquals(
        Map.of("team", "payments", "rollouts-pod-template-hash", "new"),
        ex.getMetadata().getLabels());
    assertEquals("3", ex.getMetadata().getAnnotations().get("rollout.argoproj.io/revision"));
    assertEquals("Rollout", ex.getMetadata().getOwnerReferences().get(0).getKind());
    assertEquals("u-1", ex.getMetadata().getOwnerReferences().get(0).getUid());
    assertEquals("10m", ex.getSpec().getDuration());
    assertEquals(120, ex.getSpec().getProgressDeadlineSeconds());
    assertEquals(5, ex.getSpec().getScaleDownDelaySeconds());
    assertEquals("m", ex.getSpec().getDryRun().get(0).getMetricName());

    ExperimentTemplate a = ex.getSpec().getTemplates().get(0);
    assertEquals("app:v2", a.getTemplate().getSpec().getContainers().get(0).getImage());
    assertEquals(
        Map.of("app", "web", "exp", "a"),
        a.getTemplate().getMetadata().getLabels(),
        "hash label dropped, metadata added");
    assertEquals(Map.of("app", "web", "exp", "a"), a.getSelector().getMatchLabels());
    assertEquals(Map.of("note", "x"), a.getTemplate().getMetadata().getAnnotations());
    assertEquals(2, a.getReplicas());
    assertEquals(5, a.getMinReadySeconds());
    assertNull(a.getService());

    ExperimentTemplate b = ex.getSpec().getTemplates().get(1);
    assertEquals("app:v1", b.getTemplate().getSpec().getContainers().get(0).getImage());
    assertNotNull(b.getService(), "a weight requests a Service");

    var smoke = ex.getSpec().getAnalyses().get(0);
    assertEquals(Boolean.TRUE, smoke.getRequiredForCompletion());
    assertEquals("new", smoke.getArgs().get(0).getValue());
    assertEquals("old", smoke.getArgs().get(1).getValue());
    assertEquals("payments", smoke.getArgs().get(2).getValue());
  }
}
