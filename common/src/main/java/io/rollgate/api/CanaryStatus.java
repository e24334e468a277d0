package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Canary-specific status ({@code status.canary}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CanaryStatus extends ModelObject {

  /** AnalysisRun of the current analysis step. */
  @JsonProperty("currentStepAnalysisRunStatus")
  private RolloutAnalysisRunStatus currentStepAnalysisRunStatus;

  /** Background AnalysisRun. */
  @JsonProperty("currentBackgroundAnalysisRunStatus")
  private RolloutAnalysisRunStatus currentBackgroundAnalysisRunStatus;

  /** Name of the Experiment of the current step. */
  @JsonProperty("currentExperiment")
  private String currentExperiment;

  /** Traffic weights last set on the routers (traffic routing only). */
  @JsonProperty("weights")
  private TrafficWeights weights;

  /** Which ping-pong Service is stable: {@code ping} or {@code pong}. */
  @JsonProperty("stablePingPong")
  private String stablePingPong;

  /** State of step plugin operations. */
  @JsonProperty("stepPluginStatuses")
  private List<StepPluginStatus> stepPluginStatuses;

  public RolloutAnalysisRunStatus getCurrentStepAnalysisRunStatus() {
    return currentStepAnalysisRunStatus;
  }

  public void setCurrentStepAnalysisRunStatus(
      RolloutAnalysisRunStatus currentStepAnalysisRunStatus) {
    this.currentStepAnalysisRunStatus = currentStepAnalysisRunStatus;
  }

  public RolloutAnalysisRunStatus getCurrentBackgroundAnalysisRunStatus() {
    return currentBackgroundAnalysisRunStatus;
  }

  public void setCurrentBackgroundAnalysisRunStatus(
      RolloutAnalysisRunStatus currentBackgroundAnalysisRunStatus) {
    this.currentBackgroundAnalysisRunStatus = currentBackgroundAnalysisRunStatus;
  }

  public String getCurrentExperiment() {
    return currentExperiment;
  }

  public void setCurrentExperiment(String currentExperiment) {
    this.currentExperiment = currentExperiment;
  }

  public TrafficWeights getWeights() {
    return weights;
  }

  public void setWeights(TrafficWeights weights) {
    this.weights = weights;
  }

  public String getStablePingPong() {
    return stablePingPong;
  }

  public void setStablePingPong(String stablePingPong) {
    this.stablePingPong = stablePingPong;
  }

  public List<StepPluginStatus> getStepPluginStatuses() {
    return stepPluginStatuses;
  }

  public void setStepPluginStatuses(List<StepPluginStatus> stepPluginStatuses) {
    this.stepPluginStatuses = stepPluginStatuses;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    CanaryStatus that = (CanaryStatus) o;
    return Objects.equals(currentStepAnalysisRunStatus, that.currentStepAnalysisRunStatus)
        && Objects.equals(
            currentBackgroundAnalysisRunStatus, that.currentBackgroundAnalysisRunStatus)
        && Objects.equals(currentExperiment, that.currentExperiment)
        && Objects.equals(weights, that.weights)
        && Objects.equals(stablePingPong, that.stablePingPong)
        && Objects.equals(stepPluginStatuses, that.stepPluginStatuses)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        currentStepAnalysisRunStatus,
        currentBackgroundAnalysisRunStatus,
        currentExperiment,
        weights,
        stablePingPong,
        stepPluginStatuses,
        additionalPropertiesHashCode());
  }
}
