package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * Source of a resolved argument value ({@code args[].valueFrom}); exactly one member should be set.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ArgumentValueFrom extends ModelObject {

  /** {@code Stable} or {@code Latest}: the stable or new ReplicaSet's pod-template hash. */
  @JsonProperty("podTemplateHashValue")
  private String podTemplateHashValue;

  /** Path of a field of the Rollout. */
  @JsonProperty("fieldRef")
  private FieldRef fieldRef;

  public String getPodTemplateHashValue() {
    return podTemplateHashValue;
  }

  public void setPodTemplateHashValue(String podTemplateHashValue) {
    this.podTemplateHashValue = podTemplateHashValue;
  }

  public FieldRef getFieldRef() {
    return fieldRef;
  }

  public void setFieldRef(FieldRef fieldRef) {
    this.fieldRef = fieldRef;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ArgumentValueFrom that = (ArgumentValueFrom) o;
    return Objects.equals(podTemplateHashValue, that.podTemplateHashValue)
        && Objects.equals(fieldRef, that.fieldRef)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(podTemplateHashValue, fieldRef, additionalPropertiesHashCode());
  }
}
