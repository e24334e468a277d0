package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** HTTP header of a web or Prometheus provider ({@code headers[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WebMetricHeader extends ModelObject {

  /** Header name. */
  @JsonProperty("key")
  private String key;

  /** Header value. */
  @JsonProperty("value")
  private String value;

  public String getKey() {
    return key;
  }

  public void setKey(String key) {
    this.key = key;
  }

  public String getValue() {
    return value;
  }

  public void setValue(String value) {
    this.value = value;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    WebMetricHeader that = (WebMetricHeader) o;
    return Objects.equals(key, that.key)
        && Objects.equals(value, that.value)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, value, additionalPropertiesHashCode());
  }
}
