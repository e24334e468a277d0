package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;
import java.util.Objects;

/** Desired state of a Rollout ({@code spec}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutSpec extends ModelObject {

  /** Desired pod count; absent means 1 (the controller persists the default). */
  @JsonProperty("replicas")
  @SpecReplicas
  @PrinterColumn(name = "Desired")
  private Integer replicas;

  /** Pod label selector; required unless {@code workloadRef} is set; immutable. */
  @JsonProperty("selector")
  @ValidationRule(value = "self == oldSelf", message = ".spec.selector is immutable")
  private LabelSelector selector;

  /** Pod template; must be empty when {@code workloadRef} is used. */
  @JsonProperty("template")
  private PodTemplateSpec template;

  /** Reference to a workload whose pod template (and selector) the Rollout uses. */
  @JsonProperty("workloadRef")
  private ObjectRef workloadRef;

  /** Seconds a new pod must be ready to count as available (default 0). */
  @JsonProperty("minReadySeconds")
  private Integer minReadySeconds;

  /** Deployment strategy: exactly one of {@code blueGreen} or {@code canary}. */
  @JsonProperty("strategy")
  private RolloutStrategy strategy;

  /** Number of old ReplicaSets to keep (default 10). */
  @JsonProperty("revisionHistoryLimit")
  private Integer revisionHistoryLimit;

  /** Manual pause: halts step progression and ReplicaSet scaling (default false). */
  @JsonProperty("paused")
  private Boolean paused;

  /** Seconds to make progress before the update counts as failed (default 600). */
  @JsonProperty("progressDeadlineSeconds")
  private Integer progressDeadlineSeconds;

  /** Abort the update when the progress deadline is exceeded (default false). */
  @JsonProperty("progressDeadlineAbort")
  private Boolean progressDeadlineAbort;

  /** RFC 3339 time; pods created before it are restarted. */
  @JsonProperty("restartAt")
  private String restartAt;

  /** History limits for AnalysisRuns and Experiments created by this Rollout. */
  @JsonProperty("analysis")
  private AnalysisRunStrategy analysis;

  /** Rollbacks to one of this many recent revisions skip steps and analysis. */
  @JsonProperty("rollbackWindow")
  private RollbackWindowSpec rollbackWindow;

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public LabelSelector getSelector() {
    return selector;
  }

  public void setSelector(LabelSelector selector) {
    this.selector = selector;
  }

  public PodTemplateSpec getTemplate() {
    return template;
  }

  public void setTemplate(PodTemplateSpec template) {
    this.template = template;
  }

  public ObjectRef getWorkloadRef() {
    return workloadRef;
  }

  public void setWorkloadRef(ObjectRef workloadRef) {
    this.workloadRef = workloadRef;
  }

  public Integer getMinReadySeconds() {
    return minReadySeconds;
  }

  public void setMinReadySeconds(Integer minReadySeconds) {
    this.minReadySeconds = minReadySeconds;
  }

  public RolloutStrategy getStrategy() {
    return strategy;
  }

  public void setStrategy(RolloutStrategy strategy) {
    this.strategy = strategy;
  }

  public Integer getRevisionHistoryLimit() {
    return revisionHistoryLimit;
  }

  public void setRevisionHistoryLimit(Integer revisionHistoryLimit) {
    this.revisionHistoryLimit = revisionHistoryLimit;
  }

  public Boolean getPaused() {
    return paused;
  }

  public void setPaused(Boolean paused) {
    this.paused = paused;
  }

  public Integer getProgressDeadlineSeconds() {
    return progressDeadlineSeconds;
  }

  public void setProgressDeadlineSeconds(Integer progressDeadlineSeconds) {
    this.progressDeadlineSeconds = progressDeadlineSeconds;
  }

  public Boolean getProgressDeadlineAbort() {
    return progressDeadlineAbort;
  }

  public void setProgressDeadlineAbort(Boolean progressDeadlineAbort) {
    this.progressDeadlineAbort = progressDeadlineAbort;
  }

  public String getRestartAt() {
    return restartAt;
  }

  public void setRestartAt(String restartAt) {
    this.restartAt = restartAt;
  }

  public AnalysisRunStrategy getAnalysis() {
    return analysis;
  }

  public void setAnalysis(AnalysisRunStrategy analysis) {
    this.analysis = analysis;
  }

  public RollbackWindowSpec getRollbackWindow() {
    return rollbackWindow;
  }

  public void setRollbackWindow(RollbackWindowSpec rollbackWindow) {
    this.rollbackWindow = rollbackWindow;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    RolloutSpec that = (RolloutSpec) o;
    return Objects.equals(replicas, that.replicas)
        && Objects.equals(selector, that.selector)
        && Objects.equals(template, that.template)
        && Objects.equals(workloadRef, that.workloadRef)
        && Objects.equals(minReadySeconds, that.minReadySeconds)
        && Objects.equals(strategy, that.strategy)
        && Objects.equals(revisionHistoryLimit, that.revisionHistoryLimit)
        && Objects.equals(paused, that.paused)
        && Objects.equals(progressDeadlineSeconds, that.progressDeadlineSeconds)
        && Objects.equals(progressDeadlineAbort, that.progressDeadlineAbort)
        && Objects.equals(restartAt, that.restartAt)
        && Objects.equals(analysis, that.analysis)
        && Objects.equals(rollbackWindow, that.rollbackWindow)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        replicas,
        selector,
        template,
        workloadRef,
        minReadySeconds,
        strategy,
        revisionHistoryLimit,
        paused,
        progressDeadlineSeconds,
        progressDeadlineAbort,
        restartAt,
        analysis,
        rollbackWindow,
        additionalPropertiesHashCode());
  }
}
