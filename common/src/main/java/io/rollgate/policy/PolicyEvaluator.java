package io.rollgate.policy;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.BlueGreenStrategy;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutSpec;
import io.rollgate.api.RolloutTrafficRouting;
import io.rollgate.api.policy.PolicyRules;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.defaults.GoDurations;
import io.rollgate.defaults.RolloutDefaults;
import io.rollgate.validation.FieldError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Judges a Rollout against a {@link RolloutPolicy}: which policies apply to it, and which rules it
 * breaks. Each violation names the Rollout field and the policy ({@code spec.replicas: Invalid
 * value: 12: exceeds maxReplicas 10 of RolloutPolicy "prod"}).
 */
public final class PolicyEvaluator {

  /**
   * Built-in traffic routers, by their field name under {@code
   * spec.strategy.canary.trafficRouting}.
   */
  public static final Set<String> BUILT_IN_ROUTERS =
      Set.of("nginx", "istio", "alb", "smi", "ambassador", "appMesh", "traefik", "apisix");

  private PolicyEvaluator() {}

  /**
   * Whether a policy applies to a Rollout.
   *
   * @param policy the policy
   * @param namespaceLabels the labels of the Rollout's namespace
   * @param rolloutLabels the Rollout's labels
   * @return true when both the namespace selector and the Rollout selector match
   */
  public static boolean selects(
      RolloutPolicy policy,
      Map<String, String> namespaceLabels,
      Map<String, String> rolloutLabels) {
    if (policy.getSpec() == null) {
      return false;
    }
    return LabelSelectors.matches(policy.getSpec().getNamespaceSelector(), namespaceLabels)
        && LabelSelectors.matches(policy.getSpec().getRolloutSelector(), rolloutLabels);
  }

  /**
   * The rules of a policy the Rollout breaks.
   *
   * @param policy the policy (its selection is not checked here)
   * @param rollout the Rollout
   * @return one error per broken rule, with the Rollout field path; empty when it complies
   */
  public static List<FieldError> violations(RolloutPolicy policy, Rollout rollout) {
    List<FieldError> out = new ArrayList<>();
    PolicyRules rules = policy.getSpec() == null ? null : policy.getSpec().getRules();
    RolloutSpec spec = rollout.getSpec();
    if (rules == null || spec == null) {
      return out;
    }
    String of = " (RolloutPolicy \"" + policy.getMetadata().getName() + "\")";
    CanaryStrategy canary = spec.getStrategy() == null ? null : spec.getStrategy().getCanary();
    BlueGreenStrategy blueGreen =
        spec.getStrategy() == null ? null : spec.getStrategy().getBlueGreen();
    int replicas = RolloutDefaults.replicas(spec.getReplicas());
    if (rules.getMaxReplicas() != null && replicas > rules.getMaxReplicas()) {
      out.add(
          FieldError.invalid(
              "spec.replicas", replicas, "exceeds maxReplicas " + rules.getMaxReplicas() + of));
    }
    if (Boolean.TRUE.equals(rules.getRequireProgressDeadlineAbort())
        && !Boolean.TRUE.equals(spec.getProgressDeadlineAbort())) {
      out.add(FieldError.required("spec.progressDeadlineAbort", "must be true" + of));
    }
    requiredKeys(
        "metadata.labels",
        rules.getRequiredLabels(),
        rollout.getMetadata().getLabels(),
        "label",
        of,
        out);
    requiredKeys(
        "metadata.annotations",
        rules.getRequiredAnnotations(),
        rollout.getMetadata().getAnnotations(),
        "annotation",
        of,
        out);
    if (canary != null) {
      canaryRules(rules, canary, of, out);
    } else if (blueGreen != null && rules.getMinPauseBeforePromotion() != null) {
      Optional<Duration> min = GoDurations.parse(rules.getMinPauseBeforePromotion());
      boolean manual = Boolean.FALSE.equals(blueGreen.getAutoPromotionEnabled());
      Integer seconds = blueGreen.getAutoPromotionSeconds();
      if (min.isPresent() && !manual && (seconds == null || seconds < min.get().toSeconds())) {
        out.add(
            FieldError.invalid(
                "spec.strategy.blueGreen.autoPromotionSeconds",
                seconds == null ? 0 : seconds,
                "promotes before the minimum pause of "
                    + rules.getMinPauseBeforePromotion()
                    + "; set autoPromotionSeconds or autoPromotionEnabled: false"
                    + of));
      }
    }
    return out;
  }

