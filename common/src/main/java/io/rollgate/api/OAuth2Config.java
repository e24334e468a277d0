package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/** OAuth2 client-credentials settings ({@code authentication.oauth2}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class OAuth2Config extends ModelObject {

  /** Token endpoint URL. */
  @JsonProperty("tokenUrl")
  private String tokenUrl;

  /** Client id. */
  @JsonProperty("clientId")
  private String clientId;

  /** Client secret. */
  @JsonProperty("clientSecret")
  private String clientSecret;

  /** Requested scopes. */
  @JsonProperty("scopes")
  private List<String> scopes;

  public String getTokenUrl() {
    return tokenUrl;
  }

  public void setTokenUrl(String tokenUrl) {
    this.tokenUrl = tokenUrl;
  }

  public String getClientId() {
    return clientId;
  }

  public void setClientId(String clientId) {
    this.clientId = clientId;
  }

  public String getClientSecret() {
    return clientSecret;
  }

  public void setClientSecret(String clientSecret) {
    this.clientSecret = clientSecret;
  }

  public List<String> getScopes() {
    return scopes;
  }

  public void setScopes(List<String> scopes) {
    this.scopes = scopes;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    OAuth2Config that = (OAuth2Config) o;
    return Objects.equals(tokenUrl, that.tokenUrl)
        && Objects.equals(clientId, that.clientId)
        && Objects.equals(clientSecret, that.clientSecret)
        && Objects.equals(scopes, that.scopes)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(tokenUrl, clientId, clientSecret, scopes, additionalPropertiesHashCode());
  }
}
