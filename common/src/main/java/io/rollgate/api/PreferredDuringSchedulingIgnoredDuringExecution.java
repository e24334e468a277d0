package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Soft anti-affinity ({@code antiAffinity.preferredDuringSchedulingIgnoredDuringExecution}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PreferredDuringSchedulingIgnoredDuringExecution extends ModelObject {

  /** Scheduling weight, 1 to 100. */
  @JsonProperty("weight")
  private Integer weight;

  public Integer getWeight() {
    return weight;
  }

  public void setWeight(Integer weight) {
    this.weight = weight;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    PreferredDuringSchedulingIgnoredDuringExecution that =
        (PreferredDuringSchedulingIgnoredDuringExecution) o;
    return Objects.equals(weight, that.weight) && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(weight, additionalPropertiesHashCode());
  }
}
