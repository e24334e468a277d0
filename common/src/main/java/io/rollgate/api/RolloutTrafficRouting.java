package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Traffic routers of a canary ({@code spec.strategy.canary.trafficRouting}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutTrafficRouting extends ModelObject {

  /** Istio VirtualService / DestinationRule routing. */
  @JsonProperty("istio")
  private IstioTrafficRouting istio;

  /** NGINX Ingress canary routing. */
  @JsonProperty("nginx")
  private NginxTrafficRouting nginx;

  /** AWS Load Balancer Controller routing. */
  @JsonProperty("alb")
  private ALBTrafficRouting alb;

  /** SMI TrafficSplit routing. */
  @JsonProperty("smi")
  private SMITrafficRouting smi;

  /** Ambassador Mapping routing. */
  @JsonProperty("ambassador")
  private AmbassadorTrafficRouting ambassador;

  /** AWS App Mesh routing. */
  @JsonProperty("appMesh")
  private AppMeshTrafficRouting appMesh;

  /** Traefik weighted service routing. */
  @JsonProperty("traefik")
  private TraefikTrafficRouting traefik;

  /** Apache APISIX route routing. */
  @JsonProperty("apisix")
  private ApisixTrafficRouting apisix;

  /** Routes the controller may create and delete; order is precedence. */
  @JsonProperty("managedRoutes")
  private List<ManagedRoute> managedRoutes;

  /** Total weight that {@code setWeight} is relative to (default 100). */
  @JsonProperty("maxTrafficWeight")
  private Integer maxTrafficWeight;

  /** Traffic router plugins: {@code <namespace>/<name>} to opaque configuration (schemaless). */
  @JsonProperty("plugins")
  @SchemaFrom(type = ObjectNode.class)
  private Map<String, JsonNode> plugins;

  public IstioTrafficRouting getIstio() {
    return istio;
  }

  public void setIstio(IstioTrafficRouting istio) {
    this.istio = istio;
  }

  public NginxTrafficRouting getNginx() {
    return nginx;
  }

  public void setNginx(NginxTrafficRouting nginx) {
    this.nginx = nginx;
  }

  public ALBTrafficRouting getAlb() {
    return alb;
  }

  public void setAlb(ALBTrafficRouting alb) {
    this.alb = alb;
  }

  public SMITrafficRouting getSmi() {
    return smi;
  }

  public void setSmi(SMITrafficRouting smi) {
    this.smi = smi;
  }

  public AmbassadorTrafficRouting getAmbassador() {
    return ambassador;
  }

  public void setAmbassador(AmbassadorTrafficRouting ambassador) {
    this.ambassador = ambassador;
  }

  public AppMeshTrafficRouting getAppMesh() {
    return appMesh;
  }

  public void setAppMesh(AppMeshTrafficRouting appMesh) {
    this.appMesh = appMesh;
  }

  public TraefikTrafficRouting getTraefik() {
    return traefik;
  }

  public void setTraefik(TraefikTrafficRouting traefik) {
    this.traefik = traefik;
  }

  public ApisixTrafficRouting getApisix() {
    return apisix;
  }

  public void setApisix(ApisixTrafficRouting apisix) {
    this.apisix = apisix;
  }

  public List<ManagedRoute> getManagedRoutes() {
    return managedRoutes;
  }

  public void setManagedRoutes(List<ManagedRoute> managedRoutes) {
    this.managedRoutes = managedRoutes;
  }

  public Integer getMaxTrafficWeight() {
    return maxTrafficWeight;
  }

  public void setMaxTrafficWeight(Integer maxTrafficWeight) {
    this.maxTrafficWeight = maxTrafficWeight;
  }

  public Map<String, JsonNode> getPlugins() {
    return plugins;
  }

  public void setPlugins(Map<String, JsonNode> plugins) {
    this.plugins = plugins;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    RolloutTrafficRouting that = (RolloutTrafficRouting) o;
    return Objects.equals(istio, that.istio)
        && Objects.equals(nginx, that.nginx)
        && Objects.equals(alb, that.alb)
        && Objects.equals(smi, that.smi)
        && Objects.equals(ambassador, that.ambassador)
        && Objects.equals(appMesh, that.appMesh)
        && Objects.equals(traefik, that.traefik)
        && Objects.equals(apisix, that.apisix)
        && Objects.equals(managedRoutes, that.managedRoutes)
        && Objects.equals(maxTrafficWeight, that.maxTrafficWeight)
        && Objects.equals(plugins, that.plugins)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        istio,
        nginx,
        alb,
        smi,
        ambassador,
        appMesh,
        traefik,
        apisix,
        managedRoutes,
        maxTrafficWeight,
        plugins,
        additionalPropertiesHashCode());
  }
}
