package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * Argument of an AnalysisTemplate, ClusterAnalysisTemplate or AnalysisRun ({@code spec.args[]},
 * Argo's {@code Argument}, docs/compatibility.md §9.3). Metrics reference it as {@code
 * {{args.<name>}}}. A Rollout's own analysis arguments are {@link AnalysisRunArgument}s, whose
 * {@code podTemplateHashValue} and {@code fieldRef} are resolved into {@code value} when the run is
 * created.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Argument extends ModelObject {

  /** Argument name. */
  @JsonProperty("name")
  private String name;

  /** Literal value; in a template, the default. */
  @JsonProperty("value")
  private String value;

  /** Where the value is read from, when there is no literal value. */
  @JsonProperty("valueFrom")
  private ValueFrom valueFrom;

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

  public ValueFrom getValueFrom() {
    return valueFrom;
  }

  public void setValueFrom(ValueFrom valueFrom) {
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
    Argument that = (Argument) o;
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
