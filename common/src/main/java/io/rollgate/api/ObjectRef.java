package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Reference to the workload that supplies the pod template ({@code spec.workloadRef}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ObjectRef extends ModelObject {

  /** API version of the referenced workload, e.g. {@code apps/v1}. */
  @JsonProperty("apiVersion")
  private String apiVersion;

  /**
   * Kind of the referenced workload: {@code Deployment}, {@code ReplicaSet} or {@code PodTemplate}.
   */
  @JsonProperty("kind")
  private String kind;

  /** Name of the referenced workload in the Rollout's namespace. */
  @JsonProperty("name")
  private String name;

  /**
   * Scale-down policy for a referenced Deployment: {@code never}, {@code onsuccess} or {@code
   * progressively}.
   */
  @JsonProperty("scaleDown")
  private String scaleDown;

  public String getApiVersion() {
    return apiVersion;
  }

  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  public String getKind() {
    return kind;
  }

  public void setKind(String kind) {
    this.kind = kind;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getScaleDown() {
    return scaleDown;
  }

  public void setScaleDown(String scaleDown) {
    this.scaleDown = scaleDown;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ObjectRef that = (ObjectRef) o;
    return Objects.equals(apiVersion, that.apiVersion)
        && Objects.equals(kind, that.kind)
        && Objects.equals(name, that.name)
        && Objects.equals(scaleDown, that.scaleDown)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(apiVersion, kind, name, scaleDown, additionalPropertiesHashCode());
  }
}
