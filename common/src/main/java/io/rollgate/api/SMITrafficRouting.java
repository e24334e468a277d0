package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** SMI routing ({@code trafficRouting.smi}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SMITrafficRouting extends ModelObject {

  /** Root Service of the TrafficSplit (default {@code stableService}). */
  @JsonProperty("rootService")
  private String rootService;

  /** TrafficSplit name (default the Rollout name). */
  @JsonProperty("trafficSplitName")
  private String trafficSplitName;

  public String getRootService() {
    return rootService;
  }

  public void setRootService(String rootService) {
    this.rootService = rootService;
  }

  public String getTrafficSplitName() {
    return trafficSplitName;
  }

  public void setTrafficSplitName(String trafficSplitName) {
    this.trafficSplitName = trafficSplitName;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    SMITrafficRouting that = (SMITrafficRouting) o;
    return Objects.equals(rootService, that.rootService)
        && Objects.equals(trafficSplitName, that.trafficSplitName)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(rootService, trafficSplitName, additionalPropertiesHashCode());
  }
}
