package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.Objects;

/** Pause step ({@code steps[].pause}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutPause extends ModelObject {

  /**
   * Integer seconds, a string of digits (seconds) or a Go duration such as {@code 1m30s}; absent
   * means until promoted.
   */
  @JsonProperty("duration")
  private IntOrString duration;

  public IntOrString getDuration() {
    return duration;
  }

  public void setDuration(IntOrString duration) {
    this.duration = duration;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    RolloutPause that = (RolloutPause) o;
    return Objects.equals(duration, that.duration) && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(duration, additionalPropertiesHashCode());
  }
}
