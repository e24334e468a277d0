package io.rollgate.controller.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The router API version flags ({@code --traefik-api-group} and the like) and the object versions
 * they select.
 */
class RouterApiVersionsTest {

  @Test
  void traefikDefaultsToTraefikIo_andTheFlagsSelectTheOlderGroup() {
    assertEquals("traefik.io/v1alpha1", RouterApiVersions.DEFAULTS.traefikServiceApiVersion());
    RouterApiVersions v2 =
        new RouterApiVersions(
            "traefik.containo.us",
            "traefik.containo.us/v1alpha1",
            "getambassador.io/v2",
            "v1beta2");
    assertEquals("traefik.containo.us/v1alpha1", v2.traefikServiceApiVersion());
    RouterApiVersions bareVersion =
        new RouterApiVersions("traefik.containo.us", "v1alpha1", "v3alpha1", "v1beta2");
    assertEquals("traefik.containo.us/v1alpha1", bareVersion.traefikServiceApiVersion());
    IllegalArgumentException mismatch =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new RouterApiVersions(
                    "traefik.io",
                    "traefik.containo.us/v1alpha1",
                    "getambassador.io/v2",
                    "v1beta2"));
    assertTrue(
        mismatch
            .getMessage()
            .startsWith("--traefik-api-version traefik.containo.us/v1alpha1 names another group"),
        mismatch.getMessage());
    IllegalArgumentException empty =
        assertThrows(
            IllegalArgumentException.class,
            () -> new RouterApiVersions("", "v1alpha1", "getambassador.io/v2", "v1beta2"));
    assertEquals("--traefik-api-group must not be empty", empty.getMessage());
    IllegalArgumentException slashes =
        assertThrows(
            IllegalArgumentException.class,
            () -> new RouterApiVersions("traefik.io", "traefik.io/v1alpha1", "a/b/c", "v1beta2"));
    assertTrue(
        slashes.getMessage().startsWith("--ambassador-api-version must be <group>/<version>"),
        slashes.getMessage());
  }

  @Test
  void mappingApiVersionAndKindFollowTheFlag() {
    assertEquals("getambassador.io/v2", RouterApiVersions.DEFAULTS.mappingApiVersion());
    assertEquals("Mapping", RouterApiVersions.DEFAULTS.mappingKind());
    RouterApiVersions v3 =
        new RouterApiVersions(
            "traefik.io", "traefik.io/v1alpha1", "getambassador.io/v3alpha1", "v1beta2");
    assertEquals("getambassador.io/v3alpha1", v3.mappingApiVersion());
    assertEquals("Mapping", v3.mappingKind());
    RouterApiVersions bare =
        new RouterApiVersions("traefik.io", "traefik.io/v1alpha1", "v3alpha1", "v1beta2");
    assertEquals("getambassador.io/v3alpha1", bare.mappingApiVersion());
    RouterApiVersions x =
        new RouterApiVersions(
            "traefik.io", "traefik.io/v1alpha1", "x.getambassador.io/v3alpha1", "v1beta2");
    assertEquals("x.getambassador.io/v3alpha1", x.mappingApiVersion());
    assertEquals("AmbassadorMapping", x.mappingKind());
  }

  @Test
  void appMeshUsesTheCrdVersionFlag() {
    assertEquals("appmesh.k8s.aws/v1beta2", RouterApiVersions.DEFAULTS.appMeshApiVersion());
    assertEquals(
        "appmesh.k8s.aws/v1beta3",
        new RouterApiVersions("traefik.io", "traefik.io/v1alpha1", "getambassador.io/v2", "v1beta3")
            .appMeshApiVersion());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new RouterApiVersions(
                    "traefik.io",
                    "traefik.io/v1alpha1",
                    "getambassador.io/v2",
                    "appmesh.k8s.aws/v1"));
    assertEquals(
        "--appmesh-crd-version must be one name without '/': appmesh.k8s.aws/v1", e.getMessage());
  }
}
