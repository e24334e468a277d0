package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Istio VirtualService reference ({@code istio.virtualService}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class IstioVirtualService extends ModelObject {

  /** VirtualService name, optionally {@code name.namespace}. */
  @JsonProperty("name")
  private String name;

  /** HTTP route names to update. */
  @JsonProperty("routes")
  private List<String> routes;

  /** TLS routes to update. */
  @JsonProperty("tlsRoutes")
  private List<TLSRoute> tlsRoutes;

  /** TCP routes to update. */
  @JsonProperty("tcpRoutes")
  private List<TCPRoute> tcpRoutes;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public List<String> getRoutes() {
    return routes;
  }

  public void setRoutes(List<String> routes) {
    this.routes = routes;
  }

  public List<TLSRoute> getTlsRoutes() {
    return tlsRoutes;
  }

  public void setTlsRoutes(List<TLSRoute> tlsRoutes) {
    this.tlsRoutes = tlsRoutes;
  }

  public List<TCPRoute> getTcpRoutes() {
    return tcpRoutes;
  }

  public void setTcpRoutes(List<TCPRoute> tcpRoutes) {
    this.tcpRoutes = tcpRoutes;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    IstioVirtualService that = (IstioVirtualService) o;
    return Objects.equals(name, that.name)
        && Objects.equals(routes, that.routes)
        && Objects.equals(tlsRoutes, that.tlsRoutes)
        && Objects.equals(tcpRoutes, that.tcpRoutes)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, routes, tlsRoutes, tcpRoutes, additionalPropertiesHashCode());
  }
}
