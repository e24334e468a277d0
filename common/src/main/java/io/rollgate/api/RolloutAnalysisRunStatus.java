package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Status summary of an AnalysisRun created by the Rollout. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutAnalysisRunStatus extends ModelObject {

  /** AnalysisRun name. */
  @JsonProperty("name")
  private String name;

  /** AnalysisRun phase. */
  @JsonProperty("status")
  private String status;

  /** AnalysisRun message. */
  @JsonProperty("message")
  private String message;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getStatus() {
    return status;
  }

  public void setStatus(String status) {
    this.status = status;
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
    RolloutAnalysisRunStatus that = (RolloutAnalysisRunStatus) o;
    return Objects.equals(name, that.name)
        && Objects.equals(status, that.status)
        && Objects.equals(message, that.message)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, status, message, additionalPropertiesHashCode());
  }
}
