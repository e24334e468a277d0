package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** Prometheus provider ({@code provider.prometheus}, docs/compatibility.md §9.7). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PrometheusMetric extends ModelObject {

  /** Absolute URL of the Prometheus server. */
  @JsonProperty("address")
  private String address;

  /** PromQL query; {@code {{args.x}}} substituted. */
  @JsonProperty("query")
  private String query;

  /** Query timeout in seconds (default 30). */
  @JsonProperty("timeout")
  private Long timeout;

  /** Skip TLS certificate verification. */
  @JsonProperty("insecure")
  private Boolean insecure;

  /** Extra HTTP headers. */
  @JsonProperty("headers")
  private List<WebMetricHeader> headers;

  /** Authentication: basicAuth, oauth2 or sigv4. */
  @JsonProperty("authentication")
  private Authentication authentication;

  /** Range query instead of an instant query. */
  @JsonProperty("rangeQuery")
  private PrometheusRangeQueryArgs rangeQuery;

  public String getAddress() {
    return address;
  }

  public void setAddress(String address) {
    this.address = address;
  }

  public String getQuery() {
    return query;
  }

  public void setQuery(String query) {
    this.query = query;
  }

  public Long getTimeout() {
    return timeout;
  }

  public void setTimeout(Long timeout) {
    this.timeout = timeout;
  }

  public Boolean getInsecure() {
    return insecure;
  }

  public void setInsecure(Boolean insecure) {
    this.insecure = insecure;
  }

  public List<WebMetricHeader> getHeaders() {
    return headers;
  }

  public void setHeaders(List<WebMetricHeader> headers) {
    this.headers = headers;
  }

  public Authentication getAuthentication() {
    return authentication;
  }

  public void setAuthentication(Authentication authentication) {
    this.authentication = authentication;
  }

  public PrometheusRangeQueryArgs getRangeQuery() {
    return rangeQuery;
  }

  public void setRangeQuery(PrometheusRangeQueryArgs rangeQuery) {
    this.rangeQuery = rangeQuery;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    PrometheusMetric that = (PrometheusMetric) o;
    return Objects.equals(address, that.address)
        && Objects.equals(query, that.query)
        && Objects.equals(timeout, that.timeout)
        && Objects.equals(insecure, that.insecure)
        && Objects.equals(headers, that.headers)
        && Objects.equals(authentication, that.authentication)
        && Objects.equals(rangeQuery, that.rangeQuery)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        address,
        query,
        timeout,
        insecure,
        headers,
        authentication,
        rangeQuery,
        additionalPropertiesHashCode());
  }
}
