package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Managed mirror route ({@code steps[].setMirrorRoute}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SetMirrorRoute extends ModelObject {

  /** Route name; must be listed in {@code trafficRouting.managedRoutes}. */
  @JsonProperty("name")
  private String name;

  /** Request matches; absent removes the route. */
  @JsonProperty("match")
  private List<RouteMatch> match;

  /** Percentage of matching traffic mirrored to the canary (default 100). */
  @JsonProperty("percentage")
  private Integer percentage;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public List<RouteMatch> getMatch() {
    return match;
  }

  public void setMatch(List<RouteMatch> match) {
    this.match = match;
  }

  public Integer getPercentage() {
    return percentage;
  }

  public void setPercentage(Integer percentage) {
    this.percentage = percentage;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    SetMirrorRoute that = (SetMirrorRoute) o;
    return Objects.equals(name, that.name)
        && Objects.equals(match, that.match)
        && Objects.equals(percentage, that.percentage)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, match, percentage, additionalPropertiesHashCode());
  }
}
