package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Explicit canary scale ({@code steps[].setCanaryScale}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SetCanaryScale extends ModelObject {

  /** Canary replicas as a percentage of {@code spec.replicas}. */
  @JsonProperty("weight")
  private Integer weight;

  /** Absolute canary replicas; wins over {@code weight}. */
  @JsonProperty("replicas")
  private Integer replicas;

  /** Cancel earlier explicit scales and follow the traffic weight again. */
  @JsonProperty("matchTrafficWeight")
  private Boolean matchTrafficWeight;

  public Integer getWeight() {
    return weight;
  }

  public void setWeight(Integer weight) {
    this.weight = weight;
  }

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public Boolean getMatchTrafficWeight() {
    return matchTrafficWeight;
  }

  public void setMatchTrafficWeight(Boolean matchTrafficWeight) {
    this.matchTrafficWeight = matchTrafficWeight;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    SetCanaryScale that = (SetCanaryScale) o;
    return Objects.equals(weight, that.weight)
        && Objects.equals(replicas, that.replicas)
        && Objects.equals(matchTrafficWeight, that.matchTrafficWeight)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(weight, replicas, matchTrafficWeight, additionalPropertiesHashCode());
  }
}
