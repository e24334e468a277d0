package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Header match of a header route ({@code setHeaderRoute.match[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class HeaderRoutingMatch extends ModelObject {

  /** HTTP header name. */
  @JsonProperty("headerName")
  private String headerName;

  /** How the header value is matched. */
  @JsonProperty("headerValue")
  private StringMatch headerValue;

  public String getHeaderName() {
    return headerName;
  }

  public void setHeaderName(String headerName) {
    this.headerName = headerName;
  }

  public StringMatch getHeaderValue() {
    return headerValue;
  }

  public void setHeaderValue(StringMatch headerValue) {
    this.headerValue = headerValue;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    HeaderRoutingMatch that = (HeaderRoutingMatch) o;
    return Objects.equals(headerName, that.headerName)
        && Objects.equals(headerValue, that.headerValue)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(headerName, headerValue, additionalPropertiesHashCode());
  }
}
