package io.rollgate.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.rollgate.api.ModelObject;
import java.util.List;
import java.util.Objects;

/** One Rollout that breaks a {@link RolloutPolicy}, as listed in its status. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PolicyViolation extends ModelObject {

  @JsonProperty("namespace")
  private String namespace;

  @JsonProperty("name")
  private String name;

  @JsonProperty("messages")
  private List<String> messages;

  /** Creates an empty entry (for Jackson). */
  public PolicyViolation() {}

  /**
   * Creates an entry.
   *
   * @param namespace the Rollout's namespace
   * @param name the Rollout's name
   * @param messages one message per broken rule, each starting with the field path
   */
  public PolicyViolation(String namespace, String name, List<String> messages) {
    this.namespace = namespace;
    this.name = name;
    this.messages = messages;
  }

  /**
   * Returns the Rollout's namespace.
   *
   * @return the namespace
   */
  public String getNamespace() {
    return namespace;
  }

  /**
   * Returns the Rollout's name.
   *
   * @return the name
   */
  public String getName() {
    return name;
  }

  /**
   * Returns the broken rules.
   *
   * @return one message per broken rule
   */
  public List<String> getMessages() {
    return messages;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof PolicyViolation that)) {
      return false;
    }
    return Objects.equals(namespace, that.namespace)
        && Objects.equals(name, that.name)
        && Objects.equals(messages, that.messages)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(namespace, name, messages, additionalPropertiesHashCode());
  }
}
