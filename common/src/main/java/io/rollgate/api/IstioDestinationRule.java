package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Istio DestinationRule reference ({@code istio.destinationRule}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class IstioDestinationRule extends ModelObject {

  /** DestinationRule name. */
  @JsonProperty("name")
  private String name;

  /** Subset that receives canary traffic. */
  @JsonProperty("canarySubsetName")
  private String canarySubsetName;

  /** Subset that receives stable traffic. */
  @JsonProperty("stableSubsetName")
  private String stableSubsetName;

  /** Further subsets the controller leaves untouched. */
  @JsonProperty("additionalSubsetNames")
  private List<String> additionalSubsetNames;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getCanarySubsetName() {
    return canarySubsetName;
  }

  public void setCanarySubsetName(String canarySubsetName) {
    this.canarySubsetName = canarySubsetName;
  }

  public String getStableSubsetName() {
    return stableSubsetName;
  }

  public void setStableSubsetName(String stableSubsetName) {
    this.stableSubsetName = stableSubsetName;
  }

  public List<String> getAdditionalSubsetNames() {
    return additionalSubsetNames;
  }

  public void setAdditionalSubsetNames(List<String> additionalSubsetNames) {
    this.additionalSubsetNames = additionalSubsetNames;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    IstioDestinationRule that = (IstioDestinationRule) o;
    return Objects.equals(name, that.name)
        && Objects.equals(canarySubsetName, that.canarySubsetName)
        && Objects.equals(stableSubsetName, that.stableSubsetName)
        && Objects.equals(additionalSubsetNames, that.additionalSubsetNames)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name,
        canarySubsetName,
        stableSubsetName,
        additionalSubsetNames,
        additionalPropertiesHashCode());
  }
}
