package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import java.util.Objects;

/**
 * Ephemeral pod metadata ({@code canaryMetadata}, {@code stableMetadata}, {@code previewMetadata},
 * {@code activeMetadata}, experiment template {@code metadata}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodTemplateMetadata extends ModelObject {

  /** Labels added to the pods. */
  @JsonProperty("labels")
  private Map<String, String> labels;

  /** Annotations added to the pods. */
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
    PodTemplateMetadata that = (PodTemplateMetadata) o;
    return Objects.equals(labels, that.labels)
        && Objects.equals(annotations, that.annotations)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(labels, annotations, additionalPropertiesHashCode());
  }
}
