package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import java.util.Objects;

/**
 * One measurement of a metric ({@code status.metricResults[].measurements[]}, docs/compatibility.md
 * §9.1).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Measurement extends ModelObject {

  /** Measurement phase; see {@link AnalysisPhase}. */
  @JsonProperty("phase")
  private String phase;

  /** Detail, for example an error; secret argument values are masked as {@code *****}. */
  @JsonProperty("message")
  private String message;

  /** RFC 3339 time the measurement started. */
  @JsonProperty("startedAt")
  private String startedAt;

  /** RFC 3339 time the measurement finished; absent while it runs. */
  @JsonProperty("finishedAt")
  private String finishedAt;

  /** Measured value as text, for example {@code 0.95} or {@code [0.5,0.7]}. */
  @JsonProperty("value")
  private String value;

  /** Provider details, for example {@code job-name} and {@code job-namespace}. */
  @JsonProperty("metadata")
  private Map<String, String> metadata;

  /** RFC 3339 time an unfinished measurement is next checked. */
  @JsonProperty("resumeAt")
  private String resumeAt;

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

  public String getStartedAt() {
    return startedAt;
  }

  public void setStartedAt(String startedAt) {
    this.startedAt = startedAt;
  }

  public String getFinishedAt() {
    return finishedAt;
  }

  public void setFinishedAt(String finishedAt) {
    this.finishedAt = finishedAt;
  }

  public String getValue() {
    return value;
  }

  public void setValue(String value) {
    this.value = value;
  }

  public Map<String, String> getMetadata() {
    return metadata;
  }

  public void setMetadata(Map<String, String> metadata) {
    this.metadata = metadata;
  }

  public String getResumeAt() {
    return resumeAt;
  }

  public void setResumeAt(String resumeAt) {
    this.resumeAt = resumeAt;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    Measurement that = (Measurement) o;
    return Objects.equals(phase, that.phase)
        && Objects.equals(message, that.message)
        && Objects.equals(startedAt, that.startedAt)
        && Objects.equals(finishedAt, that.finishedAt)
        && Objects.equals(value, that.value)
        && Objects.equals(metadata, that.metadata)
        && Objects.equals(resumeAt, that.resumeAt)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        phase,
        message,
        startedAt,
        finishedAt,
        value,
        metadata,
        resumeAt,
        additionalPropertiesHashCode());
  }
}
