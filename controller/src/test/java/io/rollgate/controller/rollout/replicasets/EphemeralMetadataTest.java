package io.rollgate.controller.rollout.replicasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.rollgate.api.ModelJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EphemeralMetadataTest {

  @Test
  void diffSetsDesiredRemovesNoLongerDesiredAndLeavesOtherKeys() {
    var patch =
        EphemeralMetadata.diff(
            Map.of("app", "web", "role", "canary", "track", "x", "team", "a"),
            Map.of("role", "stable"),
            Map.of("role", "canary", "track", "x"),
            List.of("app"));
    assertEquals("{\"role\":\"stable\",\"track\":null}", patch.toString());
  }

  @Test
  void diffNeverTouchesSelectorKeys() {
    var patch =
        EphemeralMetadata.diff(
            Map.of("app", "web"), Map.of("app", "other"), Map.of("app", "web"), List.of("app"));
    assertEquals("{}", patch.toString());
  }

  @Test
  void recordedEphemeralMetadataIsIgnoredByTemplateComparison() {
    PodTemplateSpec rollout =
        template(
            "metadata: {labels: {app: web}}\nspec: {containers: [{name: app, image: 'nginx:1.25'}]}");
    PodTemplateSpec withRole =
        template(
            "metadata: {labels: {app: web, role: canary}, annotations: {t: c}}\n"
                + "spec: {containers: [{name: app, image: 'nginx:1.25'}]}");
    var rs =
        new ReplicaSetBuilder()
            .withNewMetadata()
            .withName("web-1")
            .addToAnnotations(
                "rollout.argoproj.io/ephemeral-metadata",
                "{\"labels\":{\"role\":\"canary\"},\"annotations\":{\"t\":\"c\"}}")
            .endMetadata()
            .withNewSpec()
            .withTemplate(withRole)
            .endSpec()
            .build();
    assertTrue(EphemeralMetadata.sameTemplate(rollout, rs));
    rs.getMetadata().getAnnotations().clear();
    assertFalse(
        EphemeralMetadata.sameTemplate(rollout, rs), "unrecorded labels are part of the template");
  }

  private static PodTemplateSpec template(String yaml) {
    try {
      return ModelJson.fromJson(new YAMLMapper().readTree(yaml).toString(), PodTemplateSpec.class);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
