package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import java.util.Objects;

/** Metadata added to created AnalysisRuns ({@code analysisRunMetadata}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AnalysisRunMetadata extends ModelObject {

  /** Labels. */
  @JsonProperty("labels")
  private Map<String, String> labels;

  /** Annotations. */
  @JsonProperty("annotations")
  private Map<String, String> annotations;

  public Map<String, String> getLabels() {
    return labels;
  }

  public void setLabels(Map<String, String> labels) {
    this.labels = labels;
  }

  public Map<String, String> getAnnotations() {
    return annotations;
  }

  public void setAnnotations(Map<String, String> annotations) {
    this.annotations = annotations;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AnalysisRunMetadata that = (AnalysisRunMetadata) o;
    return Objects.equals(labels, that.labels)
        && Objects.equals(annotations, that.annotations)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(labels, annotations, additionalPropertiesHashCode());
  }
}
