package io.rollgate.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.rollgate.api.ModelObject;
import java.util.Objects;

/**
 * The desired state of a {@link RolloutPolicy}: what it selects, its rules, and how they are
 * enforced.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutPolicySpec extends ModelObject {

  /** {@code enforcementAction}: refuse the Rollout at apply. */
  public static final String DENY = "deny";

  /** {@code enforcementAction}: admit the Rollout with an admission warning. */
  public static final String WARN = "warn";

  /** {@code enforcementAction}: admit silently; the audit records the violation in the status. */
  public static final String AUDIT = "audit";

  @JsonProperty("enforcementAction")
  @JsonPropertyDescription("deny (default), warn or audit")
  private String enforcementAction;

  @JsonProperty("namespaceSelector")
  @JsonPropertyDescription(
      "Namespaces the policy applies to; absent or empty selects every namespace")
  private LabelSelector namespaceSelector;

  @JsonProperty("rolloutSelector")
  @JsonPropertyDescription(
      "Rollouts (by their labels) the policy applies to within the selected namespaces")
  private LabelSelector rolloutSelector;

  @JsonProperty("rules")
  private PolicyRules rules;

  /**
   * Returns the enforcement action as written.
   *
   * @return {@code deny}, {@code warn}, {@code audit}, or null (meaning {@code deny})
   */
  public String getEnforcementAction() {
    return enforcementAction;
  }

  /**
   * Sets the enforcement action.
   *
   * @param enforcementAction {@code deny}, {@code warn} or {@code audit}
   */
  public void setEnforcementAction(String enforcementAction) {
    this.enforcementAction = enforcementAction;
  }

  /**
   * The effective enforcement action.
   *
   * @return the action, {@link #DENY} when absent
   */
  public String effectiveEnforcementAction() {
    return enforcementAction == null || enforcementAction.isEmpty() ? DENY : enforcementAction;
  }

  /**
   * Returns the namespace selector.
   *
   * @return the selector, or null (every namespace)
   */
  public LabelSelector getNamespaceSelector() {
    return namespaceSelector;
  }

  /**
   * Sets the namespace selector.
   *
   * @param namespaceSelector the selector, or null for every namespace
   */
  public void setNamespaceSelector(LabelSelector namespaceSelector) {
    this.namespaceSelector = namespaceSelector;
  }

  /**
   * Returns the Rollout selector.
   *
   * @return the selector, or null (every Rollout of the selected namespaces)
   */
  public LabelSelector getRolloutSelector() {
    return rolloutSelector;
  }

  /**
   * Sets the Rollout selector.
   *
   * @param rolloutSelector the selector, or null for every Rollout
   */
  public void setRolloutSelector(LabelSelector rolloutSelector) {
    this.rolloutSelector = rolloutSelector;
  }

  /**
   * Returns the rules.
   *
   * @return the rules, or null (nothing is required)
   */
  public PolicyRules getRules() {
    return rules;
  }

  /**
   * Sets the rules.
   *
   * @param rules the rules
   */
  public void setRules(PolicyRules rules) {
    this.rules = rules;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof RolloutPolicySpec that)) {
      return false;
    }
    return Objects.equals(enforcementAction, that.enforcementAction)
        && Objects.equals(namespaceSelector, that.namespaceSelector)
        && Objects.equals(rolloutSelector, that.rolloutSelector)
        && Objects.equals(rules, that.rules)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        enforcementAction,
        namespaceSelector,
        rolloutSelector,
        rules,
        additionalPropertiesHashCode());
  }
}
