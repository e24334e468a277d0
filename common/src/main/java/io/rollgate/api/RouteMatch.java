package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import java.util.Objects;

/** Request match of a mirror route ({@code setMirrorRoute.match[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RouteMatch extends ModelObject {

  /** HTTP method match. */
  @JsonProperty("method")
  private StringMatch method;

  /** URI path match. */
  @JsonProperty("path")
  private StringMatch path;

  /** Header name to value match. */
  @JsonProperty("headers")
  private Map<String, StringMatch> headers;

  public StringMatch getMethod() {
    return method;
  }

  public void setMethod(StringMatch method) {
    this.method = method;
  }

  public StringMatch getPath() {
    return path;
  }

  public void setPath(StringMatch path) {
    this.path = path;
  }

  public Map<String, StringMatch> getHeaders() {
    return headers;
  }

  public void setHeaders(Map<String, StringMatch> headers) {
    this.headers = headers;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    RouteMatch that = (RouteMatch) o;
    return Objects.equals(method, that.method)
        && Objects.equals(path, that.path)
        && Objects.equals(headers, that.headers)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(method, path, headers, additionalPropertiesHashCode());
  }
}
