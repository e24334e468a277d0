package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Range query of the Prometheus provider ({@code provider.prometheus.rangeQuery}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PrometheusRangeQueryArgs extends ModelObject {

  /** Expression evaluating to the start time, for example {@code now() - duration("5m")}. */
  @JsonProperty("start")
  private String start;

  /** Expression evaluating to the end time, for example {@code now()}. */
  @JsonProperty("end")
  private String end;

  /** Resolution step as a Go duration, for example {@code 1m}. */
  @JsonProperty("step")
  private String step;

  public String getStart() {
    return start;
  }

  public void setStart(String start) {
    this.start = start;
  }

  public String getEnd() {
    return end;
  }

  public void setEnd(String end) {
    this.end = end;
  }

  public String getStep() {
    return step;
  }

  public void setStep(String step) {
    this.step = step;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    PrometheusRangeQueryArgs that = (PrometheusRangeQueryArgs) o;
    return Objects.equals(start, that.start)
        && Objects.equals(end, that.end)
        && Objects.equals(step, that.step)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(start, end, step, additionalPropertiesHashCode());
  }
}
