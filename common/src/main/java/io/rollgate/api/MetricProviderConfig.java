package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import java.util.Objects;

/**
 * Provider of a metric ({@code spec.metrics[].provider}, docs/compatibility.md §9.2, §9.7): exactly
 * one member is set. Rollgate models {@code prometheus}, {@code web} and {@code job}; any other
 * provider (kayenta, datadog, wavefront, newRelic, cloudWatch, graphite, influxdb, skywalking,
 * plugin) is kept unchanged in {@link #getAdditionalProperties()} and in the stored object (the CRD
 * schema preserves unknown members here), and is reported as unsupported when measured.
 */
@PreserveUnknownFields
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MetricProviderConfig extends ModelObject {

  /** Prometheus query. */
  @JsonProperty("prometheus")
  private PrometheusMetric prometheus;

  /** HTTP request to a web endpoint. */
  @JsonProperty("web")
  private WebMetric web;

  /** Kubernetes Job whose completion decides the measurement. */
  @JsonProperty("job")
  private JobMetric job;

  public PrometheusMetric getPrometheus() {
    return prometheus;
  }

  public void setPrometheus(PrometheusMetric prometheus) {
    this.prometheus = prometheus;
  }

  public WebMetric getWeb() {
    return web;
  }

  public void setWeb(WebMetric web) {
    this.web = web;
  }

  public JobMetric getJob() {
    return job;
  }

  public void setJob(JobMetric job) {
    this.job = job;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    MetricProviderConfig that = (MetricProviderConfig) o;
    return Objects.equals(prometheus, that.prometheus)
        && Objects.equals(web, that.web)
        && Objects.equals(job, that.job)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(prometheus, web, job, additionalPropertiesHashCode());
  }
}
