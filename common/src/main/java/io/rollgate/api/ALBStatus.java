package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** ALB resources managed for one Ingress ({@code status.alb}, {@code status.albs[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ALBStatus extends ModelObject {

  /** Load balancer. */
  @JsonProperty("loadBalancer")
  private AwsResourceRef loadBalancer;

  /** Canary target group. */
  @JsonProperty("canaryTargetGroup")
  private AwsResourceRef canaryTargetGroup;

  /** Stable target group. */
  @JsonProperty("stableTargetGroup")
  private AwsResourceRef stableTargetGroup;

  /** Ingress name. */
  @JsonProperty("ingress")
  private String ingress;

  public AwsResourceRef getLoadBalancer() {
    return loadBalancer;
  }

  public void setLoadBalancer(AwsResourceRef loadBalancer) {
    this.loadBalancer = loadBalancer;
  }

  public AwsResourceRef getCanaryTargetGroup() {
    return canaryTargetGroup;
  }

  public void setCanaryTargetGroup(AwsResourceRef canaryTargetGroup) {
    this.canaryTargetGroup = canaryTargetGroup;
  }

  public AwsResourceRef getStableTargetGroup() {
    return stableTargetGroup;
  }

  public void setStableTargetGroup(AwsResourceRef stableTargetGroup) {
    this.stableTargetGroup = stableTargetGroup;
  }

  public String getIngress() {
    return ingress;
  }

  public void setIngress(String ingress) {
    this.ingress = ingress;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ALBStatus that = (ALBStatus) o;
    return Objects.equals(loadBalancer, that.loadBalancer)
        && Objects.equals(canaryTargetGroup, that.canaryTargetGroup)
        && Objects.equals(stableTargetGroup, that.stableTargetGroup)
        && Objects.equals(ingress, that.ingress)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        loadBalancer,
        canaryTargetGroup,
        stableTargetGroup,
        ingress,
        additionalPropertiesHashCode());
  }
}
