package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** One canary step ({@code spec.strategy.canary.steps[]}); exactly one member should be set. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CanaryStep extends ModelObject {

  /** Canary traffic weight in percent of {@code maxTrafficWeight}. */
  @JsonProperty("setWeight")
  private Integer setWeight;

  /** Pause, for a duration or until promoted. */
  @JsonProperty("pause")
  private RolloutPause pause;

  /** Run an Experiment. */
  @JsonProperty("experiment")
  private RolloutExperimentStep experiment;

  /** Run an AnalysisRun and wait for it. */
  @JsonProperty("analysis")
  private RolloutAnalysis analysis;

  /** Scale the canary independently of its traffic weight. */
  @JsonProperty("setCanaryScale")
  private SetCanaryScale setCanaryScale;

  /** Create, replace or remove a managed header route. */
  @JsonProperty("setHeaderRoute")
  private SetHeaderRoute setHeaderRoute;

  /** Create, replace or remove a managed mirror route. */
  @JsonProperty("setMirrorRoute")
  private SetMirrorRoute setMirrorRoute;

  /** Run a step plugin. */
  @JsonProperty("plugin")
  private PluginStep plugin;

  public Integer getSetWeight() {
    return setWeight;
  }

  public void setSetWeight(Integer setWeight) {
    this.setWeight = setWeight;
  }

  public RolloutPause getPause() {
    return pause;
  }

  public void setPause(RolloutPause pause) {
    this.pause = pause;
  }

  public RolloutExperimentStep getExperiment() {
    return experiment;
  }

  public void setExperiment(RolloutExperimentStep experiment) {
    this.experiment = experiment;
  }

  public RolloutAnalysis getAnalysis() {
    return analysis;
  }

  public void setAnalysis(RolloutAnalysis analysis) {
    this.analysis = analysis;
  }

  public SetCanaryScale getSetCanaryScale() {
    return setCanaryScale;
  }

  public void setSetCanaryScale(SetCanaryScale setCanaryScale) {
    this.setCanaryScale = setCanaryScale;
  }

  public SetHeaderRoute getSetHeaderRoute() {
    return setHeaderRoute;
  }

  public void setSetHeaderRoute(SetHeaderRoute setHeaderRoute) {
    this.setHeaderRoute = setHeaderRoute;
  }

  public SetMirrorRoute getSetMirrorRoute() {
    return setMirrorRoute;
  }

  public void setSetMirrorRoute(SetMirrorRoute setMirrorRoute) {
    this.setMirrorRoute = setMirrorRoute;
  }

  public PluginStep getPlugin() {
    return plugin;
  }

  public void setPlugin(PluginStep plugin) {
    this.plugin = plugin;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    CanaryStep that = (CanaryStep) o;
    return Objects.equals(setWeight, that.setWeight)
        && Objects.equals(pause, that.pause)
        && Objects.equals(experiment, that.experiment)
        && Objects.equals(analysis, that.analysis)
        && Objects.equals(setCanaryScale, that.setCanaryScale)
        && Objects.equals(setHeaderRoute, that.setHeaderRoute)
        && Objects.equals(setMirrorRoute, that.setMirrorRoute)
        && Objects.equals(plugin, that.plugin)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        setWeight,
        pause,
        experiment,
        analysis,
        setCanaryScale,
        setHeaderRoute,
        setMirrorRoute,
        plugin,
        additionalPropertiesHashCode());
  }
}
