package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.Objects;

/**
 * Job provider ({@code provider.job}, docs/compatibility.md §9.7): a Kubernetes Job per
 * measurement, Successful when it completes, Failed when it fails. {@code spec} is a {@code
 * batch/v1} JobSpec kept as a JSON tree, because the common module does not depend on the batch
 * model.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class JobMetric extends ModelObject {

  /**
   * Labels and annotations for the created Jobs. As in Argo's CRD, the schema has only {@code
   * labels} and {@code annotations}; other metadata fields are pruned by the API server.
   */
  @JsonProperty("metadata")
  @SchemaFrom(type = AnalysisRunMetadata.class)
  private ObjectMeta metadata;

  /** The {@code batch/v1} JobSpec of the created Jobs (schemaless in the CRD). */
  @JsonProperty("spec")
  @SchemaFrom(type = ObjectNode.class)
  private JsonNode spec;

  public ObjectMeta getMetadata() {
    return metadata;
  }

  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  public JsonNode getSpec() {
    return spec;
  }

  public void setSpec(JsonNode spec) {
    this.spec = spec;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    JobMetric that = (JobMetric) o;
    return Objects.equals(metadata, that.metadata)
        && Objects.equals(spec, that.spec)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(metadata, spec, additionalPropertiesHashCode());
  }
}
