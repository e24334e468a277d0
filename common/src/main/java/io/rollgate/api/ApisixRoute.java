package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** APISIX route reference ({@code apisix.route}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ApisixRoute extends ModelObject {

  /** ApisixRoute name. */
  @JsonProperty("name")
  private String name;

  /** Rule names to update. */
  @JsonProperty("rules")
  private List<String> rules;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public List<String> getRules() {
    return rules;
  }

  public void setRules(List<String> rules) {
    this.rules = rules;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ApisixRoute that = (ApisixRoute) o;
    return Objects.equals(name, that.name)
        && Objects.equals(rules, that.rules)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, rules, additionalPropertiesHashCode());
  }
}
