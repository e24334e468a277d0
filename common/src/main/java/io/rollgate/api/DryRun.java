package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Dry-run entry ({@code dryRun[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DryRun extends ModelObject {

  /** Metric name or regular expression. */
  @JsonProperty("metricName")
  private String metricName;

  public String getMetricName() {
    return metricName;
  }

  public void setMetricName(String metricName) {
    this.metricName = metricName;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    DryRun that = (DryRun) o;
    return Objects.equals(metricName, that.metricName) && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(metricName, additionalPropertiesHashCode());
  }
}
