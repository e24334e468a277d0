package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * Time to live of a completed AnalysisRun ({@code spec.ttlStrategy}, docs/compatibility.md §9.4),
 * in seconds after {@code status.completedAt}. The most specific field applies: {@code
 * secondsAfterSuccess} for a Successful run, {@code secondsAfterFailure} for a Failed one, else
 * {@code secondsAfterCompletion}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TTLStrategy extends ModelObject {

  /** Seconds after completion (any phase without a more specific field) before deletion. */
  @JsonProperty("secondsAfterCompletion")
  private Integer secondsAfterCompletion;

  /** Seconds after completion of a Failed run before deletion. */
  @JsonProperty("secondsAfterFailure")
  private Integer secondsAfterFailure;

  /** Seconds after completion of a Successful run before deletion. */
  @JsonProperty("secondsAfterSuccess")
  private Integer secondsAfterSuccess;

  public Integer getSecondsAfterCompletion() {
    return secondsAfterCompletion;
  }

  public void setSecondsAfterCompletion(Integer secondsAfterCompletion) {
    this.secondsAfterCompletion = secondsAfterCompletion;
  }

  public Integer getSecondsAfterFailure() {
    return secondsAfterFailure;
  }

  public void setSecondsAfterFailure(Integer secondsAfterFailure) {
    this.secondsAfterFailure = secondsAfterFailure;
  }

  public Integer getSecondsAfterSuccess() {
    return secondsAfterSuccess;
  }

  public void setSecondsAfterSuccess(Integer secondsAfterSuccess) {
    this.secondsAfterSuccess = secondsAfterSuccess;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TTLStrategy that = (TTLStrategy) o;
    return Objects.equals(secondsAfterCompletion, that.secondsAfterCompletion)
        && Objects.equals(secondsAfterFailure, that.secondsAfterFailure)
        && Objects.equals(secondsAfterSuccess, that.secondsAfterSuccess)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        secondsAfterCompletion,
        secondsAfterFailure,
        secondsAfterSuccess,
        additionalPropertiesHashCode());
  }
}
