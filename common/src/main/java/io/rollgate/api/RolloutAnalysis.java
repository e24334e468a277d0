package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Analysis configuration used by analysis steps and blue-green pre/post-promotion analysis. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutAnalysis extends ModelObject {

  /** Templates merged into one AnalysisRun. */
  @JsonProperty("templates")
  private List<AnalysisTemplateRef> templates;

  /** Arguments passed to the templates. */
  @JsonProperty("args")
  private List<AnalysisRunArgument> args;

  /** Metrics evaluated in dry-run mode. */
  @JsonProperty("dryRun")
  private List<DryRun> dryRun;

  /** Per-metric limits on stored measurements. */
  @JsonProperty("measurementRetention")
  private List<MeasurementRetention> measurementRetention;

  /** Metadata added to the AnalysisRun. */
  @JsonProperty("analysisRunMetadata")
  private AnalysisRunMetadata analysisRunMetadata;

  public List<AnalysisTemplateRef> getTemplates() {
    return templates;
  }

  public void setTemplates(List<AnalysisTemplateRef> templates) {
    this.templates = templates;
  }

  public List<AnalysisRunArgument> getArgs() {
    return args;
  }

  public void setArgs(List<AnalysisRunArgument> args) {
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

  public AnalysisRunMetadata getAnalysisRunMetadata() {
    return analysisRunMetadata;
  }

  public void setAnalysisRunMetadata(AnalysisRunMetadata analysisRunMetadata) {
    this.analysisRunMetadata = analysisRunMetadata;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    RolloutAnalysis that = (RolloutAnalysis) o;
    return Objects.equals(templates, that.templates)
        && Objects.equals(args, that.args)
        && Objects.equals(dryRun, that.dryRun)
        && Objects.equals(measurementRetention, that.measurementRetention)
        && Objects.equals(analysisRunMetadata, that.analysisRunMetadata)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        templates,
        args,
        dryRun,
        measurementRetention,
        analysisRunMetadata,
        additionalPropertiesHashCode());
  }
}
