package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** AWS Signature v4 settings ({@code authentication.sigv4}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Sigv4Config extends ModelObject {

  /** AWS region. */
  @JsonProperty("region")
  private String region;

  /** AWS profile name. */
  @JsonProperty("profile")
  private String profile;

  /** Role to assume. */
  @JsonProperty("roleArn")
  private String roleArn;

  public String getRegion() {
    return region;
  }

  public void setRegion(String region) {
    this.region = region;
  }

  public String getProfile() {
    return profile;
  }

  public void setProfile(String profile) {
    this.profile = profile;
  }

  public String getRoleArn() {
    return roleArn;
  }

  public void setRoleArn(String roleArn) {
    this.roleArn = roleArn;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    Sigv4Config that = (Sigv4Config) o;
    return Objects.equals(region, that.region)
        && Objects.equals(profile, that.profile)
        && Objects.equals(roleArn, that.roleArn)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(region, profile, roleArn, additionalPropertiesHashCode());
  }
}
