package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Apache APISIX routing ({@code trafficRouting.apisix}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ApisixTrafficRouting extends ModelObject {

  /** ApisixRoute to update. */
  @JsonProperty("route")
  private ApisixRoute route;

  public ApisixRoute getRoute() {
    return route;
  }

  public void setRoute(ApisixRoute route) {
    this.route = route;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ApisixTrafficRouting that = (ApisixTrafficRouting) o;
    return Objects.equals(route, that.route) && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(route, additionalPropertiesHashCode());
  }
}
