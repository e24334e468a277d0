package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Rollout strategy ({@code spec.strategy}); exactly one member should be set. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutStrategy extends ModelObject {

  /** Blue-green strategy. */
  @JsonProperty("blueGreen")
  private BlueGreenStrategy blueGreen;

  /** Canary strategy. */
  @JsonProperty("canary")
  private CanaryStrategy canary;

  public BlueGreenStrategy getBlueGreen() {
    return blueGreen;
  }

  public void setBlueGreen(BlueGreenStrategy blueGreen) {
    this.blueGreen = blueGreen;
  }

  public CanaryStrategy getCanary() {
    return canary;
  }

  public void setCanary(CanaryStrategy canary) {
    this.canary = canary;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    RolloutStrategy that = (RolloutStrategy) o;
    return Objects.equals(blueGreen, that.blueGreen)
        && Objects.equals(canary, that.canary)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(blueGreen, canary, additionalPropertiesHashCode());
  }
}
