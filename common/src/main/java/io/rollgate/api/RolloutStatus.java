package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import java.util.List;
import java.util.Objects;

/**
 * Observed state of a Rollout ({@code status}); written only by the controller and the user actions
 * of the CLI.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutStatus extends ModelObject {

  /** Abort requested (by a user or the controller). */
  @JsonProperty("abort")
  private Boolean abort;

  /** Active pause reasons. */
  @JsonProperty("pauseConditions")
  private List<PauseCondition> pauseConditions;

  /** The controller holds at least one pause condition it added. */
  @JsonProperty("controllerPause")
  private Boolean controllerPause;

  /** RFC 3339 time the controller first reconciled the abort. */
  @JsonProperty("abortedAt")
  private String abortedAt;

  /** Pod-template hash of the new ReplicaSet. */
  @JsonProperty("currentPodHash")
  private String currentPodHash;

  /** Hash of the canary steps (canary only). */
  @JsonProperty("currentStepHash")
  private String currentStepHash;

  /** Total pods of all owned ReplicaSets. */
  @JsonProperty("replicas")
  @PrinterColumn(name = "Current")
  private Integer replicas;

  /** Pods of the new ReplicaSet. */
  @JsonProperty("updatedReplicas")
  @PrinterColumn(name = "Up-to-date")
  private Integer updatedReplicas;

  /** Ready pods. */
  @JsonProperty("readyReplicas")
  private Integer readyReplicas;

  /** Available pods. */
  @JsonProperty("availableReplicas")
  @PrinterColumn(name = "Available")
  private Integer availableReplicas;

  /** Index of the canary step being executed; {@code steps.size()} once all are done. */
  @JsonProperty("currentStepIndex")
  private Integer currentStepIndex;

  /** Pod-template hash collision counter. */
  @JsonProperty("collisionCount")
  private Integer collisionCount;

  /** {@code metadata.generation} (decimal string) this status was computed from. */
  @JsonProperty("observedGeneration")
  private String observedGeneration;

  /** Conditions; see {@link ConditionType}. */
  @JsonProperty("conditions")
  private List<RolloutCondition> conditions;

  /** Canary-specific status. */
  @JsonProperty("canary")
  private CanaryStatus canary;

  /** Blue-green-specific status. */
  @JsonProperty("blueGreen")
  private BlueGreenStatus blueGreen;

  /** Pod count reported to the scale subresource. */
  @JsonProperty("HPAReplicas")
  @StatusReplicas
  private Integer hpaReplicas;

  /** Label selector in string form, reported to the scale subresource. */
  @JsonProperty("selector")
  @LabelSelector
  private String selector;

  /** Pod-template hash of the last fully promoted ReplicaSet. */
  @JsonProperty("stableRS")
  private String stableRS;

  /** RFC 3339 time of the last completed restart ({@code spec.restartAt}). */
  @JsonProperty("restartedAt")
  private String restartedAt;

  /** Request to skip the remaining steps, pauses and analysis. */
  @JsonProperty("promoteFull")
  private Boolean promoteFull;

  /** Summary phase; see {@link RolloutPhase}. */
  @JsonProperty("phase")
  @PrinterColumn(name = "Phase")
  private String phase;

  /** Human-readable detail for the phase. */
  @JsonProperty("message")
  private String message;

  /** Observed generation of the referenced workload (decimal string). */
  @JsonProperty("workloadObservedGeneration")
  private String workloadObservedGeneration;

  /** ALB resources (ALB routing with one Ingress). */
  @JsonProperty("alb")
  private ALBStatus alb;

  /** ALB resources per Ingress (ALB routing with several Ingresses). */
  @JsonProperty("albs")
  private List<ALBStatus> albs;

  /** Timing of the current update. */
  @JsonProperty("duration")
  private RolloutDuration duration;

  public Boolean getAbort() {
    return abort;
  }

  public void setAbort(Boolean abort) {
    this.abort = abort;
  }

  public List<PauseCondition> getPauseConditions() {
    return pauseConditions;
  }

  public void setPauseConditions(List<PauseCondition> pauseConditions) {
    this.pauseConditions = pauseConditions;
  }

  public Boolean getControllerPause() {
    return controllerPause;
  }

  public void setControllerPause(Boolean controllerPause) {
    this.controllerPause = controllerPause;
  }

  public String getAbortedAt() {
    return abortedAt;
  }

  public void setAbortedAt(String abortedAt) {
    this.abortedAt = abortedAt;
  }

  public String getCurrentPodHash() {
    return currentPodHash;
  }

  public void setCurrentPodHash(String currentPodHash) {
    this.currentPodHash = currentPodHash;
  }

  public String getCurrentStepHash() {
    return currentStepHash;
  }

  public void setCurrentStepHash(String currentStepHash) {
    this.currentStepHash = currentStepHash;
  }

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public Integer getUpdatedReplicas() {
    return updatedReplicas;
  }

  public void setUpdatedReplicas(Integer updatedReplicas) {
    this.updatedReplicas = updatedReplicas;
  }

  public Integer getReadyReplicas() {
    return readyReplicas;
  }

  public void setReadyReplicas(Integer readyReplicas) {
    this.readyReplicas = readyReplicas;
  }

  public Integer getAvailableReplicas() {
    return availableReplicas;
  }

  public void setAvailableReplicas(Integer availableReplicas) {
    this.availableReplicas = availableReplicas;
  }

  public Integer getCurrentStepIndex() {
    return currentStepIndex;
  }

  public void setCurrentStepIndex(Integer currentStepIndex) {
    this.currentStepIndex = currentStepIndex;
  }

  public Integer getCollisionCount() {
    return collisionCount;
  }

  public void setCollisionCount(Integer collisionCount) {
    this.collisionCount = collisionCount;
  }

  public String getObservedGeneration() {
    return observedGeneration;
  }

  public void setObservedGeneration(String observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  public List<RolloutCondition> getConditions() {
    return conditions;
  }

  public void setConditions(List<RolloutCondition> conditions) {
    this.conditions = conditions;
  }

  public CanaryStatus getCanary() {
    return canary;
  }

  public void setCanary(CanaryStatus canary) {
    this.canary = canary;
  }

  public BlueGreenStatus getBlueGreen() {
    return blueGreen;
  }

  public void setBlueGreen(BlueGreenStatus blueGreen) {
    this.blueGreen = blueGreen;
  }

  public Integer getHPAReplicas() {
    return hpaReplicas;
  }

  public void setHPAReplicas(Integer hpaReplicas) {
    this.hpaReplicas = hpaReplicas;
  }

  public String getSelector() {
    return selector;
  }

  public void setSelector(String selector) {
    this.selector = selector;
  }

  public String getStableRS() {
    return stableRS;
  }

  public void setStableRS(String stableRS) {
    this.stableRS = stableRS;
  }

  public String getRestartedAt() {
    return restartedAt;
  }

  public void setRestartedAt(String restartedAt) {
    this.restartedAt = restartedAt;
  }

  public Boolean getPromoteFull() {
    return promoteFull;
  }

  public void setPromoteFull(Boolean promoteFull) {
    this.promoteFull = promoteFull;
  }

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

  public String getWorkloadObservedGeneration() {
    return workloadObservedGeneration;
  }

  public void setWorkloadObservedGeneration(String workloadObservedGeneration) {
    this.workloadObservedGeneration = workloadObservedGeneration;
  }

  public ALBStatus getAlb() {
    return alb;
  }

  public void setAlb(ALBStatus alb) {
    this.alb = alb;
  }

  public List<ALBStatus> getAlbs() {
    return albs;
  }

  public void setAlbs(List<ALBStatus> albs) {
    this.albs = albs;
  }

  public RolloutDuration getDuration() {
    return duration;
  }

  public void setDuration(RolloutDuration duration) {
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
    RolloutStatus that = (RolloutStatus) o;
    return Objects.equals(abort, that.abort)
        && Objects.equals(pauseConditions, that.pauseConditions)
        && Objects.equals(controllerPause, that.controllerPause)
        && Objects.equals(abortedAt, that.abortedAt)
        && Objects.equals(currentPodHash, that.currentPodHash)
        && Objects.equals(currentStepHash, that.currentStepHash)
        && Objects.equals(replicas, that.replicas)
        && Objects.equals(updatedReplicas, that.updatedReplicas)
        && Objects.equals(readyReplicas, that.readyReplicas)
        && Objects.equals(availableReplicas, that.availableReplicas)
        && Objects.equals(currentStepIndex, that.currentStepIndex)
        && Objects.equals(collisionCount, that.collisionCount)
        && Objects.equals(observedGeneration, that.observedGeneration)
        && Objects.equals(conditions, that.conditions)
        && Objects.equals(canary, that.canary)
        && Objects.equals(blueGreen, that.blueGreen)
        && Objects.equals(hpaReplicas, that.hpaReplicas)
        && Objects.equals(selector, that.selector)
        && Objects.equals(stableRS, that.stableRS)
        && Objects.equals(restartedAt, that.restartedAt)
        && Objects.equals(promoteFull, that.promoteFull)
        && Objects.equals(phase, that.phase)
        && Objects.equals(message, that.message)
        && Objects.equals(workloadObservedGeneration, that.workloadObservedGeneration)
        && Objects.equals(alb, that.alb)
        && Objects.equals(albs, that.albs)
        && Objects.equals(duration, that.duration)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        abort,
        pauseConditions,
        controllerPause,
        abortedAt,
        currentPodHash,
        currentStepHash,
        replicas,
        updatedReplicas,
        readyReplicas,
        availableReplicas,
        currentStepIndex,
        collisionCount,
        observedGeneration,
        conditions,
        canary,
        blueGreen,
        hpaReplicas,
        selector,
        stableRS,
        restartedAt,
        promoteFull,
        phase,
        message,
        workloadObservedGeneration,
        alb,
        albs,
        duration,
        additionalPropertiesHashCode());
  }
}
