package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Istio routing ({@code trafficRouting.istio}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class IstioTrafficRouting extends ModelObject {

  /** Single VirtualService; exclusive with {@code virtualServices}. */
  @JsonProperty("virtualService")
  private IstioVirtualService virtualService;

  /** Several VirtualServices; exclusive with {@code virtualService}. */
  @JsonProperty("virtualServices")
  private List<IstioVirtualService> virtualServices;

  /** DestinationRule for subset-level routing. */
  @JsonProperty("destinationRule")
  private IstioDestinationRule destinationRule;

  public IstioVirtualService getVirtualService() {
    return virtualService;
  }

  public void setVirtualService(IstioVirtualService virtualService) {
    this.virtualService = virtualService;
  }

  public List<IstioVirtualService> getVirtualServices() {
    return virtualServices;
  }

  public void setVirtualServices(List<IstioVirtualService> virtualServices) {
    this.virtualServices = virtualServices;
  }

  public IstioDestinationRule getDestinationRule() {
    return destinationRule;
  }

  public void setDestinationRule(IstioDestinationRule destinationRule) {
    this.destinationRule = destinationRule;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    IstioTrafficRouting that = (IstioTrafficRouting) o;
    return Objects.equals(virtualService, that.virtualService)
        && Objects.equals(virtualServices, that.virtualServices)
        && Objects.equals(destinationRule, that.destinationRule)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        virtualService, virtualServices, destinationRule, additionalPropertiesHashCode());
  }
}
