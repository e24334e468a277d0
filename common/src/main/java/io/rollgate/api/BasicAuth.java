package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** HTTP basic authentication ({@code authentication.basicAuth}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BasicAuth extends ModelObject {

  /** User name. */
  @JsonProperty("username")
  private String username;

  /** Password. */
  @JsonProperty("password")
  private String password;

  public String getUsername() {
    return username;
  }

  public void setUsername(String username) {
    this.username = username;
  }

  public String getPassword() {
    return password;
  }

  public void setPassword(String password) {
    this.password = password;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    BasicAuth that = (BasicAuth) o;
    return Objects.equals(username, that.username)
        && Objects.equals(password, that.password)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(username, password, additionalPropertiesHashCode());
  }
}
