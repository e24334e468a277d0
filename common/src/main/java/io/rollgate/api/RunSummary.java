package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Counts of metric outcomes of a run ({@code status.runSummary}, {@code status.dryRunSummary}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RunSummary extends ModelObject {

  /** Number of metrics. */
  @JsonProperty("count")
  private Integer count;

  /** Metrics assessed Successful. */
  @JsonProperty("successful")
  private Integer successful;

  /** Metrics assessed Failed. */
  @JsonProperty("failed")
  private Integer failed;

  /** Metrics assessed Inconclusive. */
  @JsonProperty("inconclusive")
  private Integer inconclusive;

  /** Metrics assessed Error. */
  @JsonProperty("error")
  private Integer error;

  public Integer getCount() {
    return count;
  }

  public void setCount(Integer count) {
    this.count = count;
  }

  public Integer getSuccessful() {
    return successful;
  }

  public void setSuccessful(Integer successful) {
    this.successful = successful;
  }

  public Integer getFailed() {
    return failed;
  }

  public void setFailed(Integer failed) {
    this.failed = failed;
  }

  public Integer getInconclusive() {
    return inconclusive;
  }

  public void setInconclusive(Integer inconclusive) {
    this.inconclusive = inconclusive;
  }

  public Integer getError() {
    return error;
  }

  public void setError(Integer error) {
    this.error = error;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    RunSummary that = (RunSummary) o;
    return Objects.equals(count, that.count)
        && Objects.equals(successful, that.successful)
        && Objects.equals(failed, that.failed)
        && Objects.equals(inconclusive, that.inconclusive)
        && Objects.equals(error, that.error)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        count, successful, failed, inconclusive, error, additionalPropertiesHashCode());
  }
}
