package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.Objects;

/** One ReplicaSet of an Experiment ({@code spec.templates[]}, Argo's {@code TemplateSpec}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ExperimentTemplate extends ModelObject {

  /** Template name, unique within the Experiment; the ReplicaSet is {@code <experiment>-<name>}. */
  @JsonProperty("name")
  private String name;

  /** Pod count (default 1). */
  @JsonProperty("replicas")
  private Integer replicas;

  /** Seconds a pod must be ready before it counts as available. */
  @JsonProperty("minReadySeconds")
  private Integer minReadySeconds;

  /** Label selector of the pods; required. */
  @JsonProperty("selector")
  private LabelSelector selector;

  /** Pod template. */
  @JsonProperty("template")
  private PodTemplateSpec template;

  /** Request a Service for this template. */
  @JsonProperty("service")
  private TemplateService service;

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

  public Integer getMinReadySeconds() {
    return minReadySeconds;
  }

  public void setMinReadySeconds(Integer minReadySeconds) {
    this.minReadySeconds = minReadySeconds;
  }

  public LabelSelector getSelector() {
    return selector;
  }

  public void setSelector(LabelSelector selector) {
    this.selector = selector;
  }

  public PodTemplateSpec getTemplate() {
    return template;
  }

  public void setTemplate(PodTemplateSpec template) {
    this.template = template;
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
    ExperimentTemplate that = (ExperimentTemplate) o;
    return Objects.equals(name, that.name)
        && Objects.equals(replicas, that.replicas)
        && Objects.equals(minReadySeconds, that.minReadySeconds)
        && Objects.equals(selector, that.selector)
        && Objects.equals(template, that.template)
        && Objects.equals(service, that.service)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name,
        replicas,
        minReadySeconds,
        selector,
        template,
        service,
        additionalPropertiesHashCode());
  }
}
