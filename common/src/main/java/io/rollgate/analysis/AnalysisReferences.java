package io.rollgate.analysis;

import io.rollgate.api.CanaryStep;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutAnalysis;
import io.rollgate.validation.FieldError;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks every analysis a Rollout names against the templates it references, as Argo Rollouts does
 * before it creates a run (docs/compatibility.md §2.3 items 2-5): the templates exist
 * (recursively), flatten without conflicts, the arguments resolve, and no step, pre- or
 * post-promotion analysis has a metric that would run forever (an interval without a count). The
 * controller reports a problem as InvalidSpec; the webhook answers it on apply.
 */
public final class AnalysisReferences {

  private AnalysisReferences() {}

  /**
   * One analysis of a Rollout and where it is in the spec.
   *
   * @param path the field path ({@code spec.strategy.canary.steps[1].analysis})
   * @param analysis the analysis
   * @param background whether it is canary background analysis (which may run indefinitely)
   */
  public record Named(String path, RolloutAnalysis analysis, boolean background) {}

  /**
   * Lists the analyses of a Rollout that name at least one template, in spec order: blue-green pre-
   * and post-promotion, canary background, then the canary steps.
   *
   * @param rollout the Rollout
   * @return the analyses
   */
  public static List<Named> analyses(Rollout rollout) {
    List<Named> out = new ArrayList<>();
    var strategy = rollout.getSpec() == null ? null : rollout.getSpec().getStrategy();
    if (strategy == null) {
      return out;
    }
    if (strategy.getBlueGreen() != null) {
      add(
          out,
          "spec.strategy.blueGreen.prePromotionAnalysis",
          strategy.getBlueGreen().getPrePromotionAnalysis(),
          false);
      add(
          out,
          "spec.strategy.blueGreen.postPromotionAnalysis",
          strategy.getBlueGreen().getPostPromotionAnalysis(),
          false);
    }
    if (strategy.getCanary() != null) {
      add(out, "spec.strategy.canary.analysis", strategy.getCanary().getAnalysis(), true);
      List<CanaryStep> steps = strategy.getCanary().getSteps();
      for (int i = 0; steps != null && i < steps.size(); i++) {
        CanaryStep step = steps.get(i);
        add(
            out,
            "spec.strategy.canary.steps[" + i + "].analysis",
            step == null ? null : step.getAnalysis(),
            false);
      }
    }
    return out;
  }

  private static void add(
      List<Named> out, String path, RolloutAnalysis analysis, boolean background) {
    if (analysis != null && analysis.getTemplates() != null && !analysis.getTemplates().isEmpty()) {
      out.add(new Named(path, analysis, background));
    }
  }

  /**
   * Checks one analysis.
   *
   * @param rollout the Rollout
   * @param named the analysis
   * @param lookup where templates are read
   * @return null when it resolves into a run, else the problem at {@code <path>.templates}, in
   *     Argo's words
   */
  public static FieldError check(Rollout rollout, Named named, AnalysisTemplates.Lookup lookup) {
    try {
      RunFactory.validate(rollout, named.analysis(), lookup, named.background());
      return null;
    } catch (AnalysisSpecException e) {
      List<String> names = new ArrayList<>();
      named
          .analysis()
          .getTemplates()
          .forEach(t -> names.add(t == null ? null : t.getTemplateName()));
      return FieldError.invalid(
          named.path() + ".templates",
          "templateNames: [" + String.join(" ", names) + "]",
          e.getMessage());
    }
  }

  /**
   * Checks every analysis of a Rollout.
   *
   * @param rollout the Rollout
   * @param lookup where templates are read
   * @return the problems, in spec order; empty when every analysis is usable
   */
  public static List<FieldError> validate(Rollout rollout, AnalysisTemplates.Lookup lookup) {
    List<FieldError> errors = new ArrayList<>();
    for (Named n : analyses(rollout)) {
      FieldError e = check(rollout, n, lookup);
      if (e != null) {
        errors.add(e);
      }
    }
    return errors;
  }
}
