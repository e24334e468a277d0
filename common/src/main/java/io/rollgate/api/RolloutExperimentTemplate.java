package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.Objects;

/** ReplicaSet template of an experiment step ({@code experiment.templates[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutExperimentTemplate extends ModelObject {

  /** Template name, unique within the step. */
  @JsonProperty("name")
  private String name;

  /** Pod template source: {@code canary} or {@code stable}. */
  @JsonProperty("specRef")
  private String specRef;

  /** Pod count (default 1). */
  @JsonProperty("replicas")
  private Integer replicas;

  /** Labels and annotations added to the template's pods (labels also to its selector). */
  @JsonProperty("metadata")
  private PodTemplateMetadata metadata;

  /** Selector override for the experiment ReplicaSet. */
  @JsonProperty("selector")
  private LabelSelector selector;

  /** Traffic weight sent to this template while the Experiment runs. */
  @JsonProperty("weight")
  private Integer weight;

  /** Request a Service for this template. */
  @JsonProperty("service")
  private TemplateService service;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getSpecRef() {
    return specRef;
  }

  public void setSpecRef(String specRef) {
    this.specRef = specRef;
  }

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public PodTemplateMetadata getMetadata() {
    return metadata;
  }

  public void setMetadata(PodTemplateMetadata metadata) {
    this.metadata = metadata;
  }

  public LabelSelector getSelector() {
    return selector;
  }

  public void setSelector(LabelSelector selector) {
    this.selector = selector;
  }

  public Integer getWeight() {
    return weight;
  }

  public void setWeight(Integer weight) {
    this.weight = weight;
  }

  public TemplateService getService() {
    return service;
  }

  public void setService(TemplateService service) {
    this.service = service;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    RolloutExperimentTemplate that = (RolloutExperimentTemplate) o;
    return Objects.equals(name, that.name)
        && Objects.equals(specRef, that.specRef)
        && Objects.equals(replicas, that.replicas)
        && Objects.equals(metadata, that.metadata)
        && Objects.equals(selector, that.selector)
        && Objects.equals(weight, that.weight)
        && Objects.equals(service, that.service)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name,
        specRef,
        replicas,
        metadata,
        selector,
        weight,
        service,
        additionalPropertiesHashCode());
  }
}
