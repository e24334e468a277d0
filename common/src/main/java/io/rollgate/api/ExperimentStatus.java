package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import java.util.List;
import java.util.Objects;

/**
 * Observed state of an Experiment ({@code status}, docs/compatibility.md §12.1). Experiments have
 * no status subresource, so the controller writes this with a normal (merge) patch of the object.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ExperimentStatus extends ModelObject {

  /** Experiment phase; an {@link AnalysisPhase} value. */
  @JsonProperty("phase")
  @PrinterColumn(name = "Status")
  private String phase;

  /** Reason for the phase. */
  @JsonProperty("message")
  private String message;

  /** One entry per template. */
  @JsonProperty("templateStatuses")
  private List<TemplateStatus> templateStatuses;

  /** RFC 3339 time every template first became available. */
  @JsonProperty("availableAt")
  private String availableAt;

  /** Conditions (same shape as a Rollout's). */
  @JsonProperty("conditions")
  private List<RolloutCondition> conditions;

  /** One entry per analysis started. */
  @JsonProperty("analysisRuns")
  private List<ExperimentAnalysisRunStatus> analysisRuns;

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public List<TemplateStatus> getTemplateStatuses() {
    return templateStatuses;
  }

  public void setTemplateStatuses(List<TemplateStatus> templateStatuses) {
    this.templateStatuses = templateStatuses;
  }

  public String getAvailableAt() {
    return availableAt;
  }

  public void setAvailableAt(String availableAt) {
    this.availableAt = availableAt;
  }

  public List<RolloutCondition> getConditions() {
    return conditions;
  }

  public void setConditions(List<RolloutCondition> conditions) {
    this.conditions = conditions;
  }

  public List<ExperimentAnalysisRunStatus> getAnalysisRuns() {
    return analysisRuns;
  }

  public void setAnalysisRuns(List<ExperimentAnalysisRunStatus> analysisRuns) {
    this.analysisRuns = analysisRuns;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ExperimentStatus that = (ExperimentStatus) o;
    return Objects.equals(phase, that.phase)
        && Objects.equals(message, that.message)
        && Objects.equals(templateStatuses, that.templateStatuses)
        && Objects.equals(availableAt, that.availableAt)
        && Objects.equals(conditions, that.conditions)
        && Objects.equals(analysisRuns, that.analysisRuns)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        phase,
        message,
        templateStatuses,
        availableAt,
        conditions,
        analysisRuns,
        additionalPropertiesHashCode());
  }
}
