package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Map;

/**
 * Base class of the Rollout wire model.
 *
 * <p>Two things are decided here once for every model class:
 *
 * <ul>
 *   <li>JSON properties come from the annotated fields only ({@link JsonAutoDetect}); getters,
 *       setters and any helper method are never mistaken for properties, so names such as {@code
 *       HPAReplicas} or {@code stableRS} are spelled exactly as the {@code @JsonProperty} on the
 *       field says.
 *   <li>JSON properties the model does not know (written by a newer Argo Rollouts, another tool or
 *       a user) are kept in {@link #getAdditionalProperties()} and written back unchanged, so a
 *       read-modify-write never drops them ({@link UnknownProperties}). The generated CRD schema
 *       does not mention them: the CRD generator only turns an any-getter into {@code
 *       x-kubernetes-preserve-unknown-fields} when its {@code implicitPreserveUnknownFields} option
 *       is on, and this build leaves it off.
 * </ul>
 */
@JsonAutoDetect(
    fieldVisibility = Visibility.ANY,
    getterVisibility = Visibility.NONE,
    isGetterVisibility = Visibility.NONE,
    setterVisibility = Visibility.NONE,
    creatorVisibility = Visibility.NONE)
public abstract class ModelObject implements UnknownProperties {

  /**
   * The unknown properties; null until the first is recorded or {@link #getAdditionalProperties()}
   * is called.
   */
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
   * Compares the unknown properties of two model objects; used by the subclasses' {@code equals}.
   * No map and an empty map are equal.
   *
   * @param other the object to compare with
   * @return whether both hold equal unknown properties
   */
  protected final boolean additionalPropertiesEqual(ModelObject other) {
    Map<String, Object> mine = additionalProperties;
    Map<String, Object> theirs = other.additionalProperties;
    if (mine == null || mine.isEmpty()) {
      return theirs == null || theirs.isEmpty();
    }
    return mine.equals(theirs);
  }

  /**
   * The hash code of the unknown properties, for the subclasses' {@code hashCode}: that of the map,
   * 0 when there is none (as for an empty map).
   *
   * @return the hash code
   */
  protected final int additionalPropertiesHashCode() {
    return additionalProperties == null ? 0 : additionalProperties.hashCode();
  }

  /**
   * Renders the object as its compact JSON, prefixed with the class name.
   *
   * @return for example {@code SetCanaryScale{"weight":20}}
   */
  @Override
  public String toString() {
    return getClass().getSimpleName() + ModelJson.toJson(this);
  }
}
