package io.rollgate.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisRunStatus;
import io.rollgate.api.AnalysisTemplateSpec;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutAnalysis;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunFactoryTest {

  static final Rollout ROLLOUT =
      ModelJson.fromJson(
          "{\"metadata\":{\"name\":\"web\",\"namespace\":\"shop\",\"uid\":\"u-1\","
              + "\"labels\":{\"argo-rollouts.argoproj.io/controller-instance-id\":\"blue\",\"team\":\"pay\"}},"
              + "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"web\",\"tier\":\"fe\"}}}}",
          Rollout.class);

  static final AnalysisTemplates.Lookup LOOKUP =
      new AnalysisTemplates.Lookup() {
        @Override
        public AnalysisTemplateSpec namespaced(String name) {
          return ModelJson.fromJson(
              "{\"args\":[{\"name\":\"hash\"},{\"name\":\"team\",\"value\":\"none\"}],"
                  + "\"dryRun\":[{\"metricName\":\"t\"}],"
                  + "\"metrics\":[{\"name\":\"m\",\"provider\":{\"job\":{\"spec\":{}}}}]}",
              AnalysisTemplateSpec.class);
        }

        @Override
        public AnalysisTemplateSpec cluster(String name) {
          return null;
        }
      };

  static RolloutAnalysis analysis(String json) {
    return ModelJson.fromJson(json, RolloutAnalysis.class);
  }

  @Test
  void namesFollowArgo() {
    assertEquals("web-abc-3-2", RunFactory.name("web", "abc", "3", RunType.STEP.infix(2)));
    assertEquals("web-abc-3", RunFactory.name("web", "abc", "3", RunType.BACKGROUND.infix(null)));
    assertEquals(
        "web-abc-3-pre", RunFactory.name("web", "abc", "3", RunType.PRE_PROMOTION.infix(null)));
    assertEquals(
        "web-abc-3-post", RunFactory.name("web", "abc", "3", RunType.POST_PROMOTION.infix(null)));
    assertEquals("web-abc-3-post", RunFactory.collisionName("web-abc-3-post", 0));
    assertEquals("web-abc-3-post.2", RunFactory.collisionName("web-abc-3-post", 2));
  }

  @Test
  void buildsTheRunWithLabelsAnnotationsOwnerAndMergedSpec() throws Exception {
    var a =
        analysis(
            "{\"templates\":[{\"templateName\":\"t\"}],"
                + "\"args\":[{\"name\":\"hash\",\"valueFrom\":{\"podTemplateHashValue\":\"Latest\"}}],"
                + "\"dryRun\":[{\"metricName\":\"m\"}],"
                + "\"analysisRunMetadata\":{\"labels\":{\"purpose\":\"smoke\",\"app\":\"overridden\"},\"annotations\":{\"o\":\"x\"}}}");
    AnalysisRun run = RunFactory.build(ROLLOUT, a, RunType.STEP, 1, "abc", "old", "4", LOOKUP);
    assertEquals("web-abc-4-1", run.getMetadata().getName());
    assertEquals("shop", run.getMetadata().getNamespace());
    Map<String, String> l = run.getMetadata().getLabels();
    assertEquals(
        "overridden", l.get("app"), "analysisRunMetadata labels are applied after the selector's");
    assertEquals("fe", l.get("tier"));
    assertEquals("smoke", l.get("purpose"));
    assertEquals("abc", l.get("rollouts-pod-template-hash"));
    assertEquals("Step", l.get("rollout-type"));
    assertEquals("1", l.get("step-index"));
    assertEquals("blue", l.get("argo-rollouts.argoproj.io/controller-instance-id"));
    assertFalse(l.containsKey("team"), "only selector labels of the Rollout are copied");
    assertEquals(
        Map.of("o", "x", "rollout.argoproj.io/revision", "4"), run.getMetadata().getAnnotations());
    var owner = run.getMetadata().getOwnerReferences().get(0);
    assertEquals("u-1", owner.getUid());
    assertEquals(Boolean.TRUE, owner.getController());
    assertEquals("argoproj.io/v1alpha1", owner.getApiVersion());
    assertEquals("abc", run.getSpec().getArgs().get(0).getValue());
    assertEquals("none", run.getSpec().getArgs().get(1).getValue());
    assertEquals(
        List.of("m", "t"), run.getSpec().getDryRun().stream().map(d -> d.getMetricName()).toList());
    assertNull(run.getSpec().getMeasurementRetention());
  }

  @Test
  void backgroundRunsHaveNoStepIndex() throws Exception {
    var a =
        analysis(
            "{\"templates\":[{\"templateName\":\"t\"}],\"args\":[{\"name\":\"hash\",\"value\":\"h\"}]}");
    AnalysisRun run =
        RunFactory.build(ROLLOUT, a, RunType.BACKGROUND, null, "abc", "old", "4", LOOKUP);
    assertEquals("web-abc-4", run.getMetadata().getName());
    assertFalse(run.getMetadata().getLabels().containsKey("step-index"));
    assertEquals("Background", run.getMetadata().getLabels().get("rollout-type"));
  }

  @Test
  void unresolvedArgumentsAndDuplicateRulesFailValidation() {
    var missing = analysis("{\"templates\":[{\"templateName\":\"t\"}]}");
    var e =
        assertThrows(
            AnalysisSpecException.class, () -> RunFactory.validate(ROLLOUT, missing, LOOKUP));
    assertEquals("args.hash was not resolved", e.getMessage());
    var dup =
        analysis(
            "{\"templates\":[{\"templateName\":\"t\"}],\"args\":[{\"name\":\"hash\",\"value\":\"h\"}],\"dryRun\":[{\"metricName\":\"t\"}]}");
    var e2 =
        assertThrows(AnalysisSpecException.class, () -> RunFactory.validate(ROLLOUT, dup, LOOKUP));
    assertEquals("two Dry-Run metric rules have the same name 't'", e2.getMessage());
    var badField =
        analysis(
            "{\"templates\":[{\"templateName\":\"t\"}],\"args\":[{\"name\":\"hash\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.nope\"}}}]}");
    var e3 =
        assertThrows(
            AnalysisSpecException.class, () -> RunFactory.validate(ROLLOUT, badField, LOOKUP));
    assertEquals(RunArguments.INVALID_METADATA_FIELD_REF, e3.getMessage());
  }

  @Test
  void stepAndPromotionAnalysesMustNotRunIndefinitely() throws Exception {
    AnalysisTemplates.Lookup forever =
        new AnalysisTemplates.Lookup() {
          @Override
          public AnalysisTemplateSpec namespaced(String name) {
            return ModelJson.fromJson(
                "{\"args\":[{\"name\":\"n\",\"value\":\"0\"}],"
                    + "\"metrics\":[{\"name\":\"m\",\"interval\":\"10s\",\"count\":\"{{ args.n }}\",\"provider\":{\"job\":{}}}]}",
                AnalysisTemplateSpec.class);
          }

          @Override
          public AnalysisTemplateSpec cluster(String name) {
            return null;
          }
        };
    var a = analysis("{\"templates\":[{\"templateName\":\"t\"}]}");
    var e =
        assertThrows(
            AnalysisSpecException.class, () -> RunFactory.validate(ROLLOUT, a, forever, false));
    assertEquals(
        "AnalysisTemplate t has metric m which runs indefinitely. Invalid value for count: 0",
        e.getMessage());
    RunFactory.validate(
        ROLLOUT, a, forever, true); // background analysis may run until the promotion
    var withCount =
        analysis(
            "{\"templates\":[{\"templateName\":\"t\"}],\"args\":[{\"name\":\"n\",\"value\":\"3\"}]}");
    RunFactory.validate(ROLLOUT, withCount, forever, false);
  }

  @Test
  void anUnfinishedIdenticalRunOfTheSameRolloutIsReused() throws Exception {
    var a =
        analysis(
            "{\"templates\":[{\"templateName\":\"t\"}],\"args\":[{\"name\":\"hash\",\"value\":\"h\"}]}");
    AnalysisRun wanted =
        RunFactory.build(ROLLOUT, a, RunType.BACKGROUND, null, "abc", "old", "4", LOOKUP);
    AnalysisRun existing = ModelJson.deepCopy(wanted);
    assertTrue(RunFactory.reusable(existing, wanted, "u-1"));
    assertFalse(RunFactory.reusable(existing, wanted, "someone-else"));
    AnalysisRunStatus done = new AnalysisRunStatus();
    done.setPhase(AnalysisPhase.FAILED);
    existing.setStatus(done);
    assertFalse(RunFactory.reusable(existing, wanted, "u-1"), "a completed run is never reused");
    AnalysisRun other = ModelJson.deepCopy(wanted);
    other.getSpec().getArgs().get(0).setValue("different");
    assertFalse(RunFactory.reusable(other, wanted, "u-1"));
  }
}
