package io.rollgate.validation;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.rollgate.api.AntiAffinity;
import io.rollgate.api.BlueGreenStrategy;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.HeaderRoutingMatch;
import io.rollgate.api.ManagedRoute;
import io.rollgate.api.PodTemplateMetadata;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutSpec;
import io.rollgate.api.RolloutStrategy;
import io.rollgate.api.RolloutTrafficRouting;
import io.rollgate.api.RouteMatch;
import io.rollgate.api.StringMatch;
import io.rollgate.defaults.GoDurations;
import io.rollgate.defaults.RolloutDefaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Static validation of a Rollout spec: the rules Argo Rollouts applies before reconciling
 * (docs/compatibility.md §2.2), with Argo's detail texts. Pure: no cluster lookups (references to
 * Services or templates are checked elsewhere).
 *
 * <p>Paths name the real field ({@code spec.strategy.canary.steps[2].setWeight}); Argo itself drops
 * the {@code canary}/{@code blueGreen} segment. The controller reports the first error in the
 * {@code InvalidSpec} condition; the admission webhook lists them all.
 */
public final class RolloutValidator {

  private RolloutValidator() {}

  /**
   * Validates a Rollout.
   *
   * @param rollout the Rollout
   * @return every problem found, in field order; empty when valid
   */
  public static List<FieldError> validate(Rollout rollout) {
    List<FieldError> errors = new ArrayList<>();
    RolloutSpec spec = rollout.getSpec();
    if (spec == null) {
      errors.add(FieldError.required("spec", "Rollout has missing field '.spec'"));
      return errors;
    }
    int replicas = RolloutDefaults.replicas(spec.getReplicas());
    if (replicas < 0) {
      errors.add(
          FieldError.invalid("spec.replicas", replicas, "must be greater than or equal to 0"));
    }
    validateSelectorAndTemplate(spec, errors);
    nonNegative(errors, "spec.minReadySeconds", spec.getMinReadySeconds());
    nonNegative(errors, "spec.revisionHistoryLimit", spec.getRevisionHistoryLimit());
    int deadline = RolloutDefaults.progressDeadlineSeconds(spec.getProgressDeadlineSeconds());
    if (deadline < 0) {
      errors.add(
          FieldError.invalid(
              "spec.progressDeadlineSeconds", deadline, "must be greater than or equal to 0"));
    } else if (deadline <= RolloutDefaults.minReadySeconds(spec.getMinReadySeconds())) {
      // Compared with the default (600 s) too when the field is absent, as Argo Rollouts does.
      errors.add(
          FieldError.invalid(
              "spec.progressDeadlineSeconds", deadline, "must be greater than minReadySeconds"));
    }
    validateRestartAt(spec.getRestartAt(), errors);
    validateStrategy(spec, replicas, errors);
    return errors;
  }

