package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Ambassador routing ({@code trafficRouting.ambassador}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AmbassadorTrafficRouting extends ModelObject {

  /** Mapping names (at least one). */
  @JsonProperty("mappings")
  private List<String> mappings;

  public List<String> getMappings() {
    return mappings;
  }

  public void setMappings(List<String> mappings) {
    this.mappings = mappings;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AmbassadorTrafficRouting that = (AmbassadorTrafficRouting) o;
    return Objects.equals(mappings, that.mappings) && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(mappings, additionalPropertiesHashCode());
  }
}