  private static void canaryRules(
      PolicyRules rules, CanaryStrategy canary, String of, List<FieldError> out) {
    String p = "spec.strategy.canary";
    List<CanaryStep> steps = canary.getSteps() == null ? List.of() : canary.getSteps();
    if (Boolean.TRUE.equals(rules.getRequireAnalysis())) {
      boolean background = canary.getAnalysis() != null;
      boolean step = steps.stream().anyMatch(s -> s != null && s.getAnalysis() != null);
      if (!background && !step) {
        out.add(
            FieldError.required(
                p + ".analysis",
                "an analysis is required: background (canary.analysis) or an analysis step" + of));
      }
    }
    if (rules.getMaxWeightIncrease() != null) {
      int max = rules.getMaxWeightIncrease();
      int previous = 0;
      for (int i = 0; i < steps.size(); i++) {
        Integer w = steps.get(i) == null ? null : steps.get(i).getSetWeight();
        if (w == null) {
          continue;
        }
        if (w - previous > max) {
          out.add(
              FieldError.invalid(
                  p + ".steps[" + i + "].setWeight",
                  w,
                  "raises the weight by "
                      + (w - previous)
                      + " (from "
                      + previous
                      + "); at most "
                      + max
                      + " is allowed"
                      + of));
        }
        previous = w;
      }
      if (100 - previous > max) {
        out.add(
            FieldError.invalid(
                p + ".steps",
                steps.size() + " steps",
                "full promotion after the last step raises the weight by "
                    + (100 - previous)
                    + " (from "
                    + previous
                    + " to 100); at most "
                    + max
                    + " is allowed"
                    + of));
      }
    }
    if (rules.getMinPauseBeforePromotion() != null) {
      Optional<Duration> min = GoDurations.parse(rules.getMinPauseBeforePromotion());
      if (min.isPresent() && !pausedLongEnough(steps, min.get())) {
        out.add(
            FieldError.invalid(
                p + ".steps",
                steps.size() + " steps",
                "pauses less than "
                    + rules.getMinPauseBeforePromotion()
                    + " after the last setWeight before full promotion"
                    + of));
      }
    }
    List<String> stepPlugins = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      CanaryStep s = steps.get(i);
      if (s != null && s.getPlugin() != null && s.getPlugin().getName() != null) {
        String name = s.getPlugin().getName();
        stepPlugins.add(name);
        if (!allowed(name, rules.getAllowedStepPlugins(), rules.getForbiddenStepPlugins())) {
          out.add(
              FieldError.forbidden(
                  p + ".steps[" + i + "].plugin.name",
                  "step plugin \"" + name + "\" is not allowed" + of));
        }
      }
    }
    for (String router : routers(canary.getTrafficRouting())) {
      if (!allowed(router, rules.getAllowedTrafficRouters(), rules.getForbiddenTrafficRouters())) {
        String path =
            BUILT_IN_ROUTERS.contains(router)
                ? p + ".trafficRouting." + router
                : p + ".trafficRouting.plugins";
        out.add(
            FieldError.forbidden(path, "traffic router \"" + router + "\" is not allowed" + of));
      }
    }
  }

  /**
   * Pauses after the last setWeight add up to at least {@code min}; an indefinite pause always
   * does.
   */
  private static boolean pausedLongEnough(List<CanaryStep> steps, Duration min) {
    int last = -1;
    for (int i = 0; i < steps.size(); i++) {
      if (steps.get(i) != null && steps.get(i).getSetWeight() != null) {
        last = i;
      }
    }
    Duration total = Duration.ZERO;
    for (int i = last + 1; i < steps.size(); i++) {
      CanaryStep s = steps.get(i);
      if (s == null || s.getPause() == null) {
        continue;
      }
      Optional<Duration> d = GoDurations.pauseDuration(s.getPause().getDuration());
      if (d.isEmpty()) {
        return true;
      }
      total = total.plus(d.get());
    }
    return total.compareTo(min) >= 0;
  }

  /**
   * The traffic routers a canary uses: built-in ones by field name, plugins by their {@code
   * <org>/<name>}.
   *
   * @param tr the traffic routing, or null
   * @return the router names, in field order
   */
  public static Set<String> routers(RolloutTrafficRouting tr) {
    Set<String> out = new LinkedHashSet<>();
    if (tr == null) {
      return out;
    }
    Map<String, Object> builtIn = new java.util.LinkedHashMap<>();
    builtIn.put("nginx", tr.getNginx());
    builtIn.put("istio", tr.getIstio());
    builtIn.put("alb", tr.getAlb());
    builtIn.put("smi", tr.getSmi());
    builtIn.put("ambassador", tr.getAmbassador());
    builtIn.put("appMesh", tr.getAppMesh());
    builtIn.put("traefik", tr.getTraefik());
    builtIn.put("apisix", tr.getApisix());
    builtIn.forEach(
        (k, v) -> {
          if (v != null) {
            out.add(k);
          }
        });
    if (tr.getPlugins() != null) {
      for (Map.Entry<String, JsonNode> e : tr.getPlugins().entrySet()) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  private static boolean allowed(String name, List<String> allowed, List<String> forbidden) {
    if (forbidden != null && forbidden.contains(name)) {
      return false;
    }
    return allowed == null || allowed.contains(name);
  }

  private static void requiredKeys(
      String path,
      List<String> keys,
      Map<String, String> present,
      String what,
      String of,
      List<FieldError> out) {
    if (keys == null) {
      return;
    }
    for (String k : keys) {
      if (present == null || !present.containsKey(k)) {
        out.add(FieldError.required(path, what + " \"" + k + "\" is required" + of));
      }
    }
  }
}
