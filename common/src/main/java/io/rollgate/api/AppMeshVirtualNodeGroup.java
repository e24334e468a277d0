package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** App Mesh virtual nodes ({@code appMesh.virtualNodeGroup}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AppMeshVirtualNodeGroup extends ModelObject {

  /** Virtual node of the canary. */
  @JsonProperty("canaryVirtualNodeRef")
  private AppMeshVirtualNodeReference canaryVirtualNodeRef;

  /** Virtual node of the stable version. */
  @JsonProperty("stableVirtualNodeRef")
  private AppMeshVirtualNodeReference stableVirtualNodeRef;

  public AppMeshVirtualNodeReference getCanaryVirtualNodeRef() {
    return canaryVirtualNodeRef;
  }

  public void setCanaryVirtualNodeRef(AppMeshVirtualNodeReference canaryVirtualNodeRef) {
    this.canaryVirtualNodeRef = canaryVirtualNodeRef;
  }

  public AppMeshVirtualNodeReference getStableVirtualNodeRef() {
    return stableVirtualNodeRef;
  }

  public void setStableVirtualNodeRef(AppMeshVirtualNodeReference stableVirtualNodeRef) {
    this.stableVirtualNodeRef = stableVirtualNodeRef;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AppMeshVirtualNodeGroup that = (AppMeshVirtualNodeGroup) o;
    return Objects.equals(canaryVirtualNodeRef, that.canaryVirtualNodeRef)
        && Objects.equals(stableVirtualNodeRef, that.stableVirtualNodeRef)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(canaryVirtualNodeRef, stableVirtualNodeRef, additionalPropertiesHashCode());
  }
}
