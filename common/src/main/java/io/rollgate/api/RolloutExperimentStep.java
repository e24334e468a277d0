package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Experiment step ({@code steps[].experiment}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutExperimentStep extends ModelObject {

  /** ReplicaSets the Experiment runs. */
  @JsonProperty("templates")
  private List<RolloutExperimentTemplate> templates;

  /** Go duration the Experiment runs for; absent means until its required analyses finish. */
  @JsonProperty("duration")
  private String duration;

  /** Analyses run against the Experiment. */
  @JsonProperty("analyses")
  private List<RolloutExperimentStepAnalysisTemplateRef> analyses;

  /** Metrics evaluated in dry-run mode. */
  @JsonProperty("dryRun")
  private List<DryRun> dryRun;

  /** Metadata added to the Experiment's AnalysisRuns. */
  @JsonProperty("analysisRunMetadata")
  private AnalysisRunMetadata analysisRunMetadata;

  /** Seconds before the Experiment's ReplicaSets are scaled down when it ends. */
  @JsonProperty("scaleDownDelaySeconds")
  private Integer scaleDownDelaySeconds;

  public List<RolloutExperimentTemplate> getTemplates() {
    return templates;
  }

  public void setTemplates(List<RolloutExperimentTemplate> templates) {
    this.templates = templates;
  }

  public String getDuration() {
    return duration;
  }

  public void setDuration(String duration) {
    this.duration = duration;
  }

  public List<RolloutExperimentStepAnalysisTemplateRef> getAnalyses() {
    return analyses;
  }

  public void setAnalyses(List<RolloutExperimentStepAnalysisTemplateRef> analyses) {
    this.analyses = analyses;
  }

  public List<DryRun> getDryRun() {
    return dryRun;
  }

  public void setDryRun(List<DryRun> dryRun) {
    this.dryRun = dryRun;
  }

  public AnalysisRunMetadata getAnalysisRunMetadata() {
    return analysisRunMetadata;
  }

  public void setAnalysisRunMetadata(AnalysisRunMetadata analysisRunMetadata) {
    this.analysisRunMetadata = analysisRunMetadata;
  }

  public Integer getScaleDownDelaySeconds() {
    return scaleDownDelaySeconds;
  }

  public void setScaleDownDelaySeconds(Integer scaleDownDelaySeconds) {
    this.scaleDownDelaySeconds = scaleDownDelaySeconds;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    RolloutExperimentStep that = (RolloutExperimentStep) o;
    return Objects.equals(templates, that.templates)
        && Objects.equals(duration, that.duration)
        && Objects.equals(analyses, that.analyses)
        && Objects.equals(dryRun, that.dryRun)
        && Objects.equals(analysisRunMetadata, that.analysisRunMetadata)
        && Objects.equals(scaleDownDelaySeconds, that.scaleDownDelaySeconds)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        templates,
        duration,
        analyses,
        dryRun,
        analysisRunMetadata,
        scaleDownDelaySeconds,
        additionalPropertiesHashCode());
  }
}
