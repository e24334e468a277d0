package io.rollgate.controller.experiment.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.rollgate.api.ExperimentAnalysisRunStatus;
import io.rollgate.api.ExperimentAnalysisTemplateRef;
import io.rollgate.api.ExperimentSpec;
import io.rollgate.api.ExperimentStatus;
import io.rollgate.api.ExperimentTemplate;
import io.rollgate.api.TemplateStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExperimentRulesTest {

  static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

  static ExperimentTemplate template(String name, Integer replicas) {
    ExperimentTemplate t = new ExperimentTemplate();
    t.setName(name);
    t.setReplicas(replicas);
    t.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
    t.setTemplate(
        new PodTemplateSpecBuilder()
            .withNewMetadata()
            .addToLabels("app", name)
            .endMetadata()
            .build());
    return t;
  }

  static TemplateStatus observed(int replicas, int available) {
    TemplateStatus o = new TemplateStatus();
    o.setReplicas(replicas);
    o.setAvailableReplicas(available);
    return o;
  }

  static TemplateStatus ts(String name, String status) {
    TemplateStatus s = new TemplateStatus();
    s.setName(name);
    s.setStatus(status);
    return s;
  }

  static ExperimentAnalysisRunStatus run(String name, String phase) {
    ExperimentAnalysisRunStatus a = new ExperimentAnalysisRunStatus();
    a.setName(name);
    a.setAnalysisRun("ex-" + name);
    a.setPhase(phase);
    return a;
  }

  static ExperimentAnalysisTemplateRef analysis(String name, boolean required) {
    ExperimentAnalysisTemplateRef a = new ExperimentAnalysisTemplateRef();
    a.setName(name);
    a.setTemplateName("t");
    a.setRequiredForCompletion(required ? true : null);
    return a;
  }

  static ExperimentSpec spec(ExperimentAnalysisTemplateRef... analyses) {
    ExperimentSpec s = new ExperimentSpec();
    s.setTemplates(new ArrayList<>(List.of(template("a", 1), template("b", 2))));
    s.setAnalyses(analyses.length == 0 ? null : List.of(analyses));
    return s;
  }

  static ExperimentStatus status(
      List<TemplateStatus> templates, List<ExperimentAnalysisRunStatus> runs) {
    ExperimentStatus s = new ExperimentStatus();
    s.setTemplateStatuses(templates);
    s.setAnalysisRuns(runs);
    return s;
  }

  @Test
  void templateIsProgressingUntilAllDesiredPodsAreAvailable_thenRunning() {
    TemplateStatus first =
        ExperimentRules.templateStatus(null, template("a", 2), observed(2, 1), false, 600, T0);
    assertEquals("Progressing", first.getStatus());
    assertEquals("2026-01-01T10:00:00Z", first.getLastTransitionTime());

    TemplateStatus up =
        ExperimentRules.templateStatus(
            first, template("a", 2), observed(2, 2), false, 600, T0.plusSeconds(5));
    assertEquals("Running", up.getStatus());
    assertEquals("2026-01-01T10:00:05Z", up.getLastTransitionTime());
    assertEquals(2, up.getAvailableReplicas());
  }

  @Test
  void templateFailsAfterProgressDeadline() {
    TemplateStatus first =
        ExperimentRules.templateStatus(null, template("a", 1), observed(1, 0), false, 30, T0);
    TemplateStatus still =
        ExperimentRules.templateStatus(
            first, template("a", 1), observed(1, 0), false, 30, T0.plusSeconds(29));
    assertEquals("Progressing", still.getStatus());
    assertEquals(T0.plusSeconds(30), ExperimentRules.progressDeadline(still, 30).orElseThrow());

    TemplateStatus failed =
        ExperimentRules.templateStatus(
            still, template("a", 1), observed(1, 0), false, 30, T0.plusSeconds(30));
    assertEquals("Failed", failed.getStatus());
    assertEquals("Template 'a' exceeded its progressDeadlineSeconds (30)", failed.getMessage());

    TemplateStatus stays =
        ExperimentRules.templateStatus(
            failed, template("a", 1), observed(1, 1), true, 30, T0.plusSeconds(60));
    assertEquals("Failed", stays.getStatus(), "a completed template status never changes");
  }

  @Test
  void runningTemplateBecomesSuccessfulWhenTheExperimentTerminates() {
    TemplateStatus running =
        ExperimentRules.templateStatus(null, template("a", 1), observed(1, 1), false, 600, T0);
    TemplateStatus done =
        ExperimentRules.templateStatus(
            running, template("a", 1), observed(1, 1), true, 600, T0.plusSeconds(1));
    assertEquals("Successful", done.getStatus());
  }

  @Test
  void terminatesOnTerminateFailureRequiredSuccessOrDuration() {
    ExperimentSpec spec = spec(analysis("x", false));
    ExperimentStatus running =
        status(List.of(ts("a", "Running"), ts("b", "Running")), List.of(run("x", "Running")));
    assertFalse(ExperimentRules.terminating(spec, running, T0));

    spec.setTerminate(true);
    assertTrue(ExperimentRules.terminating(spec, running, T0), "spec.terminate");

    ExperimentSpec required = spec(analysis("x", true), analysis("y", false));
    ExperimentStatus requiredDone =
        status(
            List.of(ts("a", "Running"), ts("b", "Running")),
            List.of(run("x", "Successful"), run("y", "Running")));
    assertTrue(
        ExperimentRules.terminating(required, requiredDone, T0), "required analyses succeeded");

    ExperimentStatus failedRun =
        status(List.of(ts("a", "Running")), List.of(run("x", "Inconclusive")));
    assertTrue(
        ExperimentRules.terminating(spec(analysis("x", false)), failedRun, T0),
        "analysis completed non-Successful");

    ExperimentSpec timed = spec();
    timed.setDuration("30s");
    ExperimentStatus available = status(List.of(ts("a", "Running"), ts("b", "Running")), null);
    available.setAvailableAt("2026-01-01T10:00:00Z");
    assertFalse(ExperimentRules.terminating(timed, available, T0.plusSeconds(29)));
    assertTrue(
        ExperimentRules.terminating(timed, available, T0.plusSeconds(30)), "duration elapsed");
  }

  @Test
  void phaseFollowsTemplatesWhileTheyRun() {
    assertEquals(
        "Pending",
        ExperimentRules.phase(
                spec(), status(List.of(ts("a", "Progressing"), ts("b", "Running")), null))
            .phase());
    assertEquals(
        "Running",
        ExperimentRules.phase(spec(), status(List.of(ts("a", "Running"), ts("b", "Running")), null))
            .phase());
    ExperimentRules.PhaseAndMessage failed =
        ExperimentRules.phase(spec(), status(List.of(ts("a", "Running"), failedTemplate()), null));
    assertEquals("Failed", failed.phase());
    assertEquals("Template 'b' exceeded its progressDeadlineSeconds (600)", failed.message());
  }

  static TemplateStatus failedTemplate() {
    TemplateStatus t = ts("b", "Failed");
    t.setMessage("Template 'b' exceeded its progressDeadlineSeconds (600)");
    return t;
  }

  @Test
  void failedAnalysisFailsTheExperimentEvenOnceTemplatesAreDone() {
    ExperimentSpec spec = spec(analysis("x", false), analysis("y", false));
    ExperimentRules.PhaseAndMessage running =
        ExperimentRules.phase(
            spec,
            status(
                List.of(ts("a", "Running"), ts("b", "Running")),
                List.of(run("x", "Failed"), run("y", "Running"))));
    assertEquals("Failed", running.phase());
    assertEquals("AnalysisRun 'ex-x' Failed", running.message());

    ExperimentRules.PhaseAndMessage done =
        ExperimentRules.phase(
            spec,
            status(
                List.of(ts("a", "Successful"), ts("b", "Successful")),
                List.of(run("x", "Error"), run("y", "Running"))));
    assertEquals("Error", done.phase());
  }

  @Test
  void requiredAnalysesCompleteTheExperiment() {
    ExperimentSpec spec = spec(analysis("x", true), analysis("y", false));
    ExperimentRules.PhaseAndMessage pm =
        ExperimentRules.phase(
            spec,
            status(
                List.of(ts("a", "Running"), ts("b", "Running")),
                List.of(run("x", "Successful"), run("y", "Running"))));
    assertEquals("Successful", pm.phase());
    assertEquals("Required AnalysisRuns completed", pm.message());
  }

  @Test
  void durationBoundExperimentSucceedsWithNonRequiredAnalysesStillRunning() {
    ExperimentSpec spec = spec(analysis("x", false));
    ExperimentRules.PhaseAndMessage pm =
        ExperimentRules.phase(
            spec,
            status(
                List.of(ts("a", "Successful"), ts("b", "Successful")),
                List.of(run("x", "Running"))));
    assertEquals("Successful", pm.phase());

    ExperimentSpec withRequired = spec(analysis("x", true));
    assertEquals(
        "Running",
        ExperimentRules.phase(
                withRequired,
                status(
                    List.of(ts("a", "Successful"), ts("b", "Successful")),
                    List.of(run("x", "Running"))))
            .phase(),
        "a required analysis still running holds the experiment");
  }

  @Test
  void completedPhaseNeverChanges() {
    ExperimentStatus s = status(List.of(ts("a", "Running")), null);
    s.setPhase("Failed");
    s.setMessage("m");
    assertEquals(
        new ExperimentRules.PhaseAndMessage("Failed", "m"), ExperimentRules.phase(spec(), s));
  }

  @Test
  void validateNamesFieldAndReason() {
    ExperimentSpec s = new ExperimentSpec();
    assertEquals(
        List.of("spec.templates: Required value: an Experiment needs at least one template"),
        ExperimentRules.validate(s));

    s.setTemplates(List.of(template("a", 1), template("a", 1)));
    s.getTemplates()
        .get(0)
        .setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "other").build());
    s.setDuration("ten minutes");
    assertEquals(
        List.of(
            "spec.templates[0].template.metadata.labels: Invalid value: `selector` does not match template `labels`",
            "spec.templates[1].name: Duplicate value: \"a\"",
            "spec.duration: Invalid value: \"ten minutes\": not a duration such as 30s, 5m or 1h"),
        ExperimentRules.validate(s));
  }
}
