package io.rollgate.kube;

/**
 * Where {@link KubeCalls} records its requests; each program maps these onto its own meters (the
 * controller onto {@code controller_clientset_k8s_request_total} and {@code
 * rollgate_kube_api_throttle_seconds}, docs/architecture.md).
 */
public interface ApiCallMetrics {

  /**
   * Counts one API-server request.
   *
   * @param verb {@code get}, {@code list}, {@code create}, {@code patch}, {@code apply}, {@code
   *     delete}, ...
   * @param resource the resource, for example {@code replicasets} or {@code rolloutpolicies/status}
   * @param statusCode the HTTP status, or {@code timeout}, {@code refused} (fenced) or {@code
   *     error} (no answer)
   */
  void apiRequest(String verb, String resource, String statusCode);

  /**
   * Records the time one call waited for the rate limiter.
   *
   * @param nanos the wait, in nanoseconds (0 when a token was available)
   */
  void throttled(long nanos);
}
