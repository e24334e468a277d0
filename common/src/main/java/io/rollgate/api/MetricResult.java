package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Result of one metric of a run ({@code status.metricResults[]}, docs/compatibility.md §9.1, §9.4).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MetricResult extends ModelObject {

  /** Metric name. */
  @JsonProperty("name")
  private String name;

  /** Metric phase; see {@link AnalysisPhase}. */
  @JsonProperty("phase")
  private String phase;

  /** Most recent measurements, oldest first (trimmed to the retention limit, default 10). */
  @JsonProperty("measurements")
  private List<Measurement> measurements;

  /** Message of the measurement that decided the phase. */
  @JsonProperty("message")
  private String message;

  /** Measurements that completed Successful, Failed or Inconclusive (errors do not count). */
  @JsonProperty("count")
  private Integer count;

  /** Successful measurements. */
  @JsonProperty("successful")
  private Integer successful;

  /** Failed measurements. */
  @JsonProperty("failed")
  private Integer failed;

  /** Inconclusive measurements. */
  @JsonProperty("inconclusive")
  private Integer inconclusive;

  /** Error measurements. */
  @JsonProperty("error")
  private Integer error;

  /** Error measurements since the last non-error one. */
  @JsonProperty("consecutiveError")
  private Integer consecutiveError;

  /** Successful measurements since the last non-successful one. */
  @JsonProperty("consecutiveSuccess")
  private Integer consecutiveSuccess;

  /** The metric is dry-run: its phase never affects the run phase. */
  @JsonProperty("dryRun")
  private Boolean dryRun;

  /** Provider details of the metric (for example {@code ResolvedPrometheusQuery}). */
  @JsonProperty("metadata")
  private Map<String, String> metadata;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public List<Measurement> getMeasurements() {
    return measurements;
  }

  public void setMeasurements(List<Measurement> measurements) {
    this.measurements = measurements;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

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

  public Integer getConsecutiveError() {
    return consecutiveError;
  }

  public void setConsecutiveError(Integer consecutiveError) {
    this.consecutiveError = consecutiveError;
  }

  public Integer getConsecutiveSuccess() {
    return consecutiveSuccess;
  }

  public void setConsecutiveSuccess(Integer consecutiveSuccess) {
    this.consecutiveSuccess = consecutiveSuccess;
  }

  public Boolean getDryRun() {
    return dryRun;
  }

  public void setDryRun(Boolean dryRun) {
    this.dryRun = dryRun;
  }

  public Map<String, String> getMetadata() {
    return metadata;
  }

  public void setMetadata(Map<String, String> metadata) {
    this.metadata = metadata;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    MetricResult that = (MetricResult) o;
    return Objects.equals(name, that.name)
        && Objects.equals(phase, that.phase)
        && Objects.equals(measurements, that.measurements)
        && Objects.equals(message, that.message)
        && Objects.equals(count, that.count)
        && Objects.equals(successful, that.successful)
        && Objects.equals(failed, that.failed)
        && Objects.equals(inconclusive, that.inconclusive)
        && Objects.equals(error, that.error)
        && Objects.equals(consecutiveError, that.consecutiveError)
        && Objects.equals(consecutiveSuccess, that.consecutiveSuccess)
        && Objects.equals(dryRun, that.dryRun)
        && Objects.equals(metadata, that.metadata)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name,
        phase,
        measurements,
        message,
        count,
        successful,
        failed,
        inconclusive,
        error,
        consecutiveError,
        consecutiveSuccess,
        dryRun,
        metadata,
        additionalPropertiesHashCode());
  }
}
