package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Istio TCP route selector ({@code virtualService.tcpRoutes[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TCPRoute extends ModelObject {

  /** Port of the route. */
  @JsonProperty("port")
  private Long port;

  public Long getPort() {
    return port;
  }

  public void setPort(Long port) {
    this.port = port;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TCPRoute that = (TCPRoute) o;
    return Objects.equals(port, that.port) && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(port, additionalPropertiesHashCode());
  }
}
