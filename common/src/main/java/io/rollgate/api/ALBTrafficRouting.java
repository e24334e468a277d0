package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.generator.annotation.Required;
import java.util.List;
import java.util.Objects;

/** AWS ALB routing ({@code trafficRouting.alb}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ALBTrafficRouting extends ModelObject {

  /** Ingress name; exclusive with {@code ingresses}. */
  @JsonProperty("ingress")
  private String ingress;

  /** Ingress names; exclusive with {@code ingress}. */
  @JsonProperty("ingresses")
  private List<String> ingresses;

  /** Service port the Ingress routes to (required). */
  @JsonProperty("servicePort")
  @Required
  private Integer servicePort;

  /** Service named in the Ingress action (default {@code stableService}). */
  @JsonProperty("rootService")
  private String rootService;

  /** Annotation prefix (default {@code alb.ingress.kubernetes.io}). */
  @JsonProperty("annotationPrefix")
  private String annotationPrefix;

  /** Target-group stickiness. */
  @JsonProperty("stickinessConfig")
  private StickinessConfig stickinessConfig;

  public String getIngress() {
    return ingress;
  }

  public void setIngress(String ingress) {
    this.ingress = ingress;
  }

  public List<String> getIngresses() {
    return ingresses;
  }

  public void setIngresses(List<String> ingresses) {
    this.ingresses = ingresses;
  }

  public Integer getServicePort() {
    return servicePort;
  }

  public void setServicePort(Integer servicePort) {
    this.servicePort = servicePort;
  }

  public String getRootService() {
    return rootService;
  }

  public void setRootService(String rootService) {
    this.rootService = rootService;
  }

  public String getAnnotationPrefix() {
    return annotationPrefix;
  }

  public void setAnnotationPrefix(String annotationPrefix) {
    this.annotationPrefix = annotationPrefix;
  }

  public StickinessConfig getStickinessConfig() {
    return stickinessConfig;
  }

  public void setStickinessConfig(StickinessConfig stickinessConfig) {
    this.stickinessConfig = stickinessConfig;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ALBTrafficRouting that = (ALBTrafficRouting) o;
    return Objects.equals(ingress, that.ingress)
        && Objects.equals(ingresses, that.ingresses)
        && Objects.equals(servicePort, that.servicePort)
        && Objects.equals(rootService, that.rootService)
        && Objects.equals(annotationPrefix, that.annotationPrefix)
        && Objects.equals(stickinessConfig, that.stickinessConfig)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        ingress,
        ingresses,
        servicePort,
        rootService,
        annotationPrefix,
        stickinessConfig,
        additionalPropertiesHashCode());
  }
}
