package io.rollgate.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.rollgate.api.ModelObject;
import java.util.List;
import java.util.Objects;

/** The rules of a {@link RolloutPolicy}; every absent rule is not enforced. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PolicyRules extends ModelObject {

  @JsonProperty("requireAnalysis")
  @JsonPropertyDescription(
      "Canary Rollouts must run an analysis: background (canary.analysis) or an analysis step")
  private Boolean requireAnalysis;

  @JsonProperty("maxWeightIncrease")
  @JsonPropertyDescription(
      "Largest increase of the canary weight from one setWeight step to the next, including the final promotion to 100, in percent (1..100)")
  private Integer maxWeightIncrease;

  @JsonProperty("minPauseBeforePromotion")
  @JsonPropertyDescription(
      "Shortest total pause after the last setWeight before full promotion, as a duration (30s, 5m); an indefinite pause counts as long enough. Blue-green: autoPromotionSeconds or autoPromotionEnabled: false")
  private String minPauseBeforePromotion;

  @JsonProperty("requireProgressDeadlineAbort")
  @JsonPropertyDescription("Rollouts must set spec.progressDeadlineAbort: true")
  private Boolean requireProgressDeadlineAbort;

  @JsonProperty("allowedStepPlugins")
  @JsonPropertyDescription(
      "When present, the only step plugins (<org>/<name>) canary steps may use")
  private List<String> allowedStepPlugins;

  @JsonProperty("forbiddenStepPlugins")
  @JsonPropertyDescription("Step plugins canary steps must not use")
  private List<String> forbiddenStepPlugins;

  @JsonProperty("allowedTrafficRouters")
  @JsonPropertyDescription(
      "When present, the only traffic routers a canary may use: nginx, istio, alb, smi, ambassador, appMesh, traefik, apisix, or a plugin name <org>/<name>")
  private List<String> allowedTrafficRouters;

  @JsonProperty("forbiddenTrafficRouters")
  @JsonPropertyDescription(
      "Traffic routers a canary must not use (same names as allowedTrafficRouters)")
  private List<String> forbiddenTrafficRouters;

  @JsonProperty("maxReplicas")
  @JsonPropertyDescription("Largest spec.replicas")
  private Integer maxReplicas;

  @JsonProperty("requiredLabels")
  @JsonPropertyDescription("Label keys every Rollout must carry in metadata.labels")
  private List<String> requiredLabels;

  @JsonProperty("requiredAnnotations")
  @JsonPropertyDescription("Annotation keys every Rollout must carry in metadata.annotations")
  private List<String> requiredAnnotations;

  /**
   * Returns {@code requireAnalysis}: canary Rollouts must run an analysis: background ({@code
   * canary.analysis}) or an {@code analysis} step.
   *
   * @return the value, or null when the rule is not set
   */
  public Boolean getRequireAnalysis() {
    return requireAnalysis;
  }

  /**
   * Sets {@code requireAnalysis}.
   *
   * @param requireAnalysis the value, or null to drop the rule
   */
  public void setRequireAnalysis(Boolean requireAnalysis) {
    this.requireAnalysis = requireAnalysis;
  }

  /**
   * Returns {@code maxWeightIncrease}: largest increase of the canary weight from one {@code
   * setWeight} step to the next, including the final promotion to 100, in percent (1..100).
   *
   * @return the value, or null when the rule is not set
   */
  public Integer getMaxWeightIncrease() {
    return maxWeightIncrease;
  }

  /**
   * Sets {@code maxWeightIncrease}.
   *
   * @param maxWeightIncrease the value, or null to drop the rule
   */
  public void setMaxWeightIncrease(Integer maxWeightIncrease) {
    this.maxWeightIncrease = maxWeightIncrease;
  }

  /**
   * Returns {@code minPauseBeforePromotion}: shortest total pause after the last {@code setWeight}
   * before full promotion, as a duration ({@code 30s}, {@code 5m}); an indefinite pause counts as
   * long enough. Blue-green: {@code autoPromotionSeconds} or {@code autoPromotionEnabled: false}.
   *
   * @return the value, or null when the rule is not set
   */
  public String getMinPauseBeforePromotion() {
    return minPauseBeforePromotion;
  }

  /**
   * Sets {@code minPauseBeforePromotion}.
   *
   * @param minPauseBeforePromotion the value, or null to drop the rule
   */
  public void setMinPauseBeforePromotion(String minPauseBeforePromotion) {
    this.minPauseBeforePromotion = minPauseBeforePromotion;
  }

  /**
   * Returns {@code requireProgressDeadlineAbort}: rollouts must set {@code
   * spec.progressDeadlineAbort: true}.
   *
   * @return the value, or null when the rule is not set
   */
  public Boolean getRequireProgressDeadlineAbort() {
    return requireProgressDeadlineAbort;
  }

  /**
   * Sets {@code requireProgressDeadlineAbort}.
   *
   * @param requireProgressDeadlineAbort the value, or null to drop the rule
   */
  public void setRequireProgressDeadlineAbort(Boolean requireProgressDeadlineAbort) {
    this.requireProgressDeadlineAbort = requireProgressDeadlineAbort;
  }

  /**
   * Returns {@code allowedStepPlugins}: when present, the only step plugins ({@code <org>/<name>})
   * canary steps may use.
   *
   * @return the value, or null when the rule is not set
   */
  public List<String> getAllowedStepPlugins() {
    return allowedStepPlugins;
  }

  /**
   * Sets {@code allowedStepPlugins}.
   *
   * @param allowedStepPlugins the value, or null to drop the rule
   */
  public void setAllowedStepPlugins(List<String> allowedStepPlugins) {
    this.allowedStepPlugins = allowedStepPlugins;
  }

  /**
   * Returns {@code forbiddenStepPlugins}: step plugins canary steps must not use.
   *
   * @return the value, or null when the rule is not set
   */
  public List<String> getForbiddenStepPlugins() {
    return forbiddenStepPlugins;
  }

  /**
   * Sets {@code forbiddenStepPlugins}.
   *
   * @param forbiddenStepPlugins the value, or null to drop the rule
   */
  public void setForbiddenStepPlugins(List<String> forbiddenStepPlugins) {
    this.forbiddenStepPlugins = forbiddenStepPlugins;
  }

  /**
   * Returns {@code allowedTrafficRouters}: when present, the only traffic routers a canary may use:
   * {@code nginx}, {@code istio}, {@code alb}, {@code smi}, {@code ambassador}, {@code appMesh},
   * {@code traefik}, {@code apisix}, or a plugin name {@code <org>/<name>}.
   *
   * @return the value, or null when the rule is not set
   */
  public List<String> getAllowedTrafficRouters() {
    return allowedTrafficRouters;
  }

  /**
   * Sets {@code allowedTrafficRouters}.
   *
   * @param allowedTrafficRouters the value, or null to drop the rule
   */
  public void setAllowedTrafficRouters(List<String> allowedTrafficRouters) {
    this.allowedTrafficRouters = allowedTrafficRouters;
  }

  /**
   * Returns {@code forbiddenTrafficRouters}: traffic routers a canary must not use (same names as
   * allowedTrafficRouters).
   *
   * @return the value, or null when the rule is not set
   */
  public List<String> getForbiddenTrafficRouters() {
    return forbiddenTrafficRouters;
  }

  /**
   * Sets {@code forbiddenTrafficRouters}.
   *
   * @param forbiddenTrafficRouters the value, or null to drop the rule
   */
  public void setForbiddenTrafficRouters(List<String> forbiddenTrafficRouters) {
    this.forbiddenTrafficRouters = forbiddenTrafficRouters;
  }

  /**
   * Returns {@code maxReplicas}: largest {@code spec.replicas}.
   *
   * @return the value, or null when the rule is not set
   */
  public Integer getMaxReplicas() {
    return maxReplicas;
  }

  /**
   * Sets {@code maxReplicas}.
   *
   * @param maxReplicas the value, or null to drop the rule
   */
  public void setMaxReplicas(Integer maxReplicas) {
    this.maxReplicas = maxReplicas;
  }

  /**
   * Returns {@code requiredLabels}: label keys every Rollout must carry in {@code metadata.labels}.
   *
   * @return the value, or null when the rule is not set
   */
  public List<String> getRequiredLabels() {
    return requiredLabels;
  }

  /**
   * Sets {@code requiredLabels}.
   *
   * @param requiredLabels the value, or null to drop the rule
   */
  public void setRequiredLabels(List<String> requiredLabels) {
    this.requiredLabels = requiredLabels;
  }

  /**
   * Returns {@code requiredAnnotations}: annotation keys every Rollout must carry in {@code
   * metadata.annotations}.
   *
   * @return the value, or null when the rule is not set
   */
  public List<String> getRequiredAnnotations() {
    return requiredAnnotations;
  }

  /**
   * Sets {@code requiredAnnotations}.
   *
   * @param requiredAnnotations the value, or null to drop the rule
   */
  public void setRequiredAnnotations(List<String> requiredAnnotations) {
    this.requiredAnnotations = requiredAnnotations;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof PolicyRules that)) {
      return false;
    }
    return Objects.equals(requireAnalysis, that.requireAnalysis)
        && Objects.equals(maxWeightIncrease, that.maxWeightIncrease)
        && Objects.equals(minPauseBeforePromotion, that.minPauseBeforePromotion)
        && Objects.equals(requireProgressDeadlineAbort, that.requireProgressDeadlineAbort)
        && Objects.equals(allowedStepPlugins, that.allowedStepPlugins)
        && Objects.equals(forbiddenStepPlugins, that.forbiddenStepPlugins)
        && Objects.equals(allowedTrafficRouters, that.allowedTrafficRouters)
        && Objects.equals(forbiddenTrafficRouters, that.forbiddenTrafficRouters)
        && Objects.equals(maxReplicas, that.maxReplicas)
        && Objects.equals(requiredLabels, that.requiredLabels)
        && Objects.equals(requiredAnnotations, that.requiredAnnotations)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        requireAnalysis,
        maxWeightIncrease,
        minPauseBeforePromotion,
        requireProgressDeadlineAbort,
        allowedStepPlugins,
        forbiddenStepPlugins,
        allowedTrafficRouters,
        forbiddenTrafficRouters,
        maxReplicas,
        requiredLabels,
        requiredAnnotations,
        additionalPropertiesHashCode());
  }
}
