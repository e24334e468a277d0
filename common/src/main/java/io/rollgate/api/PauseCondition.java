package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Reason the rollout is paused ({@code status.pauseConditions[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PauseCondition extends ModelObject {

  /** Pause reason; see {@link PauseReason}. */
  @JsonProperty("reason")
  private String reason;

  /** RFC 3339 time the pause started. */
  @JsonProperty("startTime")
  private String startTime;

  public String getReason() {
    return reason;
  }

  public void setReason(String reason) {
    this.reason = reason;
  }

  public String getStartTime() {
    return startTime;
  }

  public void setStartTime(String startTime) {
    this.startTime = startTime;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    PauseCondition that = (PauseCondition) o;
    return Objects.equals(reason, that.reason)
        && Objects.equals(startTime, that.startTime)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(reason, startTime, additionalPropertiesHashCode());
  }
}
