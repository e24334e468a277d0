package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Desired state of an Experiment ({@code spec}, docs/compatibility.md §12.1). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ExperimentSpec extends ModelObject {

  /** ReplicaSets to run, one per template; names unique. */
  @JsonProperty("templates")
  private List<ExperimentTemplate> templates;

  /**
   * Go duration the Experiment runs for once every template is available; absent means until
   * terminated or its required analyses finish.
   */
  @JsonProperty("duration")
  private String duration;

  /** Seconds a template may take to become available before it fails (default 600). */
  @JsonProperty("progressDeadlineSeconds")
  private Integer progressDeadlineSeconds;

  /** Stop the Experiment: its ReplicaSets are scaled down and its AnalysisRuns terminated. */
  @JsonProperty("terminate")
  private Boolean terminate;

  /** AnalysisRuns started once every template is available. */
  @JsonProperty("analyses")
  private List<ExperimentAnalysisTemplateRef> analyses;

  /** Seconds the ReplicaSets stay up after the Experiment ended (default 30). */
  @JsonProperty("scaleDownDelaySeconds")
  private Integer scaleDownDelaySeconds;

  /** Metrics of the analyses whose outcome never affects the phase. */
  @JsonProperty("dryRun")
  private List<DryRun> dryRun;

  /** Per-metric measurement history limits of the analyses. */
  @JsonProperty("measurementRetention")
  private List<MeasurementRetention> measurementRetention;

  /** Labels and annotations added to the Experiment's AnalysisRuns. */
  @JsonProperty("analysisRunMetadata")
  private AnalysisRunMetadata analysisRunMetadata;

  public List<ExperimentTemplate> getTemplates() {
    return templates;
  }

  public void setTemplates(List<ExperimentTemplate> templates) {
    this.templates = templates;
  }

  public String getDuration() {
    return duration;
  }

  public void setDuration(String duration) {
    this.duration = duration;
  }

  public Integer getProgressDeadlineSeconds() {
    return progressDeadlineSeconds;
  }

  public void setProgressDeadlineSeconds(Integer progressDeadlineSeconds) {
    this.progressDeadlineSeconds = progressDeadlineSeconds;
  }

  public Boolean getTerminate() {
    return terminate;
  }

  public void setTerminate(Boolean terminate) {
    this.terminate = terminate;
  }

  public List<ExperimentAnalysisTemplateRef> getAnalyses() {
    return analyses;
  }

  public void setAnalyses(List<ExperimentAnalysisTemplateRef> analyses) {
    this.analyses = analyses;
  }

  public Integer getScaleDownDelaySeconds() {
    return scaleDownDelaySeconds;
  }

  public void setScaleDownDelaySeconds(Integer scaleDownDelaySeconds) {
    this.scaleDownDelaySeconds = scaleDownDelaySeconds;
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
    ExperimentSpec that = (ExperimentSpec) o;
    return Objects.equals(templates, that.templates)
        && Objects.equals(duration, that.duration)
        && Objects.equals(progressDeadlineSeconds, that.progressDeadlineSeconds)
        && Objects.equals(terminate, that.terminate)
        && Objects.equals(analyses, that.analyses)
        && Objects.equals(scaleDownDelaySeconds, that.scaleDownDelaySeconds)
        && Objects.equals(dryRun, that.dryRun)
        && Objects.equals(measurementRetention, that.measurementRetention)
        && Objects.equals(analysisRunMetadata, that.analysisRunMetadata)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        templates,
        duration,
        progressDeadlineSeconds,
        terminate,
        analyses,
        scaleDownDelaySeconds,
        dryRun,
        measurementRetention,
        analysisRunMetadata,
        additionalPropertiesHashCode());
  }
}
