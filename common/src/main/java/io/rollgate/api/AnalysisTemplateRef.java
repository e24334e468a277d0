package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Reference to an analysis template ({@code analysis.templates[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AnalysisTemplateRef extends ModelObject {

  /** AnalysisTemplate (or ClusterAnalysisTemplate) name. */
  @JsonProperty("templateName")
  private String templateName;

  /** Use a ClusterAnalysisTemplate. */
  @JsonProperty("clusterScope")
  private Boolean clusterScope;

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

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AnalysisTemplateRef that = (AnalysisTemplateRef) o;
    return Objects.equals(templateName, that.templateName)
        && Objects.equals(clusterScope, that.clusterScope)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(templateName, clusterScope, additionalPropertiesHashCode());
  }
}
