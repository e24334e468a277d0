package io.rollgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rollgate.api.Rollout;
import io.rollgate.plugin.PluginConfigSchemas;
import io.rollgate.plugin.PluginKind;
import io.rollgate.plugin.PluginRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginConfigValidatorTest {

  private static final String SHA = "a".repeat(64);

  private final PluginConfigSchemas schemas = new PluginConfigSchemas();

  private List<String> errors(Map<String, String> data) {
    return PluginConfigValidator.validate(data, schemas).stream()
        .map(FieldError::toString)
        .toList();
  }

  @Test
  void acceptsArgoStyleRegistry() {
    Map<String, String> data =
        Map.of(
            "stepPlugins",
            "- name: argoproj-labs/sample-step\n  location: file://./plugin\n  disabled: true\n",
            "trafficRouterPlugins",
            "- name: \"argoproj-labs/gatewayAPI\"\n  location: \"https://example.com/gw\"\n  sha256: "
                + SHA
                + "\n  args: [\"--log=debug\"]\n",
            "metricProviderPlugins",
            "- name: acme/metrics\n  location: http://example.com/m\n",
            "other",
            "anything: [");
    assertEquals(List.of(), errors(data));
    PluginRegistry r = PluginRegistry.fromConfigMapData(data);
    assertTrue(r.find(PluginKind.STEP, "argoproj-labs/sample-step").orElseThrow().disabled());
    assertEquals(
        List.of("--log=debug"),
        r.find(PluginKind.TRAFFIC_ROUTER, "argoproj-labs/gatewayAPI").orElseThrow().args());
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
                + " name a path, or be java:<class>",
            "data.stepPlugins[0].sha256: Invalid value: \"abc\": must be 64 hexadecimal digits (a SHA-256 checksum)",
            "data.stepPlugins[2].name: Invalid value: \"a/b\": Duplicate value: also the name of stepPlugins[1]",
            "data.stepPlugins[2].location: Required value: one of location (file://, http://, https:// or java:<class>)"
                + " and endpoint (http:// or https://) is required",
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
    assertTrue(
        e.get(0)
            .startsWith("data.stepPlugins: Invalid value: \"- name: [unclosed\": not valid YAML"),
        e.get(0));
  }

  @Test
  void rolloutPluginReferencesMustBeRegistered_orWarnWhenTheRegistryIsUnreadable()
      throws Exception {
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
            Map.of(
                "stepPlugins",
                "- {name: acme/step, location: 'file://s'}",
                "trafficRouterPlugins",
                "- {name: acme/router, location: 'file://r'}"));
    PluginReferenceValidator.Result r =
        PluginReferenceValidator.validate(rollout, registry, "ns/argo-rollouts-config", schemas);
    assertEquals(
        List.of(
            "spec.strategy.canary.steps[1].plugin.name: Invalid value: \"acme/unknown\": not a registered stepPlugins"
                + " entry in ns/argo-rollouts-config (registered: acme/step)",
            "spec.strategy.canary.trafficRouting.plugins: Invalid value: \"bad\": plugin name must be in the format of"
                + " <namespace>/<name>"),
        r.errors().stream().map(FieldError::toString).toList());
    assertEquals(List.of(), r.warnings());
    PluginReferenceValidator.Result unknown =
        PluginReferenceValidator.validate(rollout, null, "ns/argo-rollouts-config", schemas);
    assertEquals(1, unknown.errors().size());
    assertEquals(3, unknown.warnings().size());
    assertTrue(
        unknown
            .warnings()
            .get(0)
            .startsWith("spec.strategy.canary.steps[0].plugin.name: plugin \"acme/step\""));
  }

  @Test
  void endpointJavaLocationsAndConfigSchemasAreChecked() {
    List<String> e =
        errors(
            Map.of(
                "stepPlugins",
                """
                - name: acme/both
                  location: file://p
                  endpoint: https://h:8443
                - name: acme/neither
                - name: acme/java
                  location: java:com.example.rollgate.Step$Provider
                  configSchema: {type: object, required: [url], properties: {url: {type: string}}}
                - name: acme/java-bad
                  location: "java:not a class"
                - name: acme/endpoint-bad
                  endpoint: ftp://h/x
                - name: acme/endpoint-query
                  endpoint: https://h:8443/base?x=1
                - name: acme/endpoint-sha
                  endpoint: http://router.tools.svc:8080/v
                  sha256: %s
                - name: acme/schema-bad
                  location: file://p
                  configSchema: {type: strin, properties: {url: 5}}
                - name: acme/schema-ref
                  location: file://p
                  configSchema: {$ref: "https://example.com/remote.json"}
                - name: acme/schema-dialect
                  location: file://p
                  configSchema: {$schema: "https://example.com/mine", type: object}
                - name: acme/schema-list
                  location: file://p
                  configSchema: [1]
                """
                    .formatted(SHA),
                "metricProviderPlugins",
                "- {name: acme/m, location: 'java:com.example.M'}\n"));
    assertEquals(
        List.of(
            "data.stepPlugins[0].endpoint: Forbidden: a plugin has exactly one of location and endpoint, not both",
            "data.stepPlugins[1].location: Required value: one of location (file://, http://, https:// or"
                + " java:<class>) and endpoint (http:// or https://) is required",
            "data.stepPlugins[3].location: Invalid value: \"java:not a class\": must be java:<class>, the fully"
                + " qualified name of the plugin's provider class (for example java:com.example.rollgate.MyPlugin)",
            "data.stepPlugins[4].endpoint: Invalid value: \"ftp://h/x\": must be an http:// or https:// URL with a"
                + " host, without query or fragment (http(s)://host:port[/base])",
            "data.stepPlugins[5].endpoint: Invalid value: \"https://h:8443/base?x=1\": must be an http:// or https://"
                + " URL with a host, without query or fragment (http(s)://host:port[/base])",
            "data.stepPlugins[6].sha256: Forbidden: a checksum applies to an executable (file://, http:// or https://"
                + " location), not to an endpoint",
            "data.stepPlugins[7].configSchema.properties.url: Invalid value: 5: not a valid JSON Schema: integer"
                + " found, [object, boolean] expected",
            "data.stepPlugins[7].configSchema.type: Invalid value: \"strin\": not a valid JSON Schema: does not have a"
                + " value in the enumeration [\"array\", \"boolean\", \"integer\", \"null\", \"number\", \"object\","
                + " \"string\"]",
            "data.stepPlugins[7].configSchema.type: Invalid value: \"strin\": not a valid JSON Schema: string found,"
                + " array expected",
            "data.stepPlugins[8].configSchema: Invalid value: {\"$ref\":\"https://example.com/remote.json\"}: not a"
                + " valid JSON Schema: $ref https://example.com/remote.json cannot be resolved (remote references are"
                + " not fetched; keep the schema self-contained)",
            "data.stepPlugins[9].configSchema.$schema: Invalid value: \"https://example.com/mine\": not a valid JSON"
                + " Schema: unknown JSON Schema dialect (known: draft-04, draft-06, draft-07, 2019-09, 2020-12)",
            "data.stepPlugins[10].configSchema: Invalid value: [1]: not a valid JSON Schema: must be a JSON Schema"
                + " object",
            "data.metricProviderPlugins[0].location: Invalid value: \"java:com.example.M\": java: locations are for"
                + " step and traffic-router plugins only"),
        e);
    PluginRegistry r =
        PluginRegistry.fromConfigMapData(
            Map.of("stepPlugins", "- {name: acme/e, endpoint: 'https://h:8443/base'}\n"));
    assertEquals("https://h:8443/base", r.find(PluginKind.STEP, "acme/e").orElseThrow().endpoint());
  }

  @Test
  void rolloutPluginConfigsMustMatchTheRegisteredSchema_withTheFullFieldPath() throws Exception {
    Rollout rollout =
        new YAMLMapper()
            .readValue(
                """
                spec:
                  strategy:
                    canary:
                      trafficRouting:
                        plugins:
                          acme/router: {backend: web, weights: [10, "x"]}
                      steps:
                        - setWeight: 10
                        - plugin: {name: acme/step, config: {url: "https://ci/job"}}
                        - plugin: {name: acme/step, config: {parameters: {branch: 5}, extra: true}}
                        - plugin: {name: acme/step}
                        - plugin: {name: acme/plain, config: {anything: 1}}
                """,
                Rollout.class);
    PluginRegistry registry =
        PluginRegistry.fromConfigMapData(
            Map.of(
                "stepPlugins",
                """
                - name: acme/step
                  location: file://s
                  configSchema:
                    type: object
                    required: [url]
                    additionalProperties: false
                    properties:
                      url: {type: string, pattern: "^https?://"}
                      parameters: {type: object, additionalProperties: {type: string}}
                - {name: acme/plain, location: 'file://p'}
                """,
                "trafficRouterPlugins",
                """
                - name: acme/router
                  location: file://r
                  configSchema:
                    type: object
                    required: [backend, socket]
                    properties:
                      weights: {type: array, items: {type: integer}}
                """));
    PluginReferenceValidator.Result r =
        PluginReferenceValidator.validate(rollout, registry, "ns/argo-rollouts-config", schemas);
    assertEquals(
        List.of(
            "spec.strategy.canary.steps[2].plugin.config.extra: Invalid value: true: property 'extra' is not defined"
                + " in the schema and the schema does not allow additional properties",
            "spec.strategy.canary.steps[2].plugin.config.parameters.branch: Invalid value: 5: integer found, string"
                + " expected",
            "spec.strategy.canary.steps[2].plugin.config.url: Required value: required property 'url' not found",
            "spec.strategy.canary.steps[3].plugin.config.url: Required value: required property 'url' not found",
            "spec.strategy.canary.trafficRouting.plugins[acme/router].socket: Required value: required property"
                + " 'socket' not found",
            "spec.strategy.canary.trafficRouting.plugins[acme/router].weights[1]: Invalid value: \"x\": string"
                + " found, integer expected"),
        r.errors().stream().map(FieldError::toString).toList());
    assertEquals(List.of(), r.warnings());
    // Unreadable registry: nothing is denied, the references are warned about.
    PluginReferenceValidator.Result unknown =
        PluginReferenceValidator.validate(rollout, null, "ns/argo-rollouts-config", schemas);
    assertEquals(List.of(), unknown.errors());
    assertEquals(5, unknown.warnings().size());
  }
}
