package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.Objects;

/**
 * A metric of an analysis ({@code spec.metrics[]}, docs/compatibility.md §9.2): what to measure,
 * how often, and the limits that decide its phase. Durations are Go duration strings; counts and
 * limits are {@code IntOrString} so that they can be taken from arguments.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Metric extends ModelObject {

  /** Name, unique within the run. */
  @JsonProperty("name")
  private String name;

  /** Go duration between measurements; empty means a single measurement. */
  @JsonProperty("interval")
  private String interval;

  /** Go duration after the run started before the first measurement. */
  @JsonProperty("initialDelay")
  private String initialDelay;

  /** Number of measurements; absent or 0 means 1 without interval, unbounded with one. */
  @JsonProperty("count")
  private IntOrString count;

  /** Expression on {@code result} that marks a measurement Successful. */
  @JsonProperty("successCondition")
  private String successCondition;

  /** Expression on {@code result} that marks a measurement Failed. */
  @JsonProperty("failureCondition")
  private String failureCondition;

  /** Failed measurements tolerated (default 0, -1 disables). */
  @JsonProperty("failureLimit")
  private IntOrString failureLimit;

  /** Inconclusive measurements tolerated (default 0). */
  @JsonProperty("inconclusiveLimit")
  private IntOrString inconclusiveLimit;

  /** Consecutive Error measurements tolerated (default 4). */
  @JsonProperty("consecutiveErrorLimit")
  private IntOrString consecutiveErrorLimit;

  /** Consecutive successes that end the metric Successful (default 0: disabled). */
  @JsonProperty("consecutiveSuccessLimit")
  private IntOrString consecutiveSuccessLimit;

  /** Where the value comes from: exactly one provider. */
  @JsonProperty("provider")
  private MetricProviderConfig provider;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getInterval() {
    return interval;
  }

  public void setInterval(String interval) {
    this.interval = interval;
  }

  public String getInitialDelay() {
    return initialDelay;
  }

  public void setInitialDelay(String initialDelay) {
    this.initialDelay = initialDelay;
  }

  public IntOrString getCount() {
    return count;
  }

  public void setCount(IntOrString count) {
    this.count = count;
  }

  public String getSuccessCondition() {
    return successCondition;
  }

  public void setSuccessCondition(String successCondition) {
    this.successCondition = successCondition;
  }

  public String getFailureCondition() {
    return failureCondition;
  }

  public void setFailureCondition(String failureCondition) {
    this.failureCondition = failureCondition;
  }

  public IntOrString getFailureLimit() {
    return failureLimit;
  }

  public void setFailureLimit(IntOrString failureLimit) {
    this.failureLimit = failureLimit;
  }

  public IntOrString getInconclusiveLimit() {
    return inconclusiveLimit;
  }

  public void setInconclusiveLimit(IntOrString inconclusiveLimit) {
    this.inconclusiveLimit = inconclusiveLimit;
  }

  public IntOrString getConsecutiveErrorLimit() {
    return consecutiveErrorLimit;
  }

  public void setConsecutiveErrorLimit(IntOrString consecutiveErrorLimit) {
    this.consecutiveErrorLimit = consecutiveErrorLimit;
  }

  public IntOrString getConsecutiveSuccessLimit() {
    return consecutiveSuccessLimit;
  }

  public void setConsecutiveSuccessLimit(IntOrString consecutiveSuccessLimit) {
    this.consecutiveSuccessLimit = consecutiveSuccessLimit;
  }

  public MetricProviderConfig getProvider() {
    return provider;
  }

  public void setProvider(MetricProviderConfig provider) {
    this.provider = provider;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    Metric that = (Metric) o;
    return Objects.equals(name, that.name)
        && Objects.equals(interval, that.interval)
        && Objects.equals(initialDelay, that.initialDelay)
        && Objects.equals(count, that.count)
        && Objects.equals(successCondition, that.successCondition)
        && Objects.equals(failureCondition, that.failureCondition)
        && Objects.equals(failureLimit, that.failureLimit)
        && Objects.equals(inconclusiveLimit, that.inconclusiveLimit)
        && Objects.equals(consecutiveErrorLimit, that.consecutiveErrorLimit)
        && Objects.equals(consecutiveSuccessLimit, that.consecutiveSuccessLimit)
        && Objects.equals(provider, that.provider)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name,
        interval,
        initialDelay,
        count,
        successCondition,
        failureCondition,
        failureLimit,
        inconclusiveLimit,
        consecutiveErrorLimit,
        consecutiveSuccessLimit,
        provider,
        additionalPropertiesHashCode());
  }
}