  /**
   * {@code spec.restartAt} must be an RFC 3339 time (Argo's CRD declares {@code format:
   * date-time}); a value the controller cannot read would otherwise leave the Rollout "restarting"
   * for ever.
   */
  private static void validateRestartAt(String restartAt, List<FieldError> errors) {
    if (restartAt == null || restartAt.isEmpty()) {
      return;
    }
    try {
      java.time.OffsetDateTime.parse(
          restartAt, java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    } catch (java.time.format.DateTimeParseException e) {
      errors.add(
          FieldError.invalid(
              "spec.restartAt",
              restartAt,
              "must be an RFC 3339 date-time such as 2026-01-02T15:04:05Z"));
    }
  }

  private static void validateSelectorAndTemplate(RolloutSpec spec, List<FieldError> errors) {
    PodTemplateSpec template = spec.getTemplate();
    if (spec.getWorkloadRef() != null) {
      if (template != null
          && template.getMetadata() != null
          && (notEmpty(template.getMetadata().getLabels())
              || notEmpty(template.getMetadata().getAnnotations()))) {
        errors.add(
            FieldError.internal(
                "spec.template", "template must be empty for workload reference rollout"));
      }
      return;
    }
    LabelSelector selector = spec.getSelector();
    if (selector == null) {
      errors.add(
          FieldError.required("spec.selector", "Rollout has missing field '.spec.selector'"));
      return;
    }
    if (!notEmpty(selector.getMatchLabels())
        && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty())) {
      errors.add(
          FieldError.invalid(
              "spec.selector", Map.of(), "empty selector is invalid for deployment"));
      return;
    }
    PodTemplateValidator.validateLabels(
        "spec.selector.matchLabels", selector.getMatchLabels(), errors);
    if (selector.getMatchExpressions() != null) {
      for (int i = 0; i < selector.getMatchExpressions().size(); i++) {
        LabelSelectorRequirement r = selector.getMatchExpressions().get(i);
        String op = r.getOperator();
        boolean needsValues = "In".equals(op) || "NotIn".equals(op);
        boolean noValues = "Exists".equals(op) || "DoesNotExist".equals(op);
        int n = r.getValues() == null ? 0 : r.getValues().size();
        if ((!needsValues && !noValues) || (needsValues && n == 0) || (noValues && n > 0)) {
          errors.add(
              FieldError.invalid(
                  "spec.selector.matchExpressions[" + i + "]", op, "invalid label selector"));
        }
      }
    }
    if (template == null) {
      errors.add(
          FieldError.required("spec.template", "Rollout has missing field '.spec.template'"));
      return;
    }
    Map<String, String> labels =
        template.getMetadata() == null ? null : template.getMetadata().getLabels();
    if (!selectorMatches(selector, labels)) {
      errors.add(
          FieldError.invalid(
              "spec.template.metadata.labels",
              labels == null ? Map.of() : labels,
              "`selector` does not match template `labels`"));
    }
    if (template.getSpec() == null
        || template.getSpec().getContainers() == null
        || template.getSpec().getContainers().isEmpty()) {
      errors.add(
          FieldError.required("spec.template.spec.containers", "must have at least one container"));
      return;
    }
    String restart = template.getSpec().getRestartPolicy();
    if (restart != null && !restart.equals("Always")) {
      errors.add(
          FieldError.invalid(
              "spec.template.spec.restartPolicy",
              restart,
              "Unsupported value: only \"Always\" is supported"));
    }
    PodTemplateValidator.validate("spec.template", template, errors);
  }

