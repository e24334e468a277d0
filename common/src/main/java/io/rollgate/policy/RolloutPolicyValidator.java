package io.rollgate.policy;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.rollgate.api.policy.PolicyRules;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.api.policy.RolloutPolicySpec;
import io.rollgate.defaults.GoDurations;
import io.rollgate.plugin.PluginRegistry;
import io.rollgate.validation.FieldError;
import io.rollgate.validation.PodTemplateValidator;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a {@code rollgate.io/v1alpha1} RolloutPolicy on apply: a known {@code enforcementAction},
 * well-formed label selectors, rule values in range, plugin and traffic-router names that can
 * exist, no name both allowed and forbidden, and required label/annotation keys that are valid
 * qualified names.
 */
public final class RolloutPolicyValidator {

  private RolloutPolicyValidator() {}

  /**
   * Validates a policy.
   *
   * @param policy the policy
   * @return every problem found; empty when valid
   */
  public static List<FieldError> validate(RolloutPolicy policy) {
    List<FieldError> errors = new java.util.ArrayList<>();
    RolloutPolicySpec spec = policy.getSpec();
    if (spec == null) {
      errors.add(FieldError.required("spec", "RolloutPolicy has missing field '.spec'"));
      return errors;
    }
    String action = spec.getEnforcementAction();
    if (action != null
        && !Set.of(RolloutPolicySpec.DENY, RolloutPolicySpec.WARN, RolloutPolicySpec.AUDIT)
            .contains(action)) {
      errors.add(
          FieldError.invalid(
              "spec.enforcementAction",
              action,
              "Unsupported value: supported values: \"deny\", \"warn\", \"audit\""));
    }
    selector("spec.namespaceSelector", spec.getNamespaceSelector(), errors);
    selector("spec.rolloutSelector", spec.getRolloutSelector(), errors);
    PolicyRules r = spec.getRules();
    if (r == null) {
      errors.add(FieldError.required("spec.rules", "a policy needs at least one rule"));
      return errors;
    }
    String p = "spec.rules";
    if (r.getMaxWeightIncrease() != null
        && (r.getMaxWeightIncrease() < 1 || r.getMaxWeightIncrease() > 100)) {
      errors.add(
          FieldError.invalid(
              p + ".maxWeightIncrease", r.getMaxWeightIncrease(), "must be between 1 and 100"));
    }
    if (r.getMaxReplicas() != null && r.getMaxReplicas() < 0) {
      errors.add(
          FieldError.invalid(
              p + ".maxReplicas", r.getMaxReplicas(), "must be greater than or equal to 0"));
    }
    if (r.getMinPauseBeforePromotion() != null) {
      Optional<Duration> d = GoDurations.parse(r.getMinPauseBeforePromotion());
      if (d.isEmpty() || d.get().isNegative()) {
        errors.add(
            FieldError.invalid(
                p + ".minPauseBeforePromotion",
                r.getMinPauseBeforePromotion(),
                "must be a non-negative duration such as 30s, 5m or 1h"));
      }
    }
    names(p + ".allowedStepPlugins", r.getAllowedStepPlugins(), false, errors);
    names(p + ".forbiddenStepPlugins", r.getForbiddenStepPlugins(), false, errors);
    names(p + ".allowedTrafficRouters", r.getAllowedTrafficRouters(), true, errors);
    names(p + ".forbiddenTrafficRouters", r.getForbiddenTrafficRouters(), true, errors);
    overlap(
        p + ".forbiddenStepPlugins",
        r.getAllowedStepPlugins(),
        r.getForbiddenStepPlugins(),
        errors);
    overlap(
        p + ".forbiddenTrafficRouters",
        r.getAllowedTrafficRouters(),
        r.getForbiddenTrafficRouters(),
        errors);
    keys(p + ".requiredLabels", r.getRequiredLabels(), errors);
    keys(p + ".requiredAnnotations", r.getRequiredAnnotations(), errors);
    return errors;
  }

  private static void selector(String path, LabelSelector s, List<FieldError> errors) {
    if (s == null) {
      return;
    }
    PodTemplateValidator.validateLabels(path + ".matchLabels", s.getMatchLabels(), errors);
    if (s.getMatchExpressions() == null) {
      return;
    }
    for (int i = 0; i < s.getMatchExpressions().size(); i++) {
      LabelSelectorRequirement req = s.getMatchExpressions().get(i);
      String p = path + ".matchExpressions[" + i + "]";
      String op = req.getOperator();
      int n = req.getValues() == null ? 0 : req.getValues().size();
      if (!Set.of("In", "NotIn", "Exists", "DoesNotExist").contains(String.valueOf(op))) {
        errors.add(
            FieldError.invalid(
                p + ".operator",
                op,
                "Unsupported value: supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\""));
      } else if ((op.equals("In") || op.equals("NotIn")) && n == 0) {
        errors.add(
            FieldError.required(
                p + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
      } else if ((op.equals("Exists") || op.equals("DoesNotExist")) && n > 0) {
        errors.add(
            FieldError.forbidden(
                p + ".values",
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      }
      PodTemplateValidator.qualifiedName(p + ".key", req.getKey()).ifPresent(errors::add);
    }
  }

  private static void names(
      String path, List<String> names, boolean routers, List<FieldError> errors) {
    if (names == null) {
      return;
    }
    for (int i = 0; i < names.size(); i++) {
      String n = names.get(i);
      boolean ok =
          n != null
              && (PluginRegistry.NAME.matcher(n).matches()
                  || (routers && PolicyEvaluator.BUILT_IN_ROUTERS.contains(n)));
      if (!ok) {
        errors.add(
            FieldError.invalid(
                path + "[" + i + "]",
                n,
                routers
                    ? "must be a built-in traffic router (nginx, istio, alb, smi, ambassador, appMesh, traefik, apisix)"
                        + " or a plugin name <org>/<name>"
                    : "must be a plugin name <org>/<name>"));
      }
    }
  }

  private static void overlap(
      String path, List<String> allowed, List<String> forbidden, List<FieldError> errors) {
    if (allowed == null || forbidden == null) {
      return;
    }
    Set<String> a = new HashSet<>(allowed);
    for (int i = 0; i < forbidden.size(); i++) {
      if (a.contains(forbidden.get(i))) {
        errors.add(
            FieldError.invalid(
                path + "[" + i + "]", forbidden.get(i), "is also in the allowed list"));
      }
    }
  }

  private static void keys(String path, List<String> keys, List<FieldError> errors) {
    if (keys == null) {
      return;
    }
    for (int i = 0; i < keys.size(); i++) {
      PodTemplateValidator.qualifiedName(path + "[" + i + "]", keys.get(i)).ifPresent(errors::add);
    }
  }
}
