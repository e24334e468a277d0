package io.rollgate.controller.traffic;

/**
 * The API versions of the router objects the Traefik, Ambassador and App Mesh routers read and
 * write, from the controller flags named as Argo Rollouts' ({@code --traefik-api-group}, {@code
 * --traefik-api-version}, {@code --ambassador-api-version}, {@code --appmesh-crd-version}; defaults
 * as Argo Rollouts 1.10, docs/compatibility.md §14).
 *
 * @param traefikApiGroup the TraefikService API group ({@code traefik.io}, or the older {@code
 *     traefik.containo.us})
 * @param traefikApiVersion the TraefikService version, {@code <group>/<version>} or just {@code
 *     <version>}; its group part, when present, must be {@code traefikApiGroup}
 * @param ambassadorApiVersion the Ambassador Mapping {@code <group>/<version>} ({@code
 *     getambassador.io/v2}, {@code getambassador.io/v3alpha1}; {@code x.getambassador.io/...} means
 *     the {@code AmbassadorMapping} kind); a bare version means group {@code getambassador.io}
 * @param appMeshCrdVersion the {@code appmesh.k8s.aws} version of VirtualService, VirtualRouter and
 *     VirtualNode
 */
public record RouterApiVersions(
    String traefikApiGroup,
    String traefikApiVersion,
    String ambassadorApiVersion,
    String appMeshCrdVersion) {

  /** {@code --traefik-api-group} default. */
  public static final String DEFAULT_TRAEFIK_API_GROUP = "traefik.io";

  /** {@code --traefik-api-version} default. */
  public static final String DEFAULT_TRAEFIK_API_VERSION = "traefik.io/v1alpha1";

  /** {@code --ambassador-api-version} default. */
  public static final String DEFAULT_AMBASSADOR_API_VERSION = "getambassador.io/v2";

  /** {@code --appmesh-crd-version} default. */
  public static final String DEFAULT_APPMESH_CRD_VERSION = "v1beta2";

  /**
   * The Ambassador API group assumed when {@code --ambassador-api-version} names only a version.
   */
  public static final String AMBASSADOR_GROUP = "getambassador.io";

  /** The Ambassador API group whose Mapping kind is called {@code AmbassadorMapping}. */
  public static final String AMBASSADOR_X_GROUP = "x.getambassador.io";

  /** The App Mesh API group. */
  public static final String APPMESH_GROUP = "appmesh.k8s.aws";

  /** The defaults of all four flags. */
  public static final RouterApiVersions DEFAULTS =
      new RouterApiVersions(
          DEFAULT_TRAEFIK_API_GROUP,
          DEFAULT_TRAEFIK_API_VERSION,
          DEFAULT_AMBASSADOR_API_VERSION,
          DEFAULT_APPMESH_CRD_VERSION);

  /**
   * Checks the flags.
   *
   * @throws IllegalArgumentException naming the flag when a value is empty, has more than one
   *     {@code /}, or when the group part of {@code --traefik-api-version} is not {@code
   *     --traefik-api-group}
   */
  public RouterApiVersions {
    requireSingle("--traefik-api-group", traefikApiGroup, false);
    requireSingle("--traefik-api-version", traefikApiVersion, true);
    requireSingle("--ambassador-api-version", ambassadorApiVersion, true);
    requireSingle("--appmesh-crd-version", appMeshCrdVersion, false);
    int slash = traefikApiVersion.indexOf('/');
    if (slash >= 0 && !traefikApiVersion.substring(0, slash).equals(traefikApiGroup)) {
      throw new IllegalArgumentException(
          "--traefik-api-version "
              + traefikApiVersion
              + " names another group than --traefik-api-group "
              + traefikApiGroup
              + " (set both, e.g. --traefik-api-group traefik.containo.us --traefik-api-version"
              + " traefik.containo.us/v1alpha1)");
    }
  }

  private static void requireSingle(String flag, String value, boolean slashAllowed) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(flag + " must not be empty");
    }
    int slashes = value.length() - value.replace("/", "").length();
    if (slashes > (slashAllowed ? 1 : 0) || value.startsWith("/") || value.endsWith("/")) {
      throw new IllegalArgumentException(
          flag
              + " must be "
              + (slashAllowed ? "<group>/<version> or <version>" : "one name without '/'")
              + ": "
              + value);
    }
  }

  /**
   * Returns the TraefikService {@code apiVersion}: {@code --traefik-api-group} and the version part
   * of {@code --traefik-api-version}.
   *
   * @return for example {@code traefik.io/v1alpha1}
   */
  public String traefikServiceApiVersion() {
    return traefikApiGroup + "/" + traefikApiVersion.substring(traefikApiVersion.indexOf('/') + 1);
  }

  /**
   * Returns the Ambassador Mapping {@code apiVersion}.
   *
   * @return for example {@code getambassador.io/v2}
   */
  public String mappingApiVersion() {
    return ambassadorApiVersion.contains("/")
        ? ambassadorApiVersion
        : AMBASSADOR_GROUP + "/" + ambassadorApiVersion;
  }

  /**
   * Returns the Ambassador Mapping kind: {@code AmbassadorMapping} in {@code x.getambassador.io},
   * else {@code Mapping}.
   *
   * @return the kind
   */
  public String mappingKind() {
    return mappingApiVersion().startsWith(AMBASSADOR_X_GROUP + "/")
        ? "AmbassadorMapping"
        : "Mapping";
  }

  /**
   * Returns the {@code apiVersion} of the App Mesh objects.
   *
   * @return for example {@code appmesh.k8s.aws/v1beta2}
   */
  public String appMeshApiVersion() {
    return APPMESH_GROUP + "/" + appMeshCrdVersion;
  }
}
