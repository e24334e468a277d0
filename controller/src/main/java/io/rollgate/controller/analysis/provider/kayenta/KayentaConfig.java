package io.rollgate.controller.analysis.provider.kayenta;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code metrics[].provider.kayenta} as Argo Rollouts defines it (docs/compatibility.md §9.7).
 *
 * @param address Kayenta's base URL
 * @param application the application the canary config belongs to
 * @param canaryConfigName the canary config's name (looked up to its id)
 * @param metricsAccountName the account Kayenta reads metrics from
 * @param configurationAccountName the account holding the canary config
 * @param storageAccountName the account Kayenta stores results in
 * @param threshold the scores that pass and that are marginal
 * @param scopes the control and experiment scopes, by name
 * @param lookback true: every scope without times starts at the run's start, not one interval back
 */
record KayentaConfig(
    @JsonProperty("address") String address,
    @JsonProperty("application") String application,
    @JsonProperty("canaryConfigName") String canaryConfigName,
    @JsonProperty("metricsAccountName") String metricsAccountName,
    @JsonProperty("configurationAccountName") String configurationAccountName,
    @JsonProperty("storageAccountName") String storageAccountName,
    @JsonProperty("threshold") Threshold threshold,
    @JsonProperty("scopes") List<Scope> scopes,
    @JsonProperty("lookback") boolean lookback) {

  /**
   * {@code threshold}.
   *
   * @param pass the lowest passing score (0-100)
   * @param marginal the lowest marginal (Inconclusive) score
   */
  record Threshold(@JsonProperty("pass") long pass, @JsonProperty("marginal") long marginal) {}

  /**
   * One of {@code scopes}.
   *
   * @param name the scope's name
   * @param controlScope the baseline
   * @param experimentScope the canary
   */
  record Scope(
      @JsonProperty("name") String name,
      @JsonProperty("controlScope") ScopeDetail controlScope,
      @JsonProperty("experimentScope") ScopeDetail experimentScope) {}

  /**
   * A scope's detail; Kayenta calls {@code region} {@code location}.
   *
   * @param scope the metric scope, for example a label selector
   * @param region the location
   * @param step the step in seconds
   * @param start the start time (ISO-8601), or empty for the measurement window
   * @param end the end time, or empty for the measurement time
   */
  record ScopeDetail(
      @JsonProperty("scope") String scope,
      @JsonProperty("region") String region,
      @JsonProperty("step") long step,
      @JsonProperty("start") String start,
      @JsonProperty("end") String end) {}
}
