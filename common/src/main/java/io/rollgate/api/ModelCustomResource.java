package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.kubernetes.client.CustomResource;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Base class of the custom resources of the wire model (Rollout, AnalysisTemplate, ClusterAnalysisTemplate,
 * AnalysisRun, Experiment): the top-level counterpart of {@link ModelObject}, which these classes cannot extend since
 * they must extend fabric8's {@link CustomResource}.
 *
 * <p>Top-level JSON properties other than {@code apiVersion}, {@code kind}, {@code metadata}, {@code spec} and
 * {@code status} (written by a newer Argo Rollouts, another tool or a user) are kept in
 * {@link #getAdditionalProperties()} and written back unchanged after the modelled ones, so a read-modify-write never
 * drops them. No map is allocated until the first such property appears.
 *
 * @param <S> the type of {@code spec}
 * @param <T> the type of {@code status}, {@link Void} for a kind without one
 */
public abstract class ModelCustomResource<S, T> extends CustomResource<S, T> {

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
    return unknownPropertiesToWrite().equals(((ModelCustomResource<?, ?>) o).unknownPropertiesToWrite());
  }

  @Override
  public int hashCode() {
    return 31 * super.hashCode() + unknownPropertiesToWrite().hashCode();
  }
}
