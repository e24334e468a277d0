package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** One AnalysisRun of an Experiment ({@code status.analysisRuns[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ExperimentAnalysisRunStatus extends ModelObject {

  /** Analysis name ({@code spec.analyses[].name}). */
  @JsonProperty("name")
  private String name;

  /** AnalysisRun name. */
  @JsonProperty("analysisRun")
  private String analysisRun;

  /** The run's phase. */
  @JsonProperty("phase")
  private String phase;

  /** The run's message. */
  @JsonProperty("message")
  private String message;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getAnalysisRun() {
    return analysisRun;
  }

  public void setAnalysisRun(String analysisRun) {
    this.analysisRun = analysisRun;
  }

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

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ExperimentAnalysisRunStatus that = (ExperimentAnalysisRunStatus) o;
    return Objects.equals(name, that.name)
        && Objects.equals(analysisRun, that.analysisRun)
        && Objects.equals(phase, that.phase)
        && Objects.equals(message, that.message)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, analysisRun, phase, message, additionalPropertiesHashCode());
  }
}
