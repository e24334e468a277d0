package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Managed header route ({@code steps[].setHeaderRoute}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SetHeaderRoute extends ModelObject {

  /** Route name; must be listed in {@code trafficRouting.managedRoutes}. */
  @JsonProperty("name")
  private String name;

  /** Header matches; absent removes the route. */
  @JsonProperty("match")
  private List<HeaderRoutingMatch> match;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public List<HeaderRoutingMatch> getMatch() {
    return match;
  }

  public void setMatch(List<HeaderRoutingMatch> match) {
    this.match = match;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    SetHeaderRoute that = (SetHeaderRoute) o;
    return Objects.equals(name, that.name)
        && Objects.equals(match, that.match)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, match, additionalPropertiesHashCode());
  }
}
