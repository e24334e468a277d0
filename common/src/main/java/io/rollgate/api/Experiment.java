package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Experiment custom resource, {@code argoproj.io/v1alpha1} kind {@code Experiment} (plural {@code experiments},
 * short name {@code exp}, namespaced), wire-compatible with Argo Rollouts (docs/compatibility.md §0, §12.1).
 *
 * <p>As upstream, the CRD has <b>no status subresource</b>: {@code status} is part of the main resource and is written
 * with a normal patch guarded by {@code resourceVersion}. The build removes the status subresource that the CRD
 * generator would otherwise add (see {@code build-tools/CrdWithoutStatusSubresource.java}). Printer columns: Status
 * ({@code .status.phase}) and Age.
 */
@Group("argoproj.io")
@Version("v1alpha1")
@Kind("Experiment")
@Plural("experiments")
@ShortNames("exp")
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Experiment extends CustomResource<ExperimentSpec, ExperimentStatus> implements Namespaced {

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
    return unknownPropertiesToWrite().equals(((Experiment) o).unknownPropertiesToWrite());
  }

  @Override
  public int hashCode() {
    return 31 * super.hashCode() + unknownPropertiesToWrite().hashCode();
  }
}
