package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Anti-affinity between old and new pods; exactly one member should be set. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AntiAffinity extends ModelObject {

  /** Soft anti-affinity with a weight. */
  @JsonProperty("preferredDuringSchedulingIgnoredDuringExecution")
  private PreferredDuringSchedulingIgnoredDuringExecution
      preferredDuringSchedulingIgnoredDuringExecution;

  /** Hard anti-affinity. */
  @JsonProperty("requiredDuringSchedulingIgnoredDuringExecution")
  private RequiredDuringSchedulingIgnoredDuringExecution
      requiredDuringSchedulingIgnoredDuringExecution;

  public PreferredDuringSchedulingIgnoredDuringExecution
      getPreferredDuringSchedulingIgnoredDuringExecution() {
    return preferredDuringSchedulingIgnoredDuringExecution;
  }

  public void setPreferredDuringSchedulingIgnoredDuringExecution(
      PreferredDuringSchedulingIgnoredDuringExecution value) {
    this.preferredDuringSchedulingIgnoredDuringExecution = value;
  }

  public RequiredDuringSchedulingIgnoredDuringExecution
      getRequiredDuringSchedulingIgnoredDuringExecution() {
    return requiredDuringSchedulingIgnoredDuringExecution;
  }

  public void setRequiredDuringSchedulingIgnoredDuringExecution(
      RequiredDuringSchedulingIgnoredDuringExecution value) {
    this.requiredDuringSchedulingIgnoredDuringExecution = value;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AntiAffinity that = (AntiAffinity) o;
    return Objects.equals(
            preferredDuringSchedulingIgnoredDuringExecution,
            that.preferredDuringSchedulingIgnoredDuringExecution)
        && Objects.equals(
            requiredDuringSchedulingIgnoredDuringExecution,
            that.requiredDuringSchedulingIgnoredDuringExecution)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        preferredDuringSchedulingIgnoredDuringExecution,
        requiredDuringSchedulingIgnoredDuringExecution,
        additionalPropertiesHashCode());
  }
}
