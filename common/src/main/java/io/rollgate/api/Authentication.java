package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Authentication of a metric provider ({@code provider.<type>.authentication}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Authentication extends ModelObject {

  /** AWS Signature v4 (Amazon Managed Prometheus). */
  @JsonProperty("sigv4")
  private Sigv4Config sigv4;

  /** OAuth2 client-credentials grant. */
  @JsonProperty("oauth2")
  private OAuth2Config oauth2;

  /** HTTP basic authentication. */
  @JsonProperty("basicAuth")
  private BasicAuth basicAuth;

  public Sigv4Config getSigv4() {
    return sigv4;
  }

  public void setSigv4(Sigv4Config sigv4) {
    this.sigv4 = sigv4;
  }

  public OAuth2Config getOauth2() {
    return oauth2;
  }

  public void setOauth2(OAuth2Config oauth2) {
    this.oauth2 = oauth2;
  }

  public BasicAuth getBasicAuth() {
    return basicAuth;
  }

  public void setBasicAuth(BasicAuth basicAuth) {
    this.basicAuth = basicAuth;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    Authentication that = (Authentication) o;
    return Objects.equals(sigv4, that.sigv4)
        && Objects.equals(oauth2, that.oauth2)
        && Objects.equals(basicAuth, that.basicAuth)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(sigv4, oauth2, basicAuth, additionalPropertiesHashCode());
  }
}
