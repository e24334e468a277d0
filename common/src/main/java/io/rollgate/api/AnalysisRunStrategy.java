package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** AnalysisRun and Experiment history limits ({@code spec.analysis}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AnalysisRunStrategy extends ModelObject {

  /** Successful runs to keep (default 5). */
  @JsonProperty("successfulRunHistoryLimit")
  private Integer successfulRunHistoryLimit;

  /** Failed, errored or inconclusive runs to keep (default 5). */
  @JsonProperty("unsuccessfulRunHistoryLimit")
  private Integer unsuccessfulRunHistoryLimit;

  public Integer getSuccessfulRunHistoryLimit() {
    return successfulRunHistoryLimit;
  }

  public void setSuccessfulRunHistoryLimit(Integer successfulRunHistoryLimit) {
    this.successfulRunHistoryLimit = successfulRunHistoryLimit;
  }

  public Integer getUnsuccessfulRunHistoryLimit() {
    return unsuccessfulRunHistoryLimit;
  }

  public void setUnsuccessfulRunHistoryLimit(Integer unsuccessfulRunHistoryLimit) {
    this.unsuccessfulRunHistoryLimit = unsuccessfulRunHistoryLimit;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AnalysisRunStrategy that = (AnalysisRunStrategy) o;
    return Objects.equals(successfulRunHistoryLimit, that.successfulRunHistoryLimit)
        && Objects.equals(unsuccessfulRunHistoryLimit, that.unsuccessfulRunHistoryLimit)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        successfulRunHistoryLimit, unsuccessfulRunHistoryLimit, additionalPropertiesHashCode());
  }
}
