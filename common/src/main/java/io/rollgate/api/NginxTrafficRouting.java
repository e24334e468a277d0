package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** NGINX Ingress routing ({@code trafficRouting.nginx}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class NginxTrafficRouting extends ModelObject {

  /** Annotation prefix (default {@code nginx.ingress.kubernetes.io}). */
  @JsonProperty("annotationPrefix")
  private String annotationPrefix;

  /** Stable Ingress name; exclusive with {@code stableIngresses}. */
  @JsonProperty("stableIngress")
  private String stableIngress;

  /** Stable Ingress names; exclusive with {@code stableIngress}. */
  @JsonProperty("stableIngresses")
  private List<String> stableIngresses;

  /** Annotations added to the canary Ingress, keys prefixed with {@code annotationPrefix}. */
  @JsonProperty("additionalIngressAnnotations")
  private Map<String, String> additionalIngressAnnotations;

  /** Annotations added to the canary Ingress verbatim. */
  @JsonProperty("canaryIngressAnnotations")
  private Map<String, String> canaryIngressAnnotations;

  public String getAnnotationPrefix() {
    return annotationPrefix;
  }

  public void setAnnotationPrefix(String annotationPrefix) {
    this.annotationPrefix = annotationPrefix;
  }

  public String getStableIngress() {
    return stableIngress;
  }

  public void setStableIngress(String stableIngress) {
    this.stableIngress = stableIngress;
  }

  public List<String> getStableIngresses() {
    return stableIngresses;
  }

  public void setStableIngresses(List<String> stableIngresses) {
    this.stableIngresses = stableIngresses;
  }

  public Map<String, String> getAdditionalIngressAnnotations() {
    return additionalIngressAnnotations;
  }

  public void setAdditionalIngressAnnotations(Map<String, String> additionalIngressAnnotations) {
    this.additionalIngressAnnotations = additionalIngressAnnotations;
  }

  public Map<String, String> getCanaryIngressAnnotations() {
    return canaryIngressAnnotations;
  }

  public void setCanaryIngressAnnotations(Map<String, String> canaryIngressAnnotations) {
    this.canaryIngressAnnotations = canaryIngressAnnotations;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    NginxTrafficRouting that = (NginxTrafficRouting) o;
    return Objects.equals(annotationPrefix, that.annotationPrefix)
        && Objects.equals(stableIngress, that.stableIngress)
        && Objects.equals(stableIngresses, that.stableIngresses)
        && Objects.equals(additionalIngressAnnotations, that.additionalIngressAnnotations)
        && Objects.equals(canaryIngressAnnotations, that.canaryIngressAnnotations)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        annotationPrefix,
        stableIngress,
        stableIngresses,
        additionalIngressAnnotations,
        canaryIngressAnnotations,
        additionalPropertiesHashCode());
  }
}
