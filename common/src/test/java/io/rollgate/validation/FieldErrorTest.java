package io.rollgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FieldErrorTest {

  @Test
  void formatsInvalidValueWithPathValueAndDetail() {
    assertEquals(
        "spec.strategy.canary.steps[2].setWeight: Invalid value: 120: SetWeight needs to be between 0 and 100",
        FieldError.invalid(
                "spec.strategy.canary.steps[2].setWeight",
                120,
                "SetWeight needs to be between 0 and 100")
            .toString());
  }

  @Test
  void quotesStringValues() {
    FieldError e = FieldError.invalid("spec.strategy.blueGreen.activeService", "web", "same");
    assertEquals("\"web\"", e.value());
    assertEquals(
        "spec.strategy.blueGreen.activeService: Invalid value: \"web\": same", e.toString());
  }

  @Test
  void rendersNullAndBooleanValuesUnquoted() {
    assertEquals("p: Invalid value: null: d", FieldError.invalid("p", null, "d").toString());
    assertEquals("p: Invalid value: true: d", FieldError.invalid("p", true, "d").toString());
  }

  @Test
  void omitsValue_whenRequired() {
    FieldError e =
        FieldError.required("spec.selector", "Rollout has missing field '.spec.selector'");
    assertEquals(FieldError.Type.REQUIRED, e.type());
    assertEquals(null, e.value());
    assertEquals(
        "spec.selector: Required value: Rollout has missing field '.spec.selector'", e.toString());
  }

  @Test
  void usesKubernetesWordingForForbiddenAndInternal() {
    assertEquals("p: Forbidden: d", FieldError.forbidden("p", "d").toString());
    assertEquals(
        "spec.template: Internal error: template must be empty for workload reference rollout",
        FieldError.internal(
                "spec.template", "template must be empty for workload reference rollout")
            .toString());
  }
}
