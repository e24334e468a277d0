package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Route the controller manages ({@code trafficRouting.managedRoutes[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ManagedRoute extends ModelObject {

  /** Route name. */
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
    ManagedRoute that = (ManagedRoute) o;
    return Objects.equals(name, that.name) && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, additionalPropertiesHashCode());
  }
}
