package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Traefik routing ({@code trafficRouting.traefik}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TraefikTrafficRouting extends ModelObject {

  /** Name of the weighted TraefikService. */
  @JsonProperty("weightedTraefikServiceName")
  private String weightedTraefikServiceName;

  public String getWeightedTraefikServiceName() {
    return weightedTraefikServiceName;
  }

  public void setWeightedTraefikServiceName(String weightedTraefikServiceName) {
    this.weightedTraefikServiceName = weightedTraefikServiceName;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TraefikTrafficRouting that = (TraefikTrafficRouting) o;
    return Objects.equals(weightedTraefikServiceName, that.weightedTraefikServiceName)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(weightedTraefikServiceName, additionalPropertiesHashCode());
  }
}
