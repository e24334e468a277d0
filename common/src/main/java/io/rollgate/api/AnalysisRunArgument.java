package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Argument passed to an analysis ({@code args[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AnalysisRunArgument extends ModelObject {

  /** Argument name. */
  @JsonProperty("name")
  private String name;

  /** Literal value. */
  @JsonProperty("value")
  private String value;

  /** Value resolved at run creation. */
  @JsonProperty("valueFrom")
  private ArgumentValueFrom valueFrom;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getValue() {
    return value;
  }

  public void setValue(String value) {
    this.value = value;
  }

  public ArgumentValueFrom getValueFrom() {
    return valueFrom;
  }

  public void setValueFrom(ArgumentValueFrom valueFrom) {
    this.valueFrom = valueFrom;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AnalysisRunArgument that = (AnalysisRunArgument) o;
    return Objects.equals(name, that.name)
        && Objects.equals(value, that.value)
        && Objects.equals(valueFrom, that.valueFrom)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, value, valueFrom, additionalPropertiesHashCode());
  }
}
