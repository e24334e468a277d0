package io.rollgate.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rollgate.api.Rollout;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.validation.FieldError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyEvaluatorTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  private static RolloutPolicy policy(String rules) throws Exception {
    return YAML.readValue(
        "metadata: {name: prod}\nspec:\n  namespaceSelector: {matchLabels: {env: prod}}\n  rules: "
            + rules,
        RolloutPolicy.class);
  }

  private static Rollout rollout(String spec) throws Exception {
    return YAML.readValue(
        "metadata: {name: web, namespace: shop, labels: {team: a}}\nspec:"
            + (spec.startsWith("{") ? " " : "\n")
            + spec,
        Rollout.class);
  }

  private static List<String> violations(String rules, String spec) throws Exception {
    return PolicyEvaluator.violations(policy(rules), rollout(spec)).stream()
        .map(FieldError::toString)
        .toList();
  }

  @Test
  void selectsByNamespaceAndRolloutLabels() throws Exception {
    RolloutPolicy p =
        YAML.readValue(
            "metadata: {name: p}\nspec: {namespaceSelector: {matchLabels: {env: prod}},"
                + " rolloutSelector: {matchExpressions: [{key: tier, operator: NotIn, values: [batch]}]}, rules: {}}",
            RolloutPolicy.class);
    assertTrue(PolicyEvaluator.selects(p, Map.of("env", "prod"), Map.of()));
    assertFalse(PolicyEvaluator.selects(p, Map.of("env", "dev"), Map.of()));
    assertFalse(PolicyEvaluator.selects(p, Map.of("env", "prod"), Map.of("tier", "batch")));
  }

  @Test
  void reportsEachBrokenRuleWithTheRolloutField() throws Exception {
    String spec =
        """
          replicas: 12
          strategy:
            canary:
              trafficRouting: {nginx: {stableIngress: web}, plugins: {acme/router: {}}}
              steps:
                - setWeight: 10
                - plugin: {name: acme/forbidden}
                - setWeight: 60
                - pause: {duration: 10s}
        """;
    String rules =
        "{requireAnalysis: true, maxWeightIncrease: 30, minPauseBeforePromotion: 1m, requireProgressDeadlineAbort: true,"
            + " forbiddenStepPlugins: [acme/forbidden], allowedTrafficRouters: [istio, acme/router], maxReplicas: 10,"
            + " requiredLabels: [team, cost-center], requiredAnnotations: [owner]}";
    String of = " (RolloutPolicy \"prod\")";
    assertEquals(
        List.of(
            "spec.replicas: Invalid value: 12: exceeds maxReplicas 10" + of,
            "spec.progressDeadlineAbort: Required value: must be true" + of,
            "metadata.labels: Required value: label \"cost-center\" is required" + of,
            "metadata.annotations: Required value: annotation \"owner\" is required" + of,
            "spec.strategy.canary.analysis: Required value: an analysis is required: background (canary.analysis) or an"
                + " analysis step"
                + of,
            "spec.strategy.canary.steps[2].setWeight: Invalid value: 60: raises the weight by 50 (from 10); at most 30 is"
                + " allowed"
                + of,
            "spec.strategy.canary.steps: Invalid value: \"4 steps\": full promotion after the last step raises the"
                + " weight by 40 (from 60 to 100); at most 30 is allowed"
                + of,
            "spec.strategy.canary.steps: Invalid value: \"4 steps\": pauses less than 1m after the last setWeight before"
                + " full promotion"
                + of,
            "spec.strategy.canary.steps[1].plugin.name: Forbidden: step plugin \"acme/forbidden\" is not allowed"
                + of,
            "spec.strategy.canary.trafficRouting.nginx: Forbidden: traffic router \"nginx\" is not allowed"
                + of),
        violations(rules, spec));
  }

  @Test
  void compliantRolloutHasNoViolation() throws Exception {
    String spec =
        """
          replicas: 3
          progressDeadlineAbort: true
          strategy:
            canary:
              analysis: {templates: [{templateName: success-rate}]}
              steps: [{setWeight: 25}, {setWeight: 50}, {setWeight: 75}, {pause: {}}]
        """;
    assertEquals(
        List.of(),
        violations(
            "{requireAnalysis: true, maxWeightIncrease: 25, minPauseBeforePromotion: 10m,"
                + " requireProgressDeadlineAbort: true, maxReplicas: 3, requiredLabels: [team]}",
            spec));
  }

  @Test
  void blueGreenMustNotAutoPromoteBeforeTheMinimumPause() throws Exception {
    String rules = "{minPauseBeforePromotion: 5m}";
    assertEquals(
        1,
        violations(rules, "{strategy: {blueGreen: {activeService: a, previewService: b}}}").size());
    assertEquals(
        List.of(),
        violations(
            rules, "{strategy: {blueGreen: {activeService: a, autoPromotionSeconds: 300}}}"));
    assertEquals(
        List.of(),
        violations(
            rules, "{strategy: {blueGreen: {activeService: a, autoPromotionEnabled: false}}}"));
  }

  @Test
  void validatesPoliciesOnApply() throws Exception {
    RolloutPolicy bad =
        YAML.readValue(
            """
            metadata: {name: bad}
            spec:
              enforcementAction: block
              namespaceSelector: {matchExpressions: [{key: env, operator: Equals}]}
              rules:
                maxWeightIncrease: 0
                maxReplicas: -1
                minPauseBeforePromotion: soon
                allowedStepPlugins: [noslash]
                allowedTrafficRouters: [nginx]
                forbiddenTrafficRouters: [nginx, linkerd]
                requiredLabels: ["bad key"]
            """,
            RolloutPolicy.class);
    List<String> e = RolloutPolicyValidator.validate(bad).stream().map(FieldError::path).toList();
    assertEquals(
        List.of(
            "spec.enforcementAction",
            "spec.namespaceSelector.matchExpressions[0].operator",
            "spec.rules.maxWeightIncrease",
            "spec.rules.maxReplicas",
            "spec.rules.minPauseBeforePromotion",
            "spec.rules.allowedStepPlugins[0]",
            "spec.rules.forbiddenTrafficRouters[1]",
            "spec.rules.forbiddenTrafficRouters[0]",
            "spec.rules.requiredLabels[0]"),
        e);
  }
}
