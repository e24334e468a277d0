package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.kubernetes.client.CustomResource;
import java.util.Map;

/**
 * Base class of the custom resources of the wire model (Rollout, AnalysisTemplate,
 * ClusterAnalysisTemplate, AnalysisRun, Experiment): the top-level counterpart of {@link
 * ModelObject}, which these classes cannot extend since they must extend fabric8's {@link
 * CustomResource}.
 *
 * <p>Top-level JSON properties other than {@code apiVersion}, {@code kind}, {@code metadata},
 * {@code spec} and {@code status} (written by a newer Argo Rollouts, another tool or a user) are
 * kept in {@link #getAdditionalProperties()} and written back unchanged after the modelled ones, so
 * a read-modify-write never drops them ({@link UnknownProperties}). No map is allocated until the
 * first such property appears.
 *
 * @param <S> the type of {@code spec}
 * @param <T> the type of {@code status}, {@link Void} for a kind without one
 */
public abstract class ModelCustomResource<S, T> extends CustomResource<S, T>
    implements UnknownProperties {

  /** The unknown top-level properties; null until the first is recorded or the map is asked for. */
  @JsonIgnore private Map<String, Object> additionalProperties;

  @Override
  public final Map<String, Object> unknownPropertiesOrNull() {
    return additionalProperties;
  }

  @Override
  public final void initUnknownProperties(Map<String, Object> map) {
    additionalProperties = map;
  }

  /**
   * Returns the top-level JSON properties this class does not model, in input order.
   *
   * @return the live, mutable map of unknown property names to their JSON values; never {@code
   *     null}
   */
  @JsonIgnore
  @Override
  public Map<String, Object> getAdditionalProperties() {
    return UnknownProperties.super.getAdditionalProperties();
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass() || !super.equals(o)) {
      return false;
    }
    return unknownPropertiesToWrite()
        .equals(((ModelCustomResource<?, ?>) o).unknownPropertiesToWrite());
  }

  @Override
  public int hashCode() {
    return 31 * super.hashCode() + unknownPropertiesToWrite().hashCode();
  }
}
