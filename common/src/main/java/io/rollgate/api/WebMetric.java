package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import java.util.List;
import java.util.Objects;

/** Web provider ({@code provider.web}, docs/compatibility.md §9.7). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WebMetric extends ModelObject {

  /** HTTP method: GET (default), POST or PUT. */
  @JsonProperty("method")
  private String method;

  /** URL to call; {@code {{args.x}}} substituted. */
  @JsonProperty("url")
  private String url;

  /** Extra HTTP headers. */
  @JsonProperty("headers")
  private List<WebMetricHeader> headers;

  /** Request body as text (not with GET). */
  @JsonProperty("body")
  private String body;

  /** Request timeout in seconds (default 10). */
  @JsonProperty("timeoutSeconds")
  private Long timeoutSeconds;

  /** Kubernetes JSONPath selecting the value in the JSON response (default {@code {$}}). */
  @JsonProperty("jsonPath")
  private String jsonPath;

  /** Skip TLS certificate verification. */
  @JsonProperty("insecure")
  private Boolean insecure;

  /** Request body as a JSON object (schemaless); sets {@code Content-Type: application/json}. */
  @JsonProperty("jsonBody")
  @SchemaFrom(type = ObjectNode.class)
  private JsonNode jsonBody;

  /** Authentication (oauth2). */
  @JsonProperty("authentication")
  private Authentication authentication;

  public String getMethod() {
    return method;
  }

  public void setMethod(String method) {
    this.method = method;
  }

  public String getUrl() {
    return url;
  }

  public void setUrl(String url) {
    this.url = url;
  }

  public List<WebMetricHeader> getHeaders() {
    return headers;
  }

  public void setHeaders(List<WebMetricHeader> headers) {
    this.headers = headers;
  }

  public String getBody() {
    return body;
  }

  public void setBody(String body) {
    this.body = body;
  }

  public Long getTimeoutSeconds() {
    return timeoutSeconds;
  }

  public void setTimeoutSeconds(Long timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
  }

  public String getJsonPath() {
    return jsonPath;
  }

  public void setJsonPath(String jsonPath) {
    this.jsonPath = jsonPath;
  }

  public Boolean getInsecure() {
    return insecure;
  }

  public void setInsecure(Boolean insecure) {
    this.insecure = insecure;
  }

  public JsonNode getJsonBody() {
    return jsonBody;
  }

  public void setJsonBody(JsonNode jsonBody) {
    this.jsonBody = jsonBody;
  }

  public Authentication getAuthentication() {
    return authentication;
  }

  public void setAuthentication(Authentication authentication) {
    this.authentication = authentication;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    WebMetric that = (WebMetric) o;
    return Objects.equals(method, that.method)
        && Objects.equals(url, that.url)
        && Objects.equals(headers, that.headers)
        && Objects.equals(body, that.body)
        && Objects.equals(timeoutSeconds, that.timeoutSeconds)
        && Objects.equals(jsonPath, that.jsonPath)
        && Objects.equals(insecure, that.insecure)
        && Objects.equals(jsonBody, that.jsonBody)
        && Objects.equals(authentication, that.authentication)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        method,
        url,
        headers,
        body,
        timeoutSeconds,
        jsonPath,
        insecure,
        jsonBody,
        authentication,
        additionalPropertiesHashCode());
  }
}
