package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ClusterAnalysisTemplate custom resource, {@code argoproj.io/v1alpha1} kind {@code ClusterAnalysisTemplate}
 * (plural {@code clusteranalysistemplates}, short name {@code cat}, cluster-scoped), wire-compatible with Argo Rollouts
 * (docs/compatibility.md §0, §9.1): an AnalysisTemplate usable from every namespace. It has no status (the
 * CRD schema has no {@code status} property, as upstream).
 */
@Group("argoproj.io")
@Version("v1alpha1")
@Kind("ClusterAnalysisTemplate")
@Plural("clusteranalysistemplates")
@ShortNames("cat")
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@JsonIgnoreProperties("status")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterAnalysisTemplate extends CustomResource<AnalysisTemplateSpec, Void> {

  /** The unknown top-level properties; null until the first is recorded or the map is asked for. */
  @JsonIgnore
  private Map<String, Object> additionalProperties;

  /**
   * Returns the top-level JSON properties this class does not model, in input order.
   *
   * @return the live, mutable map of unknown property names to their JSON values; never {@code null}
   */
  @JsonIgnore
  public Map<String, Object> getAdditionalProperties() {
    if (additionalProperties == null) {
      additionalProperties = new LinkedHashMap<>();
    }
    return additionalProperties;
  }

  /**
   * The unknown properties Jackson writes after the modelled ones; an object that never had one gets no map.
   *
   * @return the unknown properties, or an empty map
   */
  @JsonAnyGetter
  private Map<String, Object> unknownPropertiesToWrite() {
    return additionalProperties == null ? Map.of() : additionalProperties;
  }

  /**
   * Records a top-level JSON property this class does not model; called by Jackson while reading.
   *
   * @param name the JSON property name
   * @param value its JSON value as a plain Java object
   */
  @JsonAnySetter
  public void setAdditionalProperty(String name, Object value) {
    getAdditionalProperties().put(name, value);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass() || !super.equals(o)) {
      return false;
    }
    return unknownPropertiesToWrite().equals(((ClusterAnalysisTemplate) o).unknownPropertiesToWrite());
  }

  @Override
  public int hashCode() {
    return 31 * super.hashCode() + unknownPropertiesToWrite().hashCode();
  }
}
