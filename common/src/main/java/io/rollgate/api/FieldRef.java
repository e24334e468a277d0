package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Field reference of an argument ({@code args[].valueFrom.fieldRef}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FieldRef extends ModelObject {

  /**
   * Path such as {@code metadata.labels['app']} or {@code spec.template.spec.containers[0].image}.
   */
  @JsonProperty("fieldPath")
  private String fieldPath;

  public String getFieldPath() {
    return fieldPath;
  }

  public void setFieldPath(String fieldPath) {
    this.fieldPath = fieldPath;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    FieldRef that = (FieldRef) o;
    return Objects.equals(fieldPath, that.fieldPath) && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(fieldPath, additionalPropertiesHashCode());
  }
}
