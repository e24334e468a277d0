package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** App Mesh virtual node reference. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AppMeshVirtualNodeReference extends ModelObject {

  /** Virtual node name. */
  @JsonProperty("name")
  private String name;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AppMeshVirtualNodeReference that = (AppMeshVirtualNodeReference) o;
    return Objects.equals(name, that.name) && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, additionalPropertiesHashCode());
  }
}
