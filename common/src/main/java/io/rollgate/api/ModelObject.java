package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Base class of the Rollout wire model.
 *
 * <p>Two things are decided here once for every model class:
 *
 * <ul>
 *   <li>JSON properties come from the annotated fields only ({@link JsonAutoDetect}); getters, setters and any helper
 *       method are never mistaken for properties, so names such as {@code HPAReplicas} or {@code stableRS} are spelled
 *       exactly as the {@code @JsonProperty} on the field says.
 *   <li>JSON properties the model does not know (written by a newer Argo Rollouts, another tool or a user) are kept
 *       in {@link #getAdditionalProperties()} and written back unchanged, so a read-modify-write never drops them.
 *       The generated CRD schema does not mention them: the CRD generator only turns an any-getter into
 *       {@code x-kubernetes-preserve-unknown-fields} when its {@code implicitPreserveUnknownFields} option is on, and
 *       this build leaves it off.
 * </ul>
 */
@JsonAutoDetect(
    fieldVisibility = Visibility.ANY,
    getterVisibility = Visibility.NONE,
    isGetterVisibility = Visibility.NONE,
    setterVisibility = Visibility.NONE,
    creatorVisibility = Visibility.NONE)
public abstract class ModelObject {

  /** The unknown properties; null until the first is recorded or {@link #getAdditionalProperties()} is called. */
  @JsonIgnore
  private Map<String, Object> additionalProperties;

  /**
   * Returns the JSON properties this class does not model, in input order.
   *
   * @return the live, mutable map of unknown property names to their JSON values (maps, lists, strings, numbers,
   *     booleans or {@code null}); never {@code null}
   */
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
   * Records a JSON property this class does not model; called by Jackson while reading.
   *
   * @param name the JSON property name
   * @param value its JSON value as a plain Java object
   */
  @JsonAnySetter
  public void setAdditionalProperty(String name, Object value) {
    getAdditionalProperties().put(name, value);
  }

  /**
   * Compares the unknown properties of two model objects; used by the subclasses' {@code equals}. No map and an empty
   * map are equal.
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
   * The hash code of the unknown properties, for the subclasses' {@code hashCode}: that of the map, 0 when there is
   * none (as for an empty map).
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
