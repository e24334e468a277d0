package io.rollgate.controller.rollout.model;

/**
 * A version of the Kubernetes Go types ({@code k8s.io/api}, {@code k8s.io/apimachinery}) whose
 * {@code core/v1.PodTemplateSpec} {@link GoPodTemplateJson} reproduces.
 *
 * <p>The pod template hash of Argo Rollouts is FNV-1a over Go's JSON of the template, so it depends
 * on the Go types the controller was built with: a field the types do not know is dropped, a field
 * they do know but that is unset may still be written ({@code "creationTimestamp":null}, {@code
 * "ip":""}). The known versions and the Argo Rollouts releases built with them:
 *
 * <ul>
 *   <li>{@link #V0_29}: Argo Rollouts 1.7.x and 1.8.x;
 *   <li>{@link #V0_34}: Argo Rollouts 1.9.x (built with v0.34.1, same types) and 1.10.x;
 *   <li>{@link #V0_36}: no Argo Rollouts release; the newest types (adds {@code
 *       spec.schedulingGroup} and {@code podCertificate.userAnnotations}).
 * </ul>
 *
 * <p>Between {@link #V0_29} and {@link #V0_34} every hash changes (the unset {@code
 * metadata.creationTimestamp} is no longer written), which is why upgrading Argo Rollouts from 1.8
 * to 1.9 gives every Rollout a new pod template hash.
 */
public enum GoKubeApiVersion {
  /** {@code k8s.io/api} v0.29.3, the types of Argo Rollouts 1.7.x and 1.8.x. */
  V0_29("v0.29.3"),
  /** {@code k8s.io/api} v0.34.5, the types of Argo Rollouts 1.9.x and 1.10.x. */
  V0_34("v0.34.5"),
  /** {@code k8s.io/api} v0.36.3. */
  V0_36("v0.36.3");

  private final String moduleVersion;

  GoKubeApiVersion(String moduleVersion) {
    this.moduleVersion = moduleVersion;
  }

  /**
   * Returns the Go module version of {@code k8s.io/api} the type table was generated from.
   *
   * @return the version, for example {@code v0.34.5}
   */
  public String moduleVersion() {
    return moduleVersion;
  }
}
