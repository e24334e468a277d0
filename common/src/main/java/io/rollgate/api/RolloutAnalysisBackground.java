package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Background analysis of a canary ({@code spec.strategy.canary.analysis}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutAnalysisBackground extends RolloutAnalysis {

  /** Step index at which the background analysis starts (default 0). */
  @JsonProperty("startingStep")
  private Integer startingStep;

  public Integer getStartingStep() {
    return startingStep;
  }

  public void setStartingStep(Integer startingStep) {
    this.startingStep = startingStep;
  }

  @Override
  public boolean equals(Object o) {
    if (!super.equals(o)) {
      return false;
    }
    RolloutAnalysisBackground that = (RolloutAnalysisBackground) o;
    return Objects.equals(startingStep, that.startingStep);
  }

  @Override
  public int hashCode() {
    return 31 * super.hashCode() + Objects.hash(startingStep);
  }
}
