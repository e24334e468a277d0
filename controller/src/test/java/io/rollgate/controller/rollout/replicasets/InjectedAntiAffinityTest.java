package io.rollgate.controller.rollout.replicasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.rollgate.api.AntiAffinity;
import io.rollgate.api.ModelJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class InjectedAntiAffinityTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  @Test
  void injectedTermIsIgnoredByTemplateComparisonButUserTermsAreNot() {
    PodTemplateSpec rollout =
        template(
            """
            metadata: {labels: {app: web}}
            spec:
              affinity:
                podAntiAffinity:
                  preferredDuringSchedulingIgnoredDuringExecution:
                    - weight: 10
                      podAffinityTerm: {labelSelector: {matchLabels: {app: web}}, topologyKey: zone}
              containers: [{name: app, image: 'nginx:1.25'}]
            """);
    PodTemplateSpec injected = ModelJson.deepCopy(rollout);
    AntiAffinity preferred =
        ModelJson.fromJson(
            "{\"preferredDuringSchedulingIgnoredDuringExecution\":{\"weight\":50}}",
            AntiAffinity.class);
    assertTrue(InjectedAntiAffinity.inject(injected, preferred, "abc", "def", "shop"));
    var terms =
        injected
            .getSpec()
            .getAffinity()
            .getPodAntiAffinity()
            .getPreferredDuringSchedulingIgnoredDuringExecution();
    assertEquals(2, terms.size());
    assertEquals(50, terms.get(1).getWeight());
    assertEquals("kubernetes.io/hostname", terms.get(1).getPodAffinityTerm().getTopologyKey());
    assertTrue(PodTemplates.semanticallyEqual(rollout, injected));

    PodTemplateSpec none = template("spec: {containers: [{name: app, image: 'nginx:1.25'}]}");
    PodTemplateSpec required = ModelJson.deepCopy(none);
    AntiAffinity hard =
        ModelJson.fromJson(
            "{\"requiredDuringSchedulingIgnoredDuringExecution\":{}}", AntiAffinity.class);
    assertTrue(InjectedAntiAffinity.inject(required, hard, "abc", "def", "shop"));
    assertEquals(
        1,
        required
            .getSpec()
            .getAffinity()
            .getPodAntiAffinity()
            .getRequiredDuringSchedulingIgnoredDuringExecution()
            .size());
    assertTrue(PodTemplates.semanticallyEqual(none, required));
    assertFalse(PodTemplates.semanticallyEqual(none, rollout), "a user term still counts");
  }

  @Test
  void injectsNothingOnTheFirstRevisionOrAgainstItself() {
    PodTemplateSpec none = template("spec: {containers: [{name: app, image: 'nginx:1.25'}]}");
    AntiAffinity preferred =
        ModelJson.fromJson(
            "{\"preferredDuringSchedulingIgnoredDuringExecution\":{\"weight\":50}}",
            AntiAffinity.class);
    assertFalse(
        InjectedAntiAffinity.inject(ModelJson.deepCopy(none), preferred, null, "def", "shop"));
    assertFalse(
        InjectedAntiAffinity.inject(ModelJson.deepCopy(none), preferred, "def", "def", "shop"));
    assertFalse(InjectedAntiAffinity.inject(ModelJson.deepCopy(none), null, "abc", "def", "shop"));
  }

  private static PodTemplateSpec template(String yaml) {
    try {
      return ModelJson.fromJson(YAML.readTree(yaml).toString(), PodTemplateSpec.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
