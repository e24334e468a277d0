package io.rollgate.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.rollgate.api.ModelObject;
import java.util.List;
import java.util.Objects;

/**
 * What the last audit found: how many Rollouts break the policy, the first {@link #MAX_LISTED} of
 * them with their messages, which generation of the policy was audited, and when.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutPolicyStatus extends ModelObject {

  /** How many violating Rollouts are listed in {@code violations} at most. */
  public static final int MAX_LISTED = 20;

  @JsonProperty("observedGeneration")
  private Long observedGeneration;

  @JsonProperty("lastAuditTime")
  private String lastAuditTime;

  @JsonProperty("totalViolations")
  private Integer totalViolations;

  @JsonProperty("violations")
  private List<PolicyViolation> violations;

  /**
   * Returns the policy generation the audit used.
   *
   * @return {@code metadata.generation} at audit time, or null before the first audit
   */
  public Long getObservedGeneration() {
    return observedGeneration;
  }

  /**
   * Sets the audited generation.
   *
   * @param observedGeneration the policy's {@code metadata.generation}
   */
  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  /**
   * Returns when an audit last changed this status (the webhook writes the status only when the
   * result changed, README.md, RolloutPolicy).
   *
   * @return an RFC 3339 time, or null before the first audit
   */
  public String getLastAuditTime() {
    return lastAuditTime;
  }

  /**
   * Sets when the audit ran.
   *
   * @param lastAuditTime an RFC 3339 time
   */
  public void setLastAuditTime(String lastAuditTime) {
    this.lastAuditTime = lastAuditTime;
  }

  /**
   * Returns how many Rollouts break the policy.
   *
   * @return the count (Rollouts, not rule breaches), or null before the first audit
   */
  public Integer getTotalViolations() {
    return totalViolations;
  }

  /**
   * Sets the count of violating Rollouts.
   *
   * @param totalViolations the count
   */
  public void setTotalViolations(Integer totalViolations) {
    this.totalViolations = totalViolations;
  }

  /**
   * Returns the first violating Rollouts, sorted by namespace and name.
   *
   * @return at most {@link #MAX_LISTED} entries, or null
   */
  public List<PolicyViolation> getViolations() {
    return violations;
  }

  /**
   * Sets the listed violations.
   *
   * @param violations at most {@link #MAX_LISTED} entries
   */
  public void setViolations(List<PolicyViolation> violations) {
    this.violations = violations;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof RolloutPolicyStatus that)) {
      return false;
    }
    return Objects.equals(observedGeneration, that.observedGeneration)
        && Objects.equals(lastAuditTime, that.lastAuditTime)
        && Objects.equals(totalViolations, that.totalViolations)
        && Objects.equals(violations, that.violations)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        observedGeneration,
        lastAuditTime,
        totalViolations,
        violations,
        additionalPropertiesHashCode());
  }
}
