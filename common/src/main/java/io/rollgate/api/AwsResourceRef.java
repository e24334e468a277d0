package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Reference to an AWS resource. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AwsResourceRef extends ModelObject {

  /** Resource name. */
  @JsonProperty("name")
  private String name;

  /** Resource ARN. */
  @JsonProperty("arn")
  private String arn;

  /** Full resource name. */
  @JsonProperty("fullName")
  private String fullName;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getArn() {
    return arn;
  }

  public void setArn(String arn) {
    this.arn = arn;
  }

  public String getFullName() {
    return fullName;
  }

  public void setFullName(String fullName) {
    this.fullName = fullName;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    AwsResourceRef that = (AwsResourceRef) o;
    return Objects.equals(name, that.name)
        && Objects.equals(arn, that.arn)
        && Objects.equals(fullName, that.fullName)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, arn, fullName, additionalPropertiesHashCode());
  }
}