  private static boolean selectorMatches(LabelSelector selector, Map<String, String> labels) {
    Map<String, String> l = labels == null ? Map.of() : labels;
    if (selector.getMatchLabels() != null) {
      for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
        // A JSON null label value reads as "" (Go's map[string]string), and the key must be
        // present.
        String want = e.getValue() == null ? "" : e.getValue();
        String have = l.get(e.getKey());
        if (!l.containsKey(e.getKey()) || !want.equals(have == null ? "" : have)) {
          return false;
        }
      }
    }
    if (selector.getMatchExpressions() != null) {
      for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
        String v = l.get(r.getKey());
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        switch (String.valueOf(r.getOperator())) {
          case "In":
            if (v == null || !values.contains(v)) {
              return false;
            }
            break;
          case "NotIn":
            if (v != null && values.contains(v)) {
              return false;
            }
            break;
          case "Exists":
            if (v == null) {
              return false;
            }
            break;
          case "DoesNotExist":
            if (v != null) {
              return false;
            }
            break;
          default:
            return false;
        }
      }
    }
    return true;
  }

  private static void validateStrategy(RolloutSpec spec, int replicas, List<FieldError> errors) {
    RolloutStrategy strategy = spec.getStrategy();
    if (strategy == null || (strategy.getCanary() == null && strategy.getBlueGreen() == null)) {
      errors.add(
          FieldError.required(
              "spec.strategy",
              "Rollout has missing field '.spec.strategy.canary or .spec.strategy.blueGreen'"));
      return;
    }
    if (strategy.getCanary() != null && strategy.getBlueGreen() != null) {
      errors.add(
          FieldError.invalid(
              "spec.strategy", "canary, blueGreen", "Multiple Strategies can not be listed"));
      return;
    }
    if (strategy.getBlueGreen() != null) {
      validateBlueGreen(spec, strategy.getBlueGreen(), errors);
    } else {
      validateCanary(strategy.getCanary(), replicas, errors);
    }
  }

  private static void validateBlueGreen(
      RolloutSpec spec, BlueGreenStrategy bg, List<FieldError> errors) {
    // A constant: every path below is built at compile time.
    final String p = "spec.strategy.blueGreen";
    String active = bg.getActiveService() == null ? "" : bg.getActiveService();
    String preview = bg.getPreviewService() == null ? "" : bg.getPreviewService();
    if (active.equals(preview)) {
      errors.add(
          FieldError.invalid(
              p + ".activeService",
              active,
              "This rollout uses the same service for the active and preview services, but two different services are"
                  + " required."));
    }
    Integer limit = bg.getScaleDownDelayRevisionLimit();
    if (limit != null
        && limit > RolloutDefaults.revisionHistoryLimit(spec.getRevisionHistoryLimit())) {
      errors.add(
          FieldError.invalid(
              p + ".scaleDownDelayRevisionLimit",
              limit,
              "This rollout's revision history limit can not be smaller than the rollout's scale down limit"));
    }
    nonNegative(errors, p + ".scaleDownDelaySeconds", bg.getScaleDownDelaySeconds());
    nonNegative(errors, p + ".autoPromotionSeconds", bg.getAutoPromotionSeconds());
    nonNegative(errors, p + ".previewReplicaCount", bg.getPreviewReplicaCount());
    validateAntiAffinity(p + ".antiAffinity", bg.getAntiAffinity(), errors);
    validateEphemeral(p + ".previewMetadata", bg.getPreviewMetadata(), errors);
    validateEphemeral(p + ".activeMetadata", bg.getActiveMetadata(), errors);
  }

  private static void validateCanary(CanaryStrategy c, int replicas, List<FieldError> errors) {
    // A constant: every path below is built at compile time.
    final String p = "spec.strategy.canary";
    int surge = fencepost(p + ".maxSurge", c.getMaxSurge(), errors);
    int unavailable = fencepost(p + ".maxUnavailable", c.getMaxUnavailable(), errors);
    if (surge == 0 && unavailable == 0) {
      errors.add(
          FieldError.invalid(
              p + ".maxUnavailable",
              render(c.getMaxUnavailable()),
              "MaxSurge and MaxUnavailable both can not be zero"));
    }
    if (c.getCanaryService() != null
        && !c.getCanaryService().isEmpty()
        && c.getCanaryService().equals(c.getStableService())) {
      errors.add(
          FieldError.invalid(
              p + ".stableService",
              c.getStableService(),
              "This rollout uses the same service for the stable and canary services, but two different services are"
                  + " required."));
    }
    RolloutTrafficRouting tr = c.getTrafficRouting();
    boolean hasTr = tr != null;
    if (c.getPingPong() != null) {
      if (hasTr && tr.getAlb() == null && tr.getIstio() == null && !notEmpty(tr.getPlugins())) {
        errors.add(
            FieldError.invalid(
                p + ".pingPong",
                "pingPong",
                "Ping-pong feature works with the ALB, Istio, and plugin-based traffic routers only"));
      }
      String ping = c.getPingPong().getPingService();
      String pong = c.getPingPong().getPongService();
      if (ping == null || ping.isEmpty() || pong == null || pong.isEmpty()) {
        errors.add(
            FieldError.invalid(
                p + ".pingPong",
                "pingPong",
                "Ping service and Pong service must to be set to use Ping-Pong feature"));
      } else if (ping.equals(pong)) {
        errors.add(
            FieldError.invalid(
                p + ".pingPong.pingService",
                ping,
                "This rollout uses the same service for the ping and pong services, but two different services are"
                    + " required."));
      }
      if (hasTr && tr.getAlb() != null && empty(tr.getAlb().getRootService())) {
        errors.add(
            FieldError.invalid(
                p + ".trafficRouting.alb.rootService",
                "",
                "Root service field is required for the configuration with ALB and ping-pong feature enabled"));
      }
    }
    if (hasTr && c.getPingPong() == null && routerNeedsServices(tr)) {
      if (empty(c.getCanaryService()) || empty(c.getStableService())) {
        errors.add(
            FieldError.invalid(
                p + ".trafficRouting",
                "trafficRouting",
                "Canary service and Stable service must to be set to use Traffic Routing"));
      }
    }
    if (!hasTr) {
      if (c.getScaleDownDelaySeconds() != null) {
        errors.add(
            FieldError.invalid(
                p + ".scaleDownDelaySeconds",
                c.getScaleDownDelaySeconds(),
                "Canary scaleDownDelaySeconds can only be used with traffic routing"));
      }
      if (Boolean.TRUE.equals(c.getDynamicStableScale())) {
        errors.add(
            FieldError.invalid(
                p + ".dynamicStableScale",
                true,
                "Canary dynamicStableScale can only be used with traffic routing"));
      }
    } else {
      if (c.getScaleDownDelaySeconds() != null && Boolean.TRUE.equals(c.getDynamicStableScale())) {
        errors.add(
            FieldError.invalid(
                p + ".dynamicStableScale",
                true,
                "Canary dynamicStableScale cannot be used with scaleDownDelaySeconds"));
      }
      if (tr.getMaxTrafficWeight() != null && tr.getNginx() == null && !notEmpty(tr.getPlugins())) {
        errors.add(
            FieldError.invalid(
                p + ".trafficRouting.maxTrafficWeight",
                tr.getMaxTrafficWeight(),
                "Canary maxTrafficWeight in traffic routing only supported in Nginx and Plugins"));
      }
    }
    nonNegative(errors, p + ".scaleDownDelaySeconds", c.getScaleDownDelaySeconds());
    nonNegative(errors, p + ".abortScaleDownDelaySeconds", c.getAbortScaleDownDelaySeconds());
    validateAntiAffinity(p + ".antiAffinity", c.getAntiAffinity(), errors);
    validateEphemeral(p + ".canaryMetadata", c.getCanaryMetadata(), errors);
    validateEphemeral(p + ".stableMetadata", c.getStableMetadata(), errors);
    validateSteps(c, errors);
  }

  private static void validateSteps(CanaryStrategy c, List<FieldError> errors) {
    if (c.getSteps() == null) {
      return;
    }
    RolloutTrafficRouting tr = c.getTrafficRouting();
    int maxWeight =
        tr != null && tr.getMaxTrafficWeight() != null
            ? tr.getMaxTrafficWeight()
            : RolloutDefaults.MAX_TRAFFIC_WEIGHT;
    Set<String> managed = Set.of();
    if (tr != null && tr.getManagedRoutes() != null) {
      managed = new HashSet<>();
      for (ManagedRoute r : tr.getManagedRoutes()) {
        managed.add(r.getName());
      }
    }
    for (int i = 0; i < c.getSteps().size(); i++) {
      CanaryStep step = c.getSteps().get(i);
      if (step == null) {
        errors.add(
            FieldError.required(
                step(i),
                "Step must have one of the following set: experiment, setWeight, setCanaryScale, plugin or pause"));
        continue;
      }
      int exclusive =
          set(step.getSetWeight())
              + set(step.getPause())
              + set(step.getExperiment())
              + set(step.getAnalysis());
      int any =
          exclusive
              + set(step.getSetCanaryScale())
              + set(step.getSetHeaderRoute())
              + set(step.getSetMirrorRoute())
              + set(step.getPlugin());
      if (exclusive > 1 || any == 0) {
        errors.add(
            FieldError.invalid(
                step(i),
                "step",
                "Step must have one of the following set: experiment, setWeight, setCanaryScale, plugin or pause"));
        continue;
      }
      if (step.getSetWeight() != null
          && (step.getSetWeight() < 0 || step.getSetWeight() > maxWeight)) {
        errors.add(
            FieldError.invalid(
                step(i) + ".setWeight",
                step.getSetWeight(),
                "SetWeight needs to be between 0 and " + maxWeight));
      }
      if (step.getPause() != null) {
        Optional<Duration> d = GoDurations.pauseDuration(step.getPause().getDuration());
        if (d.isPresent() && d.get().isNegative()) {
          errors.add(
              FieldError.invalid(
                  step(i) + ".pause.duration",
                  render(step.getPause().getDuration()),
                  "Duration needs to be greater than 0"));
        }
      }
      if (step.getExperiment() != null && step.getExperiment().getTemplates() != null) {
        var templates = step.getExperiment().getTemplates();
        for (int j = 0; j < templates.size(); j++) {
          Integer weight = templates.get(j).getWeight();
          if (weight == null) {
            continue;
          }
          if (tr == null) {
            errors.add(
                FieldError.invalid(
                    step(i) + ".experiment.templates[" + j + "].weight",
                    weight,
                    "Experiment template weight cannot be set unless TrafficRouting is enabled"));
          } else if (tr.getAlb() == null
              && tr.getSmi() == null
              && tr.getIstio() == null
              && !notEmpty(tr.getPlugins())) {
            errors.add(
                FieldError.invalid(
                    step(i) + ".experiment.templates[" + j + "].weight",
                    weight,
                    "Experiment template weight is only available for TrafficRouting with SMI, ALB, Istio and Plugins at"
                        + " this time"));
          }
        }
      }
      if (step.getSetCanaryScale() != null && tr == null) {
        errors.add(
            FieldError.required(
                "spec.strategy.canary.trafficRouting",
                "SetCanaryScale requires TrafficRouting to be set"));
      }
      if (step.getSetHeaderRoute() != null) {
        String p = step(i);
        if (tr == null
            || (tr.getIstio() == null
                && tr.getAlb() == null
                && tr.getApisix() == null
                && !notEmpty(tr.getPlugins()))) {
          errors.add(
              FieldError.invalid(
                  p + ".setHeaderRoute",
                  step.getSetHeaderRoute().getName(),
                  "SetHeaderRoute requires TrafficRouting, supports Istio and ALB and Apisix"));
        } else {
          validateHeaderMatches(
              p + ".setHeaderRoute",
              step.getSetHeaderRoute().getMatch(),
              tr.getAlb() != null,
              errors);
          validateManagedRoute(
              p + ".setHeaderRoute.name", step.getSetHeaderRoute().getName(), tr, managed, errors);
        }
      }
      if (step.getSetMirrorRoute() != null) {
        String p = step(i);
        if (tr == null || (tr.getIstio() == null && !notEmpty(tr.getPlugins()))) {
          errors.add(
              FieldError.invalid(
                  p + ".setMirrorRoute",
                  step.getSetMirrorRoute().getName(),
                  "SetMirrorRoute requires TrafficRouting, supports Istio and Plugins"));
        } else {
          List<RouteMatch> matches = step.getSetMirrorRoute().getMatch();
          if (matches != null) {
            for (int j = 0; j < matches.size(); j++) {
              RouteMatch m = matches.get(j);
              String mp = p + ".setMirrorRoute.match[" + j + "]";
              if (m.getMethod() != null) {
                validateStringMatch(mp + ".method", m.getMethod(), errors);
              }
              if (m.getPath() != null) {
                validateStringMatch(mp + ".path", m.getPath(), errors);
              }
            }
          }
          validateManagedRoute(
              p + ".setMirrorRoute.name", step.getSetMirrorRoute().getName(), tr, managed, errors);
        }
      }
    }
  }

  private static void validateHeaderMatches(
      String p, List<HeaderRoutingMatch> matches, boolean alb, List<FieldError> errors) {
    if (matches == null) {
      return;
    }
    for (int j = 0; j < matches.size(); j++) {
      StringMatch v = matches.get(j).getHeaderValue();
      String mp = p + ".match[" + j + "].headerValue";
      if (alb) {
        if (v == null) {
          errors.add(
              FieldError.invalid(
                  mp,
                  "null",
                  "StringMatch value missed, match value must have one of the following: exact, regex, prefix"));
        } else if (v.getExact() == null || v.getRegex() != null || v.getPrefix() != null) {
          errors.add(
              FieldError.invalid(
                  mp,
                  "headerValue",
                  "SetHeaderRoute match value invalid. ALB supports 'exact' value only"));
        }
      } else {
        validateStringMatch(mp, v, errors);
      }
    }
  }

  private static void validateStringMatch(String path, StringMatch v, List<FieldError> errors) {
    if (v == null) {
      errors.add(
          FieldError.invalid(
              path,
              "null",
              "StringMatch value missed, match value must have one of the following: exact, regex, prefix"));
      return;
    }
    int n = count(v.getExact(), v.getRegex(), v.getPrefix());
    if (n == 0) {
      errors.add(
          FieldError.invalid(
              path,
              "{}",
              "StringMatch value missed, match value must have one of the following: exact, regex, prefix"));
    } else if (n > 1) {
      errors.add(
          FieldError.invalid(
              path,
              "StringMatch",
              "StringMatch match value must have exactly one of the following: exact, regex, prefix"));
    }
  }

  private static void validateManagedRoute(
      String path,
      String name,
      RolloutTrafficRouting tr,
      Set<String> managed,
      List<FieldError> errors) {
    if (tr.getManagedRoutes() == null) {
      errors.add(
          FieldError.required(
              "spec.strategy.canary.trafficRouting.managedRoutes",
              "Rollout has missing field 'spec.strategy.canary.trafficRouting.managedRoutes'"));
    } else if (!managed.contains(name)) {
      errors.add(
          FieldError.invalid(
              path,
              name,
              "Steps define a route that does not exist in spec.strategy.canary.trafficRouting.managedRoutes"));
    }
  }

  private static void validateAntiAffinity(String path, AntiAffinity a, List<FieldError> errors) {
    if (a == null) {
      return;
    }
    boolean preferred = a.getPreferredDuringSchedulingIgnoredDuringExecution() != null;
    boolean required = a.getRequiredDuringSchedulingIgnoredDuringExecution() != null;
    if (preferred == required) {
      errors.add(
          FieldError.invalid(
              path, "antiAffinity", "AntiAffinity must have exactly one strategy listed"));
      return;
    }
    if (preferred) {
      Integer w = a.getPreferredDuringSchedulingIgnoredDuringExecution().getWeight();
      if (w == null || w < 1 || w > 100) {
        errors.add(
            FieldError.invalid(
                path + ".preferredDuringSchedulingIgnoredDuringExecution.weight",
                w,
                "AntiAffinity weight must be between 1-100"));
      }
    }
  }

  private static void validateEphemeral(
      String path, PodTemplateMetadata m, List<FieldError> errors) {
    if (m != null) {
      PodTemplateValidator.validateLabels(path + ".labels", m.getLabels(), errors);
      PodTemplateValidator.validateAnnotations(path + ".annotations", m.getAnnotations(), errors);
    }
  }

  private static boolean routerNeedsServices(RolloutTrafficRouting tr) {
    return tr.getAlb() != null
        || (tr.getIstio() != null && tr.getIstio().getDestinationRule() == null)
        || tr.getSmi() != null
        || tr.getApisix() != null
        || tr.getAmbassador() != null
        || tr.getNginx() != null
        || tr.getAppMesh() != null
        || tr.getTraefik() != null;
  }

  /**
   * Resolves maxSurge/maxUnavailable for the both-zero check: an int as itself, {@code "N%"} or
   * {@code "N"} as N.
   *
   * @return the value, or -1 when absent (default 25%) or malformed (reported)
   */
  private static int fencepost(String path, IntOrString v, List<FieldError> errors) {
    if (v == null || (v.getIntVal() == null && v.getStrVal() == null)) {
      return -1;
    }
    if (v.getIntVal() != null) {
      if (v.getIntVal() < 0) {
        errors.add(FieldError.invalid(path, v.getIntVal(), "must be greater than or equal to 0"));
        return -1;
      }
      return v.getIntVal();
    }
    String s = v.getStrVal();
    int end = s.endsWith("%") ? s.length() - 1 : s.length();
    int value = 0;
    for (int i = 0; i < end; i++) {
      char ch = s.charAt(i);
      if (ch < '0' || ch > '9') {
        errors.add(FieldError.invalid(path, s, "must be an integer or a percentage (e.g. '25%')"));
        return -1;
      }
      value = value * 10 + (ch - '0');
    }
    if (end == 0) {
      errors.add(FieldError.invalid(path, s, "must be an integer or a percentage (e.g. '25%')"));
      return -1;
    }
    if (end > 9 && !fitsInt(s, end)) {
      errors.add(FieldError.invalid(path, s, "must be at most " + Integer.MAX_VALUE));
      return -1;
    }
    return value;
  }

  /**
   * Whether the decimal digits {@code s[0, end)} make a number no larger than {@link
   * Integer#MAX_VALUE}.
   */
  private static boolean fitsInt(String s, int end) {
    long value = 0;
    for (int i = 0; i < end; i++) {
      value = value * 10 + (s.charAt(i) - '0');
      if (value > Integer.MAX_VALUE) {
        return false;
      }
    }
    return true;
  }

  /** The field path of step {@code i}; built only for an error. */
  private static String step(int i) {
    return "spec.strategy.canary.steps[" + i + "]";
  }

  private static Object render(IntOrString v) {
    if (v == null) {
      return "null";
    }
    return v.getIntVal() != null ? v.getIntVal() : v.getStrVal();
  }

  private static void nonNegative(List<FieldError> errors, String path, Integer value) {
    if (value != null && value < 0) {
      errors.add(FieldError.invalid(path, value, "must be greater than or equal to 0"));
    }
  }

  private static int set(Object value) {
    return value == null ? 0 : 1;
  }

  private static int count(Object... values) {
    int n = 0;
    for (Object o : values) {
      if (o != null) {
        n++;
      }
    }
    return n;
  }

  private static boolean empty(String s) {
    return s == null || s.isEmpty();
  }

  private static boolean notEmpty(Map<?, ?> m) {
    return m != null && !m.isEmpty();
  }
}
