package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Desired state of an AnalysisRun ({@code spec}, docs/compatibility.md §9.1). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AnalysisRunSpec extends ModelObject {

  /** Metrics to measure; required, names unique. */
  @JsonProperty("metrics")
  private List<Metric> metrics;

  /** Argument values the metrics reference as {@code {{args.<name>}}}. */
  @JsonProperty("args")
  private List<Argument> args;

  /** Stop measuring: in-flight measurements are terminated and the run completes. */
  @JsonProperty("terminate")
  private Boolean terminate;

  /**
   * Metrics (unanchored regular expressions on the name) whose outcome never affects the run phase.
   */
  @JsonProperty("dryRun")
  private List<DryRun> dryRun;

  /** Per-metric measurement history limits (unanchored regular expressions on the name). */
  @JsonProperty("measurementRetention")
  private List<MeasurementRetention> measurementRetention;

  /** When to delete the run after it completed; absent means never. */
  @JsonProperty("ttlStrategy")
  private TTLStrategy ttlStrategy;

  public List<Metric> getMetrics() {
    return metrics;
  }

  public void setMetrics(List<Metric> metrics) {
    this.metrics = metrics;
  }

  public List<Argument> getArgs() {
    return args;
  }

  public void setArgs(List<Argument> args) {
    this.args = args;
  }

  public Boolean getTerminate() {
    return terminate;
  }

  public void setTerminate(Boolean terminate) {
    this.terminate = terminate;
  }

  public List<DryRun> getDryRun() {
    return dryRun;
  }

  public void setDryRun(List<DryRun> dryRun) {
    this.dryRun = dryRun;
  }

  public List<MeasurementRetention> getMeasurementRetention() {
    return measurementRetention;
  }

  public void setMeasurementRetention(List<MeasurementRetention> measurementRetention) {
    this.measurementRetention = measurementRetention;
  }

  public TTLStrategy getTtlStrategy() {
    return ttlStrategy;
  }

  public void setTtlStrategy(TTLStrategy ttlStrategy) {
    this.ttlStrategy = ttlStrategy;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AnalysisRunSpec that = (AnalysisRunSpec) o;
    return Objects.equals(metrics, that.metrics)
        && Objects.equals(args, that.args)
        && Objects.equals(terminate, that.terminate)
        && Objects.equals(dryRun, that.dryRun)
        && Objects.equals(measurementRetention, that.measurementRetention)
        && Objects.equals(ttlStrategy, that.ttlStrategy)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        metrics,
        args,
        terminate,
        dryRun,
        measurementRetention,
        ttlStrategy,
        additionalPropertiesHashCode());
  }
}
