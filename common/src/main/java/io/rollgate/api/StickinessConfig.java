package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** ALB target-group stickiness ({@code alb.stickinessConfig}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class StickinessConfig extends ModelObject {

  /** Enable stickiness. */
  @JsonProperty("enabled")
  private Boolean enabled;

  /** Stickiness duration in seconds. */
  @JsonProperty("durationSeconds")
  private Long durationSeconds;

  public Boolean getEnabled() {
    return enabled;
  }

  public void setEnabled(Boolean enabled) {
    this.enabled = enabled;
  }

  public Long getDurationSeconds() {
    return durationSeconds;
  }

  public void setDurationSeconds(Long durationSeconds) {
    this.durationSeconds = durationSeconds;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    StickinessConfig that = (StickinessConfig) o;
    return Objects.equals(enabled, that.enabled)
        && Objects.equals(durationSeconds, that.durationSeconds)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(enabled, durationSeconds, additionalPropertiesHashCode());
  }
}
