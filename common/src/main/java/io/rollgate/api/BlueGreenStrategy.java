package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.Objects;

/** Blue-green strategy ({@code spec.strategy.blueGreen}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BlueGreenStrategy extends ModelObject {

  /** Service switched to the promoted ReplicaSet (required). */
  @JsonProperty("activeService")
  @Required
  private String activeService;

  /** Optional Service that always points at the new ReplicaSet. */
  @JsonProperty("previewService")
  private String previewService;

  /** Replicas of the new ReplicaSet before promotion; absent means {@code spec.replicas}. */
  @JsonProperty("previewReplicaCount")
  private Integer previewReplicaCount;

  /** Promote automatically once the new ReplicaSet is ready (default true). */
  @JsonProperty("autoPromotionEnabled")
  private Boolean autoPromotionEnabled;

  /** Seconds to wait after the new ReplicaSet is ready before auto-promotion (default 0). */
  @JsonProperty("autoPromotionSeconds")
  private Integer autoPromotionSeconds;

  /** Pods that may be unavailable during a restart, count or percentage (default 25%). */
  @JsonProperty("maxUnavailable")
  private IntOrString maxUnavailable;

  /** Seconds before the previous active ReplicaSet is scaled down (default 30). */
  @JsonProperty("scaleDownDelaySeconds")
  private Integer scaleDownDelaySeconds;

  /** Old ReplicaSets kept running under a scale-down deadline (default unlimited). */
  @JsonProperty("scaleDownDelayRevisionLimit")
  private Integer scaleDownDelayRevisionLimit;

  /** Analysis that must pass before the active Service is switched. */
  @JsonProperty("prePromotionAnalysis")
  private RolloutAnalysis prePromotionAnalysis;

  /** Anti-affinity between the new and the previous ReplicaSet's pods. */
  @JsonProperty("antiAffinity")
  private AntiAffinity antiAffinity;

  /** Analysis run after the switch, before the new ReplicaSet is marked stable. */
  @JsonProperty("postPromotionAnalysis")
  private RolloutAnalysis postPromotionAnalysis;

  /** Ephemeral metadata added to preview pods. */
  @JsonProperty("previewMetadata")
  private PodTemplateMetadata previewMetadata;

  /** Ephemeral metadata added to active pods. */
  @JsonProperty("activeMetadata")
  private PodTemplateMetadata activeMetadata;

  /** Seconds before the preview ReplicaSet is scaled down on abort; 0 means never (default 30). */
  @JsonProperty("abortScaleDownDelaySeconds")
  private Integer abortScaleDownDelaySeconds;

  public String getActiveService() {
    return activeService;
  }

  public void setActiveService(String activeService) {
    this.activeService = activeService;
  }

  public String getPreviewService() {
    return previewService;
  }

  public void setPreviewService(String previewService) {
    this.previewService = previewService;
  }

  public Integer getPreviewReplicaCount() {
    return previewReplicaCount;
  }

  public void setPreviewReplicaCount(Integer previewReplicaCount) {
    this.previewReplicaCount = previewReplicaCount;
  }

  public Boolean getAutoPromotionEnabled() {
    return autoPromotionEnabled;
  }

  public void setAutoPromotionEnabled(Boolean autoPromotionEnabled) {
    this.autoPromotionEnabled = autoPromotionEnabled;
  }

  public Integer getAutoPromotionSeconds() {
    return autoPromotionSeconds;
  }

  public void setAutoPromotionSeconds(Integer autoPromotionSeconds) {
    this.autoPromotionSeconds = autoPromotionSeconds;
  }

  public IntOrString getMaxUnavailable() {
    return maxUnavailable;
  }

  public void setMaxUnavailable(IntOrString maxUnavailable) {
    this.maxUnavailable = maxUnavailable;
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

  public RolloutAnalysis getPrePromotionAnalysis() {
    return prePromotionAnalysis;
  }

  public void setPrePromotionAnalysis(RolloutAnalysis prePromotionAnalysis) {
    this.prePromotionAnalysis = prePromotionAnalysis;
  }

  public AntiAffinity getAntiAffinity() {
    return antiAffinity;
  }

  public void setAntiAffinity(AntiAffinity antiAffinity) {
    this.antiAffinity = antiAffinity;
  }

  public RolloutAnalysis getPostPromotionAnalysis() {
    return postPromotionAnalysis;
  }

  public void setPostPromotionAnalysis(RolloutAnalysis postPromotionAnalysis) {
    this.postPromotionAnalysis = postPromotionAnalysis;
  }

  public PodTemplateMetadata getPreviewMetadata() {
    return previewMetadata;
  }

  public void setPreviewMetadata(PodTemplateMetadata previewMetadata) {
    this.previewMetadata = previewMetadata;
  }

  public PodTemplateMetadata getActiveMetadata() {
    return activeMetadata;
  }

  public void setActiveMetadata(PodTemplateMetadata activeMetadata) {
    this.activeMetadata = activeMetadata;
  }

  public Integer getAbortScaleDownDelaySeconds() {
    return abortScaleDownDelaySeconds;
  }

  public void setAbortScaleDownDelaySeconds(Integer abortScaleDownDelaySeconds) {
    this.abortScaleDownDelaySeconds = abortScaleDownDelaySeconds;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    BlueGreenStrategy that = (BlueGreenStrategy) o;
    return Objects.equals(activeService, that.activeService)
        && Objects.equals(previewService, that.previewService)
        && Objects.equals(previewReplicaCount, that.previewReplicaCount)
        && Objects.equals(autoPromotionEnabled, that.autoPromotionEnabled)
        && Objects.equals(autoPromotionSeconds, that.autoPromotionSeconds)
        && Objects.equals(maxUnavailable, that.maxUnavailable)
        && Objects.equals(scaleDownDelaySeconds, that.scaleDownDelaySeconds)
        && Objects.equals(scaleDownDelayRevisionLimit, that.scaleDownDelayRevisionLimit)
        && Objects.equals(prePromotionAnalysis, that.prePromotionAnalysis)
        && Objects.equals(antiAffinity, that.antiAffinity)
        && Objects.equals(postPromotionAnalysis, that.postPromotionAnalysis)
        && Objects.equals(previewMetadata, that.previewMetadata)
        && Objects.equals(activeMetadata, that.activeMetadata)
        && Objects.equals(abortScaleDownDelaySeconds, that.abortScaleDownDelaySeconds)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        activeService,
        previewService,
        previewReplicaCount,
        autoPromotionEnabled,
        autoPromotionSeconds,
        maxUnavailable,
        scaleDownDelaySeconds,
        scaleDownDelayRevisionLimit,
        prePromotionAnalysis,
        antiAffinity,
        postPromotionAnalysis,
        previewMetadata,
        activeMetadata,
        abortScaleDownDelaySeconds,
        additionalPropertiesHashCode());
  }
}
