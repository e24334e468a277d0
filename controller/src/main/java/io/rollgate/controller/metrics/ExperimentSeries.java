package io.rollgate.controller.metrics;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.Experiment;
import java.util.Collection;

/**
 * Writes Argo Rollouts' per-Experiment gauges (docs/compatibility.md §14) in the Prometheus text
 * format, computed from the informer cache at scrape time: {@code
 * experiment_info{namespace,name,phase}} (1) and the deprecated {@code
 * experiment_phase{namespace,name,phase}} (1 for the current phase, 0 for the others). A deleted
 * Experiment's series disappear with it, since nothing is registered per Experiment.
 */
public final class ExperimentSeries {

  private ExperimentSeries() {}

  /**
   * Appends the per-Experiment metric families for the given Experiments.
   *
   * @param out where to append
   * @param experiments the Experiments in the informer cache
   */
  public static void write(StringBuilder out, Collection<Experiment> experiments) {
    RolloutSeries.family(out, "experiment_info", "Information about Experiment.");
    for (Experiment e : experiments) {
      RolloutSeries.sample(
          out, "experiment_info", 1, "namespace", ns(e), "name", name(e), "phase", phase(e));
    }
    RolloutSeries.family(
        out,
        "experiment_phase",
        "Information on the state of the experiment (DEPRECATED - use experiment_info)");
    for (Experiment e : experiments) {
      String phase = phase(e);
      for (String p : AnalysisRunSeries.PHASES) {
        RolloutSeries.sample(
            out,
            "experiment_phase",
            p.equals(phase) ? 1 : 0,
            "namespace",
            ns(e),
            "name",
            name(e),
            "phase",
            p);
      }
    }
  }

  /**
   * The {@code phase} label of an Experiment: {@code status.phase}, Pending when unset.
   *
   * @param e the Experiment
   * @return the label value
   */
  public static String phase(Experiment e) {
    String p = e.getStatus() == null ? null : e.getStatus().getPhase();
    return p == null || p.isEmpty() ? AnalysisPhase.PENDING : p;
  }

  private static String ns(Experiment e) {
    return e.getMetadata().getNamespace();
  }

  private static String name(Experiment e) {
    return e.getMetadata().getName();
  }
}
