package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keeps the JSON properties a model class does not know (written by a newer Argo Rollouts, another
 * tool or a user) and writes them back unchanged after the modelled ones, so a read-modify-write
 * never drops them. Shared by {@link ModelObject} and {@link ModelCustomResource}, which cannot
 * share a superclass.
 *
 * <p>The implementing class holds the map in a field of its own, {@code null} until the first
 * unknown property is recorded or {@link #getAdditionalProperties()} is called: most objects never
 * have one, and allocate nothing.
 */
public interface UnknownProperties {

  /**
   * Returns the field holding the unknown properties.
   *
   * @return the map, or {@code null} while none was recorded
   */
  Map<String, Object> unknownPropertiesOrNull();

  /**
   * Sets the field holding the unknown properties; called once, when the map is first needed.
   *
   * @param map the new, empty map
   */
  void initUnknownProperties(Map<String, Object> map);

  /**
   * Returns the JSON properties this class does not model, in input order.
   *
   * @return the live, mutable map of unknown property names to their JSON values (maps, lists,
   *     strings, numbers, booleans or {@code null}); never {@code null}
   */
  default Map<String, Object> getAdditionalProperties() {
    Map<String, Object> map = unknownPropertiesOrNull();
    if (map == null) {
      map = new LinkedHashMap<>();
      initUnknownProperties(map);
    }
    return map;
  }

  /**
   * The unknown properties Jackson writes after the modelled ones; an object that never had one
   * gets no map.
   *
   * @return the unknown properties, or an empty map
   */
  @JsonAnyGetter
  default Map<String, Object> unknownPropertiesToWrite() {
    Map<String, Object> map = unknownPropertiesOrNull();
    return map == null ? Map.of() : map;
  }

  /**
   * Records a JSON property this class does not model; called by Jackson while reading.
   *
   * @param name the JSON property name
   * @param value its JSON value as a plain Java object
   */
  @JsonAnySetter
  default void setAdditionalProperty(String name, Object value) {
    getAdditionalProperties().put(name, value);
  }
}
