package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Blue-green-specific status ({@code status.blueGreen}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BlueGreenStatus extends ModelObject {

  /** Pod-template hash in the preview Service selector. */
  @JsonProperty("previewSelector")
  private String previewSelector;

  /** Pod-template hash in the active Service selector. */
  @JsonProperty("activeSelector")
  private String activeSelector;

  /** One-way latch: the preview ReplicaSet was scaled up to full size. */
  @JsonProperty("scaleUpPreviewCheckPoint")
  private Boolean scaleUpPreviewCheckPoint;

  /** Pre-promotion AnalysisRun. */
  @JsonProperty("prePromotionAnalysisRunStatus")
  private RolloutAnalysisRunStatus prePromotionAnalysisRunStatus;

  /** Post-promotion AnalysisRun. */
  @JsonProperty("postPromotionAnalysisRunStatus")
  private RolloutAnalysisRunStatus postPromotionAnalysisRunStatus;

  public String getPreviewSelector() {
    return previewSelector;
  }

  public void setPreviewSelector(String previewSelector) {
    this.previewSelector = previewSelector;
  }

  public String getActiveSelector() {
    return activeSelector;
  }

  public void setActiveSelector(String activeSelector) {
    this.activeSelector = activeSelector;
  }

  public Boolean getScaleUpPreviewCheckPoint() {
    return scaleUpPreviewCheckPoint;
  }

  public void setScaleUpPreviewCheckPoint(Boolean scaleUpPreviewCheckPoint) {
    this.scaleUpPreviewCheckPoint = scaleUpPreviewCheckPoint;
  }

  public RolloutAnalysisRunStatus getPrePromotionAnalysisRunStatus() {
    return prePromotionAnalysisRunStatus;
  }

  public void setPrePromotionAnalysisRunStatus(
      RolloutAnalysisRunStatus prePromotionAnalysisRunStatus) {
    this.prePromotionAnalysisRunStatus = prePromotionAnalysisRunStatus;
  }

  public RolloutAnalysisRunStatus getPostPromotionAnalysisRunStatus() {
    return postPromotionAnalysisRunStatus;
  }

  public void setPostPromotionAnalysisRunStatus(
      RolloutAnalysisRunStatus postPromotionAnalysisRunStatus) {
    this.postPromotionAnalysisRunStatus = postPromotionAnalysisRunStatus;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    BlueGreenStatus that = (BlueGreenStatus) o;
    return Objects.equals(previewSelector, that.previewSelector)
        && Objects.equals(activeSelector, that.activeSelector)
        && Objects.equals(scaleUpPreviewCheckPoint, that.scaleUpPreviewCheckPoint)
        && Objects.equals(prePromotionAnalysisRunStatus, that.prePromotionAnalysisRunStatus)
        && Objects.equals(postPromotionAnalysisRunStatus, that.postPromotionAnalysisRunStatus)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        previewSelector,
        activeSelector,
        scaleUpPreviewCheckPoint,
        prePromotionAnalysisRunStatus,
        postPromotionAnalysisRunStatus,
        additionalPropertiesHashCode());
  }
}
