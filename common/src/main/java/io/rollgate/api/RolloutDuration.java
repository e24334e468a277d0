package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Timing of the current update ({@code status.duration}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutDuration extends ModelObject {

  /** RFC 3339 time the update started. */
  @JsonProperty("rolloutStartedAt")
  private String rolloutStartedAt;

  /** RFC 3339 time the current manual pause started. */
  @JsonProperty("manualPauseStartedAt")
  private String manualPauseStartedAt;

  /** Seconds spent in manual pauses during the update. */
  @JsonProperty("totalManualPauseDurationSeconds")
  private Long totalManualPauseDurationSeconds;

  /** RFC 3339 time the update finished. */
  @JsonProperty("finishedAt")
  private String finishedAt;

  /**
   * {@code Promoted}, {@code FastPromoted}, {@code Aborted}, {@code Superseded}, {@code RolledBack}
   * or {@code FastRolledBack}.
   */
  @JsonProperty("completionStatus")
  private String completionStatus;

  public String getRolloutStartedAt() {
    return rolloutStartedAt;
  }

  public void setRolloutStartedAt(String rolloutStartedAt) {
    this.rolloutStartedAt = rolloutStartedAt;
  }

  public String getManualPauseStartedAt() {
    return manualPauseStartedAt;
  }

  public void setManualPauseStartedAt(String manualPauseStartedAt) {
    this.manualPauseStartedAt = manualPauseStartedAt;
  }

  public Long getTotalManualPauseDurationSeconds() {
    return totalManualPauseDurationSeconds;
  }

  public void setTotalManualPauseDurationSeconds(Long totalManualPauseDurationSeconds) {
    this.totalManualPauseDurationSeconds = totalManualPauseDurationSeconds;
  }

  public String getFinishedAt() {
    return finishedAt;
  }

  public void setFinishedAt(String finishedAt) {
    this.finishedAt = finishedAt;
  }

  public String getCompletionStatus() {
    return completionStatus;
  }

  public void setCompletionStatus(String completionStatus) {
    this.completionStatus = completionStatus;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    RolloutDuration that = (RolloutDuration) o;
    return Objects.equals(rolloutStartedAt, that.rolloutStartedAt)
        && Objects.equals(manualPauseStartedAt, that.manualPauseStartedAt)
        && Objects.equals(totalManualPauseDurationSeconds, that.totalManualPauseDurationSeconds)
        && Objects.equals(finishedAt, that.finishedAt)
        && Objects.equals(completionStatus, that.completionStatus)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        rolloutStartedAt,
        manualPauseStartedAt,
        totalManualPauseDurationSeconds,
        finishedAt,
        completionStatus,
        additionalPropertiesHashCode());
  }
}
