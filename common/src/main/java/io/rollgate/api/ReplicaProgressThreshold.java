package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * Availability threshold for step completion ({@code
 * spec.strategy.canary.replicaProgressThreshold}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ReplicaProgressThreshold extends ModelObject {

  /** {@code Percent} or {@code Pods}. */
  @JsonProperty("type")
  private String type;

  /** Threshold in percent of desired replicas or in pods, depending on {@code type}. */
  @JsonProperty("value")
  private Integer value;

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public Integer getValue() {
    return value;
  }

  public void setValue(Integer value) {
    this.value = value;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ReplicaProgressThreshold that = (ReplicaProgressThreshold) o;
    return Objects.equals(type, that.type)
        && Objects.equals(value, that.value)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, value, additionalPropertiesHashCode());
  }
}
