package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/**
 * Desired state of an AnalysisTemplate or ClusterAnalysisTemplate ({@code spec},
 * docs/compatibility.md §9.1).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AnalysisTemplateSpec extends ModelObject {

  /** Metrics to measure; concatenated with those of the {@code templates} when a run is built. */
  @JsonProperty("metrics")
  private List<Metric> metrics;

  /** Arguments the metrics reference as {@code {{args.<name>}}}; a value here is the default. */
  @JsonProperty("args")
  private List<Argument> args;

  /**
   * Metrics (unanchored regular expressions on the name) whose outcome never affects the run phase.
   */
  @JsonProperty("dryRun")
  private List<DryRun> dryRun;

  /** Per-metric measurement history limits (unanchored regular expressions on the name). */
  @JsonProperty("measurementRetention")
  private List<MeasurementRetention> measurementRetention;

  /** Other templates this one is composed of, resolved recursively. */
  @JsonProperty("templates")
  private List<AnalysisTemplateRef> templates;

  public List<Metric> getMetrics() {
    return metrics;
  }

  public void setMetrics(List<Metric> metrics) {
    this.metrics = metrics;
  }

  public List<Argument> getArgs() {
    return args;
  }

  public void setArgs(List<Argument> args) {
    this.args = args;
  }

  public List<DryRun> getDryRun() {
    return dryRun;
  }

  public void setDryRun(List<DryRun> dryRun) {
    this.dryRun = dryRun;
  }

  public List<MeasurementRetention> getMeasurementRetention() {
    return measurementRetention;
  }

  public void setMeasurementRetention(List<MeasurementRetention> measurementRetention) {
    this.measurementRetention = measurementRetention;
  }

  public List<AnalysisTemplateRef> getTemplates() {
    return templates;
  }

  public void setTemplates(List<AnalysisTemplateRef> templates) {
    this.templates = templates;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AnalysisTemplateSpec that = (AnalysisTemplateSpec) o;
    return Objects.equals(metrics, that.metrics)
        && Objects.equals(args, that.args)
        && Objects.equals(dryRun, that.dryRun)
        && Objects.equals(measurementRetention, that.measurementRetention)
        && Objects.equals(templates, that.templates)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        metrics, args, dryRun, measurementRetention, templates, additionalPropertiesHashCode());
  }
}
