package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Rollout condition ({@code status.conditions[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutCondition extends ModelObject {

  /** Condition type; see {@link ConditionType}. */
  @JsonProperty("type")
  private String type;

  /** {@code True}, {@code False} or {@code Unknown}. */
  @JsonProperty("status")
  private String status;

  /** RFC 3339 time the condition was last updated. */
  @JsonProperty("lastUpdateTime")
  private String lastUpdateTime;

  /** RFC 3339 time the status last changed. */
  @JsonProperty("lastTransitionTime")
  private String lastTransitionTime;

  /** Machine-readable reason; see {@link ConditionReason}. */
  @JsonProperty("reason")
  private String reason;

  /** Human-readable message. */
  @JsonProperty("message")
  private String message;

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public String getStatus() {
    return status;
  }

  public void setStatus(String status) {
    this.status = status;
  }

  public String getLastUpdateTime() {
    return lastUpdateTime;
  }

  public void setLastUpdateTime(String lastUpdateTime) {
    this.lastUpdateTime = lastUpdateTime;
  }

  public String getLastTransitionTime() {
    return lastTransitionTime;
  }

  public void setLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
  }

  public String getReason() {
    return reason;
  }

  public void setReason(String reason) {
    this.reason = reason;
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
    RolloutCondition that = (RolloutCondition) o;
    return Objects.equals(type, that.type)
        && Objects.equals(status, that.status)
        && Objects.equals(lastUpdateTime, that.lastUpdateTime)
        && Objects.equals(lastTransitionTime, that.lastTransitionTime)
        && Objects.equals(reason, that.reason)
        && Objects.equals(message, that.message)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        type,
        status,
        lastUpdateTime,
        lastTransitionTime,
        reason,
        message,
        additionalPropertiesHashCode());
  }
}
