package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** App Mesh virtual service reference ({@code appMesh.virtualService}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AppMeshVirtualService extends ModelObject {

  /** Virtual service name. */
  @JsonProperty("name")
  private String name;

  /** Route names to update. */
  @JsonProperty("routes")
  private List<String> routes;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public List<String> getRoutes() {
    return routes;
  }

  public void setRoutes(List<String> routes) {
    this.routes = routes;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AppMeshVirtualService that = (AppMeshVirtualService) o;
    return Objects.equals(name, that.name)
        && Objects.equals(routes, that.routes)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, routes, additionalPropertiesHashCode());
  }
}
