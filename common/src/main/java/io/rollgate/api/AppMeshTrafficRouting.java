package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** AWS App Mesh routing ({@code trafficRouting.appMesh}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AppMeshTrafficRouting extends ModelObject {

  /** Virtual service whose routes are updated. */
  @JsonProperty("virtualService")
  private AppMeshVirtualService virtualService;

  /** Canary and stable virtual nodes. */
  @JsonProperty("virtualNodeGroup")
  private AppMeshVirtualNodeGroup virtualNodeGroup;

  public AppMeshVirtualService getVirtualService() {
    return virtualService;
  }

  public void setVirtualService(AppMeshVirtualService virtualService) {
    this.virtualService = virtualService;
  }

  public AppMeshVirtualNodeGroup getVirtualNodeGroup() {
    return virtualNodeGroup;
  }

  public void setVirtualNodeGroup(AppMeshVirtualNodeGroup virtualNodeGroup) {
    this.virtualNodeGroup = virtualNodeGroup;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AppMeshTrafficRouting that = (AppMeshTrafficRouting) o;
    return Objects.equals(virtualService, that.virtualService)
        && Objects.equals(virtualNodeGroup, that.virtualNodeGroup)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(virtualService, virtualNodeGroup, additionalPropertiesHashCode());
  }
}
