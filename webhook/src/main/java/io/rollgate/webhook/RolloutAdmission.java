package io.rollgate.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutSpec;
import io.rollgate.defaults.RolloutDefaults;
import io.rollgate.validation.FieldError;
import io.rollgate.validation.RolloutValidator;
import java.util.ArrayList;
import java.util.List;

/**
 * Admission decisions for {@code argoproj.io} Rollouts: validation with {@link RolloutValidator}
 * plus warnings for legal but probably wrong specs, and the defaulting JSONPatch. Pure: no I/O,
 * safe on the event loop.
 *
 * <p>Requests for other kinds, for subresources ({@code rollouts/status} is never checked, so the
 * controller's status writes never depend on the webhook) and for DELETE/CONNECT are allowed
 * untouched.
 */
public final class RolloutAdmission {

  private RolloutAdmission() {}

  /**
   * Problems found by checks that look beyond the object (plugin registry, policies).
   *
   * @param errors problems that deny the object
   * @param warnings admission warnings
   */
  public record Extra(List<FieldError> errors, List<String> warnings) {}

  /** Checks of a readable Rollout that need more than the object itself. */
  @FunctionalInterface
  public interface ExtraCheck {
    /**
     * Checks the Rollout.
     *
     * @param request the request
     * @param rollout the Rollout read from it
     * @return the problems and warnings; both empty when none
     */
    Extra check(AdmissionRequest request, Rollout rollout);
  }

  /**
   * Answers a {@code /validate} request with the object's own rules only.
   *
   * @param request the parsed request
   * @return allowed (with warnings) or denied with every problem
   */
  public static AdmissionDecision validate(AdmissionRequest request) {
    return validate(request, (r, o) -> new Extra(List.of(), List.of()));
  }

  /**
   * Answers a {@code /validate} request: the object's own rules, then the extra checks.
   *
   * @param request the parsed request
   * @param extra further checks of the Rollout (run only when it can be read)
   * @return allowed (with warnings) or denied with every problem
   */
  public static AdmissionDecision validate(AdmissionRequest request, ExtraCheck extra) {
    if (!request.isRollout() || !request.isMainResourceWrite()) {
      return new AdmissionDecision(
          AdmissionReviews.allowed(request.uid(), List.of()), "ignored", 0);
    }
    if (!request.hasJsonObject()) {
      return new AdmissionDecision(
          AdmissionReviews.badObject(request, "AdmissionReview request has no object to validate"),
          "denied",
          1);
    }
    Rollout rollout;
    try {
      rollout = request.readObject(ModelJson.mapper(), Rollout.class);
    } catch (Exception e) {
      return BindingErrors.denial(request, e, "a Rollout", request.object(), "");
    }
    List<FieldError> errors = new ArrayList<>(RolloutValidator.validate(rollout));
    List<String> warnings = warnings(rollout);
    Extra more = extra.check(request, rollout);
    errors.addAll(more.errors());
    warnings.addAll(more.warnings());
    if (!errors.isEmpty()) {
      return new AdmissionDecision(
          AdmissionReviews.invalid(request, errors, warnings), "denied", errors.size());
    }
    return new AdmissionDecision(
        AdmissionReviews.allowed(request.uid(), warnings),
        warnings.isEmpty() ? "allowed" : "warned",
        0);
  }

  /**
   * Answers a {@code /mutate} request: a JSONPatch that fills the absent defaults the controller
   * persists.
   *
   * @param request the parsed request
   * @return allowed, with a patch when something was absent ({@code patched}); a second call on the
   *     patched object yields no patch
   */
  public static AdmissionDecision mutate(AdmissionRequest request) {
    if (!request.isRollout() || !request.isMainResourceWrite() || request.object() == null) {
      return new AdmissionDecision(
          AdmissionReviews.allowed(request.uid(), List.of()), "ignored", 0);
    }
    ArrayNode patch = defaultsPatch(request.object());
    return new AdmissionDecision(
        AdmissionReviews.patched(request.uid(), patch), patch.isEmpty() ? "allowed" : "patched", 0);
  }

  /**
   * The RFC 6902 operations that fill absent defaults: only {@code spec.replicas} ({@link
   * RolloutDefaults#REPLICAS}), the one default the controller writes back itself. Nothing is added
   * when {@code spec} is absent or not an object (validation denies such objects).
   *
   * @param object the Rollout as JSON
   * @return the operations, empty when nothing is absent
   */
  public static ArrayNode defaultsPatch(JsonNode object) {
    ArrayNode ops = AdmissionReviews.mapper().createArrayNode();
    JsonNode spec = object.get("spec");
    if (spec != null && spec.isObject()) {
      JsonNode replicas = spec.get("replicas");
      if (replicas == null || replicas.isNull()) {
        ObjectNode op = ops.addObject();
        op.put("op", "add");
        op.put("path", "/spec/replicas");
        op.put("value", RolloutDefaults.REPLICAS);
      }
    }
    return ops;
  }

  /**
   * Warnings for specs that are legal but probably not what the author meant.
   *
   * <ul>
   *   <li>{@code spec.strategy.canary} without {@code steps}: every update goes to 100% at once,
   *       like a Deployment.
   *   <li>{@code spec.progressDeadlineAbort: true} without {@code spec.progressDeadlineSeconds}:
   *       the abort fires after the implicit 600 s default, which is rarely the deadline intended.
   *   <li>A {@code setWeight} lower than an earlier step's: traffic moves back to stable
   *       mid-rollout.
   * </ul>
   *
   * @param rollout the Rollout
   * @return the warnings, each starting with the field path; empty when none apply
   */
  public static List<String> warnings(Rollout rollout) {
    List<String> warnings = new ArrayList<>();
    RolloutSpec spec = rollout.getSpec();
    if (spec == null) {
      return warnings;
    }
    if (Boolean.TRUE.equals(spec.getProgressDeadlineAbort())
        && spec.getProgressDeadlineSeconds() == null) {
      warnings.add(
          "spec.progressDeadlineAbort: true without spec.progressDeadlineSeconds: aborts after the default "
              + RolloutDefaults.PROGRESS_DEADLINE_SECONDS
              + "s; set the deadline explicitly");
    }
    CanaryStrategy canary = spec.getStrategy() == null ? null : spec.getStrategy().getCanary();
    if (canary != null) {
      List<CanaryStep> steps = canary.getSteps();
      if (steps == null || steps.isEmpty()) {
        warnings.add(
            "spec.strategy.canary.steps: no steps: every update is promoted to 100% at once, with no pause or analysis");
      } else {
        int highest = -1;
        int highestIndex = -1;
        for (int i = 0; i < steps.size(); i++) {
          Integer w = steps.get(i) == null ? null : steps.get(i).getSetWeight();
          if (w == null) {
            continue;
          }
          if (w < highest) {
            warnings.add(
                "spec.strategy.canary.steps["
                    + i
                    + "].setWeight: "
                    + w
                    + " is lower than steps["
                    + highestIndex
                    + "].setWeight "
                    + highest
                    + ": traffic moves back to stable mid-rollout");
          } else {
            highest = w;
            highestIndex = i;
          }
        }
      }
    }
    return warnings;
  }
}
