package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/**
 * Hard anti-affinity ({@code antiAffinity.requiredDuringSchedulingIgnoredDuringExecution}); has no
 * fields.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RequiredDuringSchedulingIgnoredDuringExecution extends ModelObject {

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    return additionalPropertiesEqual((RequiredDuringSchedulingIgnoredDuringExecution) o);
  }

  @Override
  public int hashCode() {
    return Objects.hash(additionalPropertiesHashCode());
  }
}
