package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Service requested for an experiment template ({@code experiment.templates[].service}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TemplateService extends ModelObject {

  /** Service name; absent means the ReplicaSet name. */
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
    TemplateService that = (TemplateService) o;
    return Objects.equals(name, that.name) && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, additionalPropertiesHashCode());
  }
}
