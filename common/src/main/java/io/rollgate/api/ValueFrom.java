package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * Source of a template or run argument value ({@code spec.args[].valueFrom}, Argo's {@code
 * ValueFrom}); exactly one member should be set.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ValueFrom extends ModelObject {

  /** Key of a Secret in the run's namespace, read at measurement time and masked in messages. */
  @JsonProperty("secretKeyRef")
  private SecretKeyRef secretKeyRef;

  /** Field of the Rollout that creates the run, resolved when the run is created. */
  @JsonProperty("fieldRef")
  private FieldRef fieldRef;

  public SecretKeyRef getSecretKeyRef() {
    return secretKeyRef;
  }

  public void setSecretKeyRef(SecretKeyRef secretKeyRef) {
    this.secretKeyRef = secretKeyRef;
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
    ValueFrom that = (ValueFrom) o;
    return Objects.equals(secretKeyRef, that.secretKeyRef)
        && Objects.equals(fieldRef, that.fieldRef)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(secretKeyRef, fieldRef, additionalPropertiesHashCode());
  }
}
