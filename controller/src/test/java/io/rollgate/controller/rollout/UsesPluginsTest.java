package io.rollgate.controller.rollout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rollgate.api.Rollout;
import org.junit.jupiter.api.Test;

/** Which Rollouts a plugin registry change requeues. */
class UsesPluginsTest {

  private static Rollout rollout(String strategy) throws Exception {
    return new YAMLMapper()
        .readValue(
            "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: web, namespace: shop}\nspec:\n"
                + "  selector: {matchLabels: {app: web}}\n  strategy:\n"
                + strategy,
            Rollout.class);
  }

  @Test
  void aStepPluginOrARouterPluginCounts() throws Exception {
    assertTrue(
        RolloutController.usesPlugins(
            rollout(
                "    canary:\n      steps:\n      - setWeight: 20\n      - plugin: {name: acme/ci-job, config: {job: x}}\n")));
    assertTrue(
        RolloutController.usesPlugins(
            rollout(
                "    canary:\n      trafficRouting:\n        plugins:\n          acme/haproxy: {backend: web}\n")));
  }

  @Test
  void builtInStepsRoutersAndBlueGreenDoNot() throws Exception {
    assertFalse(
        RolloutController.usesPlugins(
            rollout(
                "    canary:\n      steps:\n      - setWeight: 20\n      - pause: {}\n"
                    + "      trafficRouting:\n        nginx: {stableIngress: web}\n")));
    assertFalse(RolloutController.usesPlugins(rollout("    canary: {}\n")));
    assertFalse(
        RolloutController.usesPlugins(rollout("    blueGreen: {activeService: web-active}\n")));
  }
}
