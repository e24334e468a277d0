package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** One weighted traffic destination. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WeightDestination extends ModelObject {

  /** Weight in percent of {@code maxTrafficWeight}. */
  @JsonProperty("weight")
  private Integer weight;

  /** Service receiving the traffic. */
  @JsonProperty("serviceName")
  private String serviceName;

  /** Pod-template hash of the receiving ReplicaSet. */
  @JsonProperty("podTemplateHash")
  private String podTemplateHash;

  public Integer getWeight() {
    return weight;
  }

  public void setWeight(Integer weight) {
    this.weight = weight;
  }

  public String getServiceName() {
    return serviceName;
  }

  public void setServiceName(String serviceName) {
    this.serviceName = serviceName;
  }

  public String getPodTemplateHash() {
    return podTemplateHash;
  }

  public void setPodTemplateHash(String podTemplateHash) {
    this.podTemplateHash = podTemplateHash;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    WeightDestination that = (WeightDestination) o;
    return Objects.equals(weight, that.weight)
        && Objects.equals(serviceName, that.serviceName)
        && Objects.equals(podTemplateHash, that.podTemplateHash)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(weight, serviceName, podTemplateHash, additionalPropertiesHashCode());
  }
}
