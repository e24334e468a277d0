package io.rollgate.controller.analysis.provider.datadog;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * {@code metrics[].provider.datadog} as Argo Rollouts defines it (docs/compatibility.md §9.7 and
 * its CRD defaults).
 *
 * @param apiVersion {@code v1} (default; metrics query API) or {@code v2} (scalar query API)
 * @param interval the Go duration the query looks back over (default {@code 5m})
 * @param query one query (v1 and v2)
 * @param queries named queries for a v2 {@code formula}
 * @param formula a v2 formula over the {@code queries} names
 * @param aggregator the v2 aggregator (default {@code last})
 * @param secretRef the Secret with the credentials, instead of the {@code datadog} Secret
 * @param requestTimeout the Go duration bounding the HTTP call (default {@code 10s})
 */
record DatadogConfig(
    @JsonProperty("apiVersion") String apiVersion,
    @JsonProperty("interval") String interval,
    @JsonProperty("query") String query,
    @JsonProperty("queries") Map<String, String> queries,
    @JsonProperty("formula") String formula,
    @JsonProperty("aggregator") String aggregator,
    @JsonProperty("secretRef") SecretRef secretRef,
    @JsonProperty("requestTimeout") String requestTimeout) {

  /**
   * {@code secretRef}.
   *
   * @param name the Secret's name
   * @param namespaced true: the Secret is in the AnalysisRun's namespace; false: in the
   *     controller's
   */
  record SecretRef(
      @JsonProperty("name") String name, @JsonProperty("namespaced") boolean namespaced) {}

  boolean v2() {
    return "v2".equals(apiVersion);
  }
}
