package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import java.util.List;
import java.util.Objects;

/**
 * Observed state of an AnalysisRun ({@code status}, docs/compatibility.md §9.1). AnalysisRuns have
 * no status subresource, so the controller writes this with a normal (merge) patch of the object.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AnalysisRunStatus extends ModelObject {

  /** Run phase; see {@link AnalysisPhase}. */
  @JsonProperty("phase")
  @PrinterColumn(name = "Status")
  private String phase;

  /** Reason for the phase, for example {@code Metric "m" assessed Failed due to ...}. */
  @JsonProperty("message")
  private String message;

  /** One result per metric, in the order metrics were first measured. */
  @JsonProperty("metricResults")
  private List<MetricResult> metricResults;

  /** RFC 3339 time the controller first reconciled the run. */
  @JsonProperty("startedAt")
  private String startedAt;

  /** RFC 3339 time the run reached a completed phase. */
  @JsonProperty("completedAt")
  private String completedAt;

  /** Outcome counts of the metrics that are not dry-run. */
  @JsonProperty("runSummary")
  private RunSummary runSummary;

  /** Outcome counts of the dry-run metrics. */
  @JsonProperty("dryRunSummary")
  private RunSummary dryRunSummary;

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public List<MetricResult> getMetricResults() {
    return metricResults;
  }

  public void setMetricResults(List<MetricResult> metricResults) {
    this.metricResults = metricResults;
  }

  public String getStartedAt() {
    return startedAt;
  }

  public void setStartedAt(String startedAt) {
    this.startedAt = startedAt;
  }

  public String getCompletedAt() {
    return completedAt;
  }

  public void setCompletedAt(String completedAt) {
    this.completedAt = completedAt;
  }

  public RunSummary getRunSummary() {
    return runSummary;
  }

  public void setRunSummary(RunSummary runSummary) {
    this.runSummary = runSummary;
  }

  public RunSummary getDryRunSummary() {
    return dryRunSummary;
  }

  public void setDryRunSummary(RunSummary dryRunSummary) {
    this.dryRunSummary = dryRunSummary;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AnalysisRunStatus that = (AnalysisRunStatus) o;
    return Objects.equals(phase, that.phase)
        && Objects.equals(message, that.message)
        && Objects.equals(metricResults, that.metricResults)
        && Objects.equals(startedAt, that.startedAt)
        && Objects.equals(completedAt, that.completedAt)
        && Objects.equals(runSummary, that.runSummary)
        && Objects.equals(dryRunSummary, that.dryRunSummary)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        phase,
        message,
        metricResults,
        startedAt,
        completedAt,
        runSummary,
        dryRunSummary,
        additionalPropertiesHashCode());
  }
}
