package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Traffic weights last set on the routers ({@code status.canary.weights}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TrafficWeights extends ModelObject {

  /** Canary destination. */
  @JsonProperty("canary")
  private WeightDestination canary;

  /** Stable destination. */
  @JsonProperty("stable")
  private WeightDestination stable;

  /** Further destinations (experiment templates). */
  @JsonProperty("additional")
  private List<WeightDestination> additional;

  /** Result of weight verification; absent when not verified or not supported. */
  @JsonProperty("verified")
  private Boolean verified;

  public WeightDestination getCanary() {
    return canary;
  }

  public void setCanary(WeightDestination canary) {
    this.canary = canary;
  }

  public WeightDestination getStable() {
    return stable;
  }

  public void setStable(WeightDestination stable) {
    this.stable = stable;
  }

  public List<WeightDestination> getAdditional() {
    return additional;
  }

  public void setAdditional(List<WeightDestination> additional) {
    this.additional = additional;
  }

  public Boolean getVerified() {
    return verified;
  }

  public void setVerified(Boolean verified) {
    this.verified = verified;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TrafficWeights that = (TrafficWeights) o;
    return Objects.equals(canary, that.canary)
        && Objects.equals(stable, that.stable)
        && Objects.equals(additional, that.additional)
        && Objects.equals(verified, that.verified)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(canary, stable, additional, verified, additionalPropertiesHashCode());
  }
}
