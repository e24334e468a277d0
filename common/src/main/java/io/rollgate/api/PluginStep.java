package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import java.util.Objects;

/** Step plugin invocation ({@code steps[].plugin}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PluginStep extends ModelObject {

  /** Plugin name, {@code <namespace>/<name>} as configured for the controller. */
  @JsonProperty("name")
  private String name;

  /** Opaque plugin configuration passed verbatim to the plugin (schemaless). */
  @JsonProperty("config")
  @SchemaFrom(type = ObjectNode.class)
  private JsonNode config;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public JsonNode getConfig() {
    return config;
  }

  public void setConfig(JsonNode config) {
    this.config = config;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    PluginStep that = (PluginStep) o;
    return Objects.equals(name, that.name)
        && Objects.equals(config, that.config)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, config, additionalPropertiesHashCode());
  }
}
