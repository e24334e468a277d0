package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * Key of a Secret in the run's namespace ({@code args[].valueFrom.secretKeyRef}), read at
 * measurement time.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretKeyRef extends ModelObject {

  /** Secret name. */
  @JsonProperty("name")
  private String name;

  /** Key within the Secret's data. */
  @JsonProperty("key")
  private String key;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getKey() {
    return key;
  }

  public void setKey(String key) {
    this.key = key;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    SecretKeyRef that = (SecretKeyRef) o;
    return Objects.equals(name, that.name)
        && Objects.equals(key, that.key)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, key, additionalPropertiesHashCode());
  }
}
