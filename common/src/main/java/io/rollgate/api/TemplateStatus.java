package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** State of one Experiment template ({@code status.templateStatuses[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TemplateStatus extends ModelObject {

  /** Template name. */
  @JsonProperty("name")
  private String name;

  /** Pods of the template's ReplicaSet. */
  @JsonProperty("replicas")
  private Integer replicas;

  /** Pods with the current pod template. */
  @JsonProperty("updatedReplicas")
  private Integer updatedReplicas;

  /** Ready pods. */
  @JsonProperty("readyReplicas")
  private Integer readyReplicas;

  /** Available pods. */
  @JsonProperty("availableReplicas")
  private Integer availableReplicas;

  /** Pod-template hash collisions seen. */
  @JsonProperty("collisionCount")
  private Integer collisionCount;

  /** Progressing, Running, Successful, Failed or Error. */
  @JsonProperty("status")
  private String status;

  /** Reason for the status. */
  @JsonProperty("message")
  private String message;

  /** RFC 3339 time the status last changed. */
  @JsonProperty("lastTransitionTime")
  private String lastTransitionTime;

  /** Name of the Service created for the template. */
  @JsonProperty("serviceName")
  private String serviceName;

  /** The ReplicaSet's {@code rollouts-pod-template-hash}. */
  @JsonProperty("podTemplateHash")
  private String podTemplateHash;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public Integer getUpdatedReplicas() {
    return updatedReplicas;
  }

  public void setUpdatedReplicas(Integer updatedReplicas) {
    this.updatedReplicas = updatedReplicas;
  }

  public Integer getReadyReplicas() {
    return readyReplicas;
  }

  public void setReadyReplicas(Integer readyReplicas) {
    this.readyReplicas = readyReplicas;
  }

  public Integer getAvailableReplicas() {
    return availableReplicas;
  }

  public void setAvailableReplicas(Integer availableReplicas) {
    this.availableReplicas = availableReplicas;
  }

  public Integer getCollisionCount() {
    return collisionCount;
  }

  public void setCollisionCount(Integer collisionCount) {
    this.collisionCount = collisionCount;
  }

  public String getStatus() {
    return status;
  }

  public void setStatus(String status) {
    this.status = status;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public String getLastTransitionTime() {
    return lastTransitionTime;
  }

  public void setLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
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
    TemplateStatus that = (TemplateStatus) o;
    return Objects.equals(name, that.name)
        && Objects.equals(replicas, that.replicas)
        && Objects.equals(updatedReplicas, that.updatedReplicas)
        && Objects.equals(readyReplicas, that.readyReplicas)
        && Objects.equals(availableReplicas, that.availableReplicas)
        && Objects.equals(collisionCount, that.collisionCount)
        && Objects.equals(status, that.status)
        && Objects.equals(message, that.message)
        && Objects.equals(lastTransitionTime, that.lastTransitionTime)
        && Objects.equals(serviceName, that.serviceName)
        && Objects.equals(podTemplateHash, that.podTemplateHash)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name,
        replicas,
        updatedReplicas,
        readyReplicas,
        availableReplicas,
        collisionCount,
        status,
        message,
        lastTransitionTime,
        serviceName,
        podTemplateHash,
        additionalPropertiesHashCode());
  }
}
