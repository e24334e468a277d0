package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Istio TLS route selector ({@code virtualService.tlsRoutes[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TLSRoute extends ModelObject {

  /** Port of the route. */
  @JsonProperty("port")
  private Long port;

  /** SNI hosts of the route. */
  @JsonProperty("sniHosts")
  private List<String> sniHosts;

  public Long getPort() {
    return port;
  }

  public void setPort(Long port) {
    this.port = port;
  }

  public List<String> getSniHosts() {
    return sniHosts;
  }

  public void setSniHosts(List<String> sniHosts) {
    this.sniHosts = sniHosts;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TLSRoute that = (TLSRoute) o;
    return Objects.equals(port, that.port)
        && Objects.equals(sniHosts, that.sniHosts)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(port, sniHosts, additionalPropertiesHashCode());
  }
}
