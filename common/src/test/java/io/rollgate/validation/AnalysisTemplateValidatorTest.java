package io.rollgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rollgate.api.AnalysisTemplate;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnalysisTemplateValidatorTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  private static List<String> errors(String spec) throws Exception {
    AnalysisTemplate t =
        YAML.readValue("metadata: {name: t}\nspec:\n" + spec, AnalysisTemplate.class);
    return AnalysisTemplateValidator.validate(t.getSpec()).stream()
        .map(FieldError::toString)
        .toList();
  }

  @Test
  void acceptsATypicalTemplate() throws Exception {
    assertEquals(
        List.of(),
        errors(
            """
              args: [{name: service-name}, {name: threshold, value: "0.95"}]
              metrics:
                - name: success-rate
                  interval: 1m
                  count: 5
                  failureLimit: 1
                  successCondition: "result[0] >= {{args.threshold}}"
                  provider:
                    prometheus:
                      address: http://prometheus:9090
                      query: sum(rate(http_requests_total{service="{{args.service-name}}",code!~"5.."}[1m]))
                - name: smoke
                  provider: {job: {spec: {template: {spec: {containers: [{name: t, image: curl}], restartPolicy: Never}}}}}
                - name: plugin
                  provider: {plugin: {acme/metrics: {x: 1}}}
            """));
  }

  @Test
  void reportsEveryRuleWithItsPath() throws Exception {
    List<String> e =
        errors(
            """
              args: [{name: a}, {name: a}]
              metrics:
                - name: m
                  count: 3
                  failureLimit: -2
                  successCondition: "result[0] >"
                  failureCondition: "{{args.undeclared}} == 1"
                  provider: {prometheus: {query: q}, web: {url: "http://x"}}
                - name: m
                  interval: soon
                  count: 2
                  failureLimit: 3
                  provider: {}
            """);
    assertEquals("spec.args[1].name: Invalid value: \"a\": Duplicate value", e.get(0));
    assertTrue(
        e.contains(
            "spec.metrics[0].provider: Invalid value: \"prometheus, web\": exactly one provider may be set"),
        String.valueOf(e));
    assertTrue(
        e.stream()
            .anyMatch(
                s ->
                    s.startsWith(
                            "spec.metrics[0].successCondition: Invalid value: \"result[0] >\": does not parse:")
                        && s.endsWith(")")),
        String.valueOf(e));
    assertTrue(
        e.contains(
            "spec.metrics[0].failureLimit: Invalid value: -2: must be >= 0, or -1 to be disabled"),
        String.valueOf(e));
    assertTrue(
        e.contains(
            "spec.metrics[0].interval: Required value: interval must be specified when count > 1"),
        String.valueOf(e));
    assertTrue(
        e.contains(
            "spec.metrics[0].failureCondition: Invalid value: \"{{args.undeclared}}\": argument \"undeclared\" is not declared in spec.args"),
        String.valueOf(e));
    assertTrue(
        e.contains(
            "spec.metrics[1].name: Invalid value: \"m\": Duplicate value: also the name of spec.metrics[0]"),
        String.valueOf(e));
    assertTrue(
        e.stream().anyMatch(s -> s.startsWith("spec.metrics[1].provider: Required value")),
        String.valueOf(e));
    assertTrue(
        e.contains(
            "spec.metrics[1].interval: Invalid value: \"soon\": must be a duration such as 30s, 5m or 1h"),
        String.valueOf(e));
    assertTrue(
        e.contains(
            "spec.metrics[1].count: Invalid value: 2: must be >= failureLimit + consecutiveSuccessLimit (3 + 0)"),
        String.valueOf(e));
  }

  @Test
  void placeholdersKeepConditionPositions() {
    assertEquals(
        "result > 0" + " ".repeat(17),
        AnalysisTemplateValidator.neutralize("result > {{args.threshold}}"));
  }
}
