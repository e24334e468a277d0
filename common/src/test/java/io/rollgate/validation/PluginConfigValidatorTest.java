package io.rollgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rollgate.api.Rollout;
import io.rollgate.plugin.PluginKind;
import io.rollgate.plugin.PluginRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginConfigValidatorTest {

  private static final String SHA = "a".repeat(64);

  private static List<String> errors(Map<String, String> data) {
    return PluginConfigValidator.validate(data).stream().map(FieldError::toString).toList();
  }

  @Test
  void acceptsArgoStyleRegistry() {
    Map<String, String> data =
        Map.of(
            "stepPlugins",
            "- name: argoproj-labs/sample-step\n  location: file://./plugin\n  disabled: true\n",
            "trafficRouterPlugins",
            "- name: \"argoproj-labs/gatewayAPI\"\n  location: \"https://example.com/gw\"\n  sha256: " + SHA
                + "\n  args: [\"--log=debug\"]\n",
            "metricProviderPlugins",
            "- name: acme/metrics\n  location: http://example.com/m\n",
            "other", "anything: [");
    assertEquals(List.of(), errors(data));
    PluginRegistry r = PluginRegistry.fromConfigMapData(data);
    assertTrue(r.find(PluginKind.STEP, "argoproj-labs/sample-step").orElseThrow().disabled());
    assertEquals(List.of("--log=debug"), r.find(PluginKind.TRAFFIC_ROUTER, "argoproj-labs/gatewayAPI").orElseThrow().args());
  }

  @Test
  void reportsEveryProblemWithItsPath() {
    List<String> e =
        errors(
            Map.of(
                "stepPlugins",
                """
                - name: noslash
                  location: ftp://x
                  sha256: abc
                - name: a/b
                  location: file://p
                - name: a/b
                  args: [1]
                  disabled: "yes"
                """,
                "trafficRouterPlugins",
                "- {name: x/y, location: 'https://h/p', disabled: true}\n",
                "metricProviderPlugins",
                "name: not-a-list\n"));
    assertEquals(
        List.of(
            "data.stepPlugins[0].name: Invalid value: \"noslash\": plugin repository (noslash) must be in the format of"
                + " <namespace>/<name>",
            "data.stepPlugins[0].location: Invalid value: \"ftp://x\": must start with file://, http:// or https:// and"
                + " name a path",
            "data.stepPlugins[0].sha256: Invalid value: \"abc\": must be 64 hexadecimal digits (a SHA-256 checksum)",
            "data.stepPlugins[2].name: Invalid value: \"a/b\": Duplicate value: also the name of stepPlugins[1]",
            "data.stepPlugins[2].location: Required value: plugin location is required (file://, http:// or https://)",
            "data.stepPlugins[2].args[0]: Invalid value: 1: must be a string",
            "data.stepPlugins[2].disabled: Invalid value: \"yes\": must be true or false",
            "data.trafficRouterPlugins[0].disabled: Forbidden: only step plugins can be disabled",
            "data.metricProviderPlugins: Invalid value: \"name: not-a-list\": must be a YAML list of plugins"),
        e);
  }

  @Test
  void reportsUnreadableYaml() {
    List<String> e = errors(Map.of("stepPlugins", "- name: [unclosed"));
    assertEquals(1, e.size());
    assertTrue(e.get(0).startsWith("data.stepPlugins: Invalid value: \"- name: [unclosed\": not valid YAML"), e.get(0));
  }

  @Test
  void rolloutPluginReferencesMustBeRegistered_orWarnWhenTheRegistryIsUnreadable() throws Exception {
    Rollout rollout =
        new YAMLMapper()
            .readValue(
                """
                spec:
                  strategy:
                    canary:
                      trafficRouting:
                        plugins: {acme/router: {}, bad: {}}
                      steps:
                        - plugin: {name: acme/step}
                        - plugin: {name: acme/unknown}
                """,
                Rollout.class);
    PluginRegistry registry =
        PluginRegistry.fromConfigMapData(
            Map.of("stepPlugins", "- {name: acme/step, location: 'file://s'}",
                "trafficRouterPlugins", "- {name: acme/router, location: 'file://r'}"));
    PluginReferenceValidator.Result r = PluginReferenceValidator.validate(rollout, registry, "ns/argo-rollouts-config");
    assertEquals(
        List.of(
            "spec.strategy.canary.steps[1].plugin.name: Invalid value: \"acme/unknown\": not a registered stepPlugins"
                + " entry in ns/argo-rollouts-config (registered: acme/step)",
            "spec.strategy.canary.trafficRouting.plugins: Invalid value: \"bad\": plugin name must be in the format of"
                + " <namespace>/<name>"),
        r.errors().stream().map(FieldError::toString).toList());
    assertEquals(List.of(), r.warnings());
    PluginReferenceValidator.Result unknown = PluginReferenceValidator.validate(rollout, null, "ns/argo-rollouts-config");
    assertEquals(1, unknown.errors().size());
    assertEquals(3, unknown.warnings().size());
    assertTrue(unknown.warnings().get(0).startsWith("spec.strategy.canary.steps[0].plugin.name: plugin \"acme/step\""));
  }
}
