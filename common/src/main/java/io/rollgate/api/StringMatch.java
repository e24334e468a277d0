package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** String matcher; exactly one member should be set. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class StringMatch extends ModelObject {

  /** Exact value. */
  @JsonProperty("exact")
  private String exact;

  /** Value prefix. */
  @JsonProperty("prefix")
  private String prefix;

  /** Regular expression (RE2 syntax). */
  @JsonProperty("regex")
  private String regex;

  public String getExact() {
    return exact;
  }

  public void setExact(String exact) {
    this.exact = exact;
  }

  public String getPrefix() {
    return prefix;
  }

  public void setPrefix(String prefix) {
    this.prefix = prefix;
  }

  public String getRegex() {
    return regex;
  }

  public void setRegex(String regex) {
    this.regex = regex;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    StringMatch that = (StringMatch) o;
    return Objects.equals(exact, that.exact)
        && Objects.equals(prefix, that.prefix)
        && Objects.equals(regex, that.regex)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(exact, prefix, regex, additionalPropertiesHashCode());
  }
}
