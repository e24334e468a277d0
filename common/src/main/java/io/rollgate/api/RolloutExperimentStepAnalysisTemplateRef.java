package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Analysis of an experiment step ({@code experiment.analyses[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutExperimentStepAnalysisTemplateRef extends ModelObject {

  /** Analysis name within the Experiment. */
  @JsonProperty("name")
  private String name;

  /** AnalysisTemplate (or ClusterAnalysisTemplate) name. */
  @JsonProperty("templateName")
  private String templateName;

  /** Use a ClusterAnalysisTemplate. */
  @JsonProperty("clusterScope")
  private Boolean clusterScope;

  /** Arguments passed to the template. */
  @JsonProperty("args")
  private List<AnalysisRunArgument> args;

  /** The Experiment completes once this analysis succeeds. */
  @JsonProperty("requiredForCompletion")
  private Boolean requiredForCompletion;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getTemplateName() {
    return templateName;
  }

  public void setTemplateName(String templateName) {
    this.templateName = templateName;
  }

  public Boolean getClusterScope() {
    return clusterScope;
  }

  public void setClusterScope(Boolean clusterScope) {
    this.clusterScope = clusterScope;
  }

  public List<AnalysisRunArgument> getArgs() {
    return args;
  }

  public void setArgs(List<AnalysisRunArgument> args) {
    this.args = args;
  }

  public Boolean getRequiredForCompletion() {
    return requiredForCompletion;
  }

  public void setRequiredForCompletion(Boolean requiredForCompletion) {
    this.requiredForCompletion = requiredForCompletion;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    RolloutExperimentStepAnalysisTemplateRef that = (RolloutExperimentStepAnalysisTemplateRef) o;
    return Objects.equals(name, that.name)
        && Objects.equals(templateName, that.templateName)
        && Objects.equals(clusterScope, that.clusterScope)
        && Objects.equals(args, that.args)
        && Objects.equals(requiredForCompletion, that.requiredForCompletion)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name,
        templateName,
        clusterScope,
        args,
        requiredForCompletion,
        additionalPropertiesHashCode());
  }
}
