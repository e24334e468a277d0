package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.List;
import java.util.Objects;

/** Canary strategy ({@code spec.strategy.canary}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CanaryStrategy extends ModelObject {

  /** Service that selects only canary pods. */
  @JsonProperty("canaryService")
  private String canaryService;

  /** Service that selects only stable pods. */
  @JsonProperty("stableService")
  private String stableService;

  /** Ordered steps; absent or empty means a rolling update straight to 100%. */
  @JsonProperty("steps")
  private List<CanaryStep> steps;

  /** Traffic routers; absent means a replica-ratio (basic) canary. */
  @JsonProperty("trafficRouting")
  private RolloutTrafficRouting trafficRouting;

  /** Pods that may be unavailable during the update, count or percentage (default 25%). */
  @JsonProperty("maxUnavailable")
  private IntOrString maxUnavailable;

  /** Pods that may be created above the desired count, count or percentage (default 25%). */
  @JsonProperty("maxSurge")
  private IntOrString maxSurge;

  /** Background analysis run while the canary progresses. */
  @JsonProperty("analysis")
  private RolloutAnalysisBackground analysis;

  /** Anti-affinity between canary and stable pods. */
  @JsonProperty("antiAffinity")
  private AntiAffinity antiAffinity;

  /** Ephemeral metadata added to canary pods. */
  @JsonProperty("canaryMetadata")
  private PodTemplateMetadata canaryMetadata;

  /** Ephemeral metadata added to stable pods. */
  @JsonProperty("stableMetadata")
  private PodTemplateMetadata stableMetadata;

  /** Traffic routing only: seconds before an old ReplicaSet is scaled down (default 30). */
  @JsonProperty("scaleDownDelaySeconds")
  private Integer scaleDownDelaySeconds;

  /** Old ReplicaSets kept running under a scale-down deadline (default unlimited). */
  @JsonProperty("scaleDownDelayRevisionLimit")
  private Integer scaleDownDelayRevisionLimit;

  /**
   * Traffic routing only: seconds before the canary is scaled down on abort; 0 means no delay
   * (default 30).
   */
  @JsonProperty("abortScaleDownDelaySeconds")
  private Integer abortScaleDownDelaySeconds;

  /** Traffic routing only: scale the stable ReplicaSet down as traffic moves to the canary. */
  @JsonProperty("dynamicStableScale")
  private Boolean dynamicStableScale;

  /** Ping-pong Services used instead of separate canary and stable Services. */
  @JsonProperty("pingPong")
  private PingPongSpec pingPong;

  /** Traffic routing only: minimum pods for a ReplicaSet with a non-zero count. */
  @JsonProperty("minPodsPerReplicaSet")
  private Integer minPodsPerReplicaSet;

  /** Availability needed before a step counts as complete (default 100% of desired). */
  @JsonProperty("replicaProgressThreshold")
  private ReplicaProgressThreshold replicaProgressThreshold;

  public String getCanaryService() {
    return canaryService;
  }

  public void setCanaryService(String canaryService) {
    this.canaryService = canaryService;
  }

  public String getStableService() {
    return stableService;
  }

  public void setStableService(String stableService) {
    this.stableService = stableService;
  }

  public List<CanaryStep> getSteps() {
    return steps;
  }

  public void setSteps(List<CanaryStep> steps) {
    this.steps = steps;
  }

  public RolloutTrafficRouting getTrafficRouting() {
    return trafficRouting;
  }

  public void setTrafficRouting(RolloutTrafficRouting trafficRouting) {
    this.trafficRouting = trafficRouting;
  }

  public IntOrString getMaxUnavailable() {
    return maxUnavailable;
  }

  public void setMaxUnavailable(IntOrString maxUnavailable) {
    this.maxUnavailable = maxUnavailable;
  }

  public IntOrString getMaxSurge() {
    return maxSurge;
  }

  public void setMaxSurge(IntOrString maxSurge) {
    this.maxSurge = maxSurge;
  }

  public RolloutAnalysisBackground getAnalysis() {
    return analysis;
  }

  public void setAnalysis(RolloutAnalysisBackground analysis) {
    this.analysis = analysis;
  }

  public AntiAffinity getAntiAffinity() {
    return antiAffinity;
  }

  public void setAntiAffinity(AntiAffinity antiAffinity) {
    this.antiAffinity = antiAffinity;
  }

  public PodTemplateMetadata getCanaryMetadata() {
    return canaryMetadata;
  }

  public void setCanaryMetadata(PodTemplateMetadata canaryMetadata) {
    this.canaryMetadata = canaryMetadata;
  }

  public PodTemplateMetadata getStableMetadata() {
    return stableMetadata;
  }

  public void setStableMetadata(PodTemplateMetadata stableMetadata) {
    this.stableMetadata = stableMetadata;
  }

  public Integer getScaleDownDelaySeconds() {
    return scaleDownDelaySeconds;
  }

  public void setScaleDownDelaySeconds(Integer scaleDownDelaySeconds) {
    this.scaleDownDelaySeconds = scaleDownDelaySeconds;
  }

  public Integer getScaleDownDelayRevisionLimit() {
    return scaleDownDelayRevisionLimit;
  }

  public void setScaleDownDelayRevisionLimit(Integer scaleDownDelayRevisionLimit) {
    this.scaleDownDelayRevisionLimit = scaleDownDelayRevisionLimit;
  }

  public Integer getAbortScaleDownDelaySeconds() {
    return abortScaleDownDelaySeconds;
  }

  public void setAbortScaleDownDelaySeconds(Integer abortScaleDownDelaySeconds) {
    this.abortScaleDownDelaySeconds = abortScaleDownDelaySeconds;
  }

  public Boolean getDynamicStableScale() {
    return dynamicStableScale;
  }

  public void setDynamicStableScale(Boolean dynamicStableScale) {
    this.dynamicStableScale = dynamicStableScale;
  }

  public PingPongSpec getPingPong() {
    return pingPong;
  }

  public void setPingPong(PingPongSpec pingPong) {
    this.pingPong = pingPong;
  }

  public Integer getMinPodsPerReplicaSet() {
    return minPodsPerReplicaSet;
  }

  public void setMinPodsPerReplicaSet(Integer minPodsPerReplicaSet) {
    this.minPodsPerReplicaSet = minPodsPerReplicaSet;
  }

  public ReplicaProgressThreshold getReplicaProgressThreshold() {
    return replicaProgressThreshold;
  }

  public void setReplicaProgressThreshold(ReplicaProgressThreshold replicaProgressThreshold) {
    this.replicaProgressThreshold = replicaProgressThreshold;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    CanaryStrategy that = (CanaryStrategy) o;
    return Objects.equals(canaryService, that.canaryService)
        && Objects.equals(stableService, that.stableService)
        && Objects.equals(steps, that.steps)
        && Objects.equals(trafficRouting, that.trafficRouting)
        && Objects.equals(maxUnavailable, that.maxUnavailable)
        && Objects.equals(maxSurge, that.maxSurge)
        && Objects.equals(analysis, that.analysis)
        && Objects.equals(antiAffinity, that.antiAffinity)
        && Objects.equals(canaryMetadata, that.canaryMetadata)
        && Objects.equals(stableMetadata, that.stableMetadata)
        && Objects.equals(scaleDownDelaySeconds, that.scaleDownDelaySeconds)
        && Objects.equals(scaleDownDelayRevisionLimit, that.scaleDownDelayRevisionLimit)
        && Objects.equals(abortScaleDownDelaySeconds, that.abortScaleDownDelaySeconds)
        && Objects.equals(dynamicStableScale, that.dynamicStableScale)
        && Objects.equals(pingPong, that.pingPong)
        && Objects.equals(minPodsPerReplicaSet, that.minPodsPerReplicaSet)
        && Objects.equals(replicaProgressThreshold, that.replicaProgressThreshold)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        canaryService,
        stableService,
        steps,
        trafficRouting,
        maxUnavailable,
        maxSurge,
        analysis,
        antiAffinity,
        canaryMetadata,
        stableMetadata,
        scaleDownDelaySeconds,
        scaleDownDelayRevisionLimit,
        abortScaleDownDelaySeconds,
        dynamicStableScale,
        pingPong,
        minPodsPerReplicaSet,
        replicaProgressThreshold,
        additionalPropertiesHashCode());
  }
}
