package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Measurement retention entry ({@code measurementRetention[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MeasurementRetention extends ModelObject {

  /** Metric name or regular expression. */
  @JsonProperty("metricName")
  private String metricName;

  /** Number of measurements to keep. */
  @JsonProperty("limit")
  private Integer limit;

  public String getMetricName() {
    return metricName;
  }

  public void setMetricName(String metricName) {
    this.metricName = metricName;
  }

  public Integer getLimit() {
    return limit;
  }

  public void setLimit(Integer limit) {
    this.limit = limit;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    MeasurementRetention that = (MeasurementRetention) o;
    return Objects.equals(metricName, that.metricName)
        && Objects.equals(limit, that.limit)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(metricName, limit, additionalPropertiesHashCode());
  }
}
