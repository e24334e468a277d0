package io.rollgate.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AnalysisConditionsTest {

  private static Verdict judge(String success, String failure, Object result) {
    return AnalysisConditions.compile(success, failure).evaluate(result);
  }

  private static String error(String success, String failure, Object result) {
    return assertThrows(
            ExpressionEvaluationException.class,
            () -> AnalysisConditions.compile(success, failure).evaluate(result))
        .getMessage();
  }

  @Test
  void noConditionsIsAlwaysSuccessful_evenWithoutData() {
    assertEquals(Verdict.SUCCESSFUL, judge(null, null, 0.1));
    assertEquals(Verdict.SUCCESSFUL, judge("", "  ", null));
    assertEquals(Verdict.SUCCESSFUL, judge(null, null, List.of()));
  }

  @Test
  void onlySuccessCondition_failsWhenFalse() {
    assertEquals(Verdict.SUCCESSFUL, judge("result >= 0.95", null, 0.99));
    assertEquals(Verdict.FAILED, judge("result >= 0.95", null, 0.5));
  }

  @Test
  void onlyFailureCondition_succeedsWhenFalse() {
    assertEquals(Verdict.FAILED, judge(null, "result > 10", 11.0));
    assertEquals(Verdict.SUCCESSFUL, judge(null, "result > 10", 3.0));
  }

  @ParameterizedTest(name = "success={0} failure={1} -> {2}")
  @CsvSource({
    "true, true, FAILED",
    "false, true, FAILED",
    "true, false, SUCCESSFUL",
    "false, false, INCONCLUSIVE",
  })
  void bothConditions_failureWinsThenSuccessElseInconclusive(
      String success, String failure, Verdict expected) {
    assertEquals(expected, judge(success, failure, 1.0));
  }

  @Test
  void bothConditionsOnARealResult() {
    String success = "result[0] >= 0.9";
    String failure = "result[0] < 0.5";
    assertEquals(Verdict.SUCCESSFUL, judge(success, failure, List.of(0.95)));
    assertEquals(Verdict.FAILED, judge(success, failure, List.of(0.2)));
    assertEquals(Verdict.INCONCLUSIVE, judge(success, failure, List.of(0.7)));
  }

  @Test
  void nonBoolResultIsAnError_namingTheGoType() {
    assertEquals(
        "could not evaluate successCondition \"result\": expected bool, but got float64",
        error("result", null, 0.5));
    assertEquals(
        "could not evaluate failureCondition \"result.status\": expected bool, but got string",
        error(null, "result.status", Map.of("status", "ok")));
    assertEquals(
        "could not evaluate successCondition \"result.a\": expected bool, but got <nil>",
        error("result.a", null, new HashMap<>(Map.of("b", 1))));
    assertEquals(
        "could not evaluate successCondition \"len(result)\": expected bool, but got int",
        error("len(result)", null, List.of(1.0)));
    assertEquals(
        "could not evaluate successCondition \"result\": expected bool, but got []float64",
        error("result", null, List.of(0.5, 0.7)));
    assertEquals(
        "could not evaluate successCondition \"[1]\": expected bool, but got []interface {}",
        error("[1]", null, List.of(0.5)));
    assertEquals(
        "could not evaluate successCondition \"result\": expected bool, but got map[string]interface {}",
        error("result", null, Map.of("a", 1.0)));
  }

  @Test
  void evaluationErrorsAreWrappedWithTheConditionAndItsSource() {
    assertEquals(
        "could not evaluate successCondition \"result[0] > 1\": cannot fetch 0 from float64",
        error("result[0] > 1", null, 0.5));
    assertEquals(
        "could not evaluate failureCondition \"result > \"x\"\": invalid operation: float64 > string",
        error("result > 0", "result > \"x\"", 0.5));
    assertEquals(
        "could not evaluate successCondition \"foo > 1\": unknown name foo",
        error("foo > 1", null, 1.0));
  }

  @Test
  void successConditionErrorStopsBeforeTheFailureCondition() {
    String message = error("result.x", "undefinedName", 1.0);
    assertEquals(
        "could not evaluate successCondition \"result.x\": cannot fetch x from float64", message);
  }

  @Test
  void errorOnNilOrEmptyResultIsTheNoDataMessage() {
    assertEquals(AnalysisConditions.NO_DATA_MESSAGE, error("result > 0.5", null, null));
    assertEquals(AnalysisConditions.NO_DATA_MESSAGE, error("result[0] > 0.5", null, List.of()));
    assertEquals(AnalysisConditions.NO_DATA_MESSAGE, error(null, "result", null));
    assertEquals(
        "metric result is nil or empty: no data returned from the metric provider",
        AnalysisConditions.NO_DATA_MESSAGE);
  }

  @Test
  void emptyResultWithoutErrorIsJudgedNormally() {
    assertEquals(Verdict.SUCCESSFUL, judge("len(result) == 0", null, List.of()));
    assertEquals(Verdict.FAILED, judge("all(result, {# > 1}) && len(result) > 0", null, List.of()));
  }

  @Test
  void isNilLooksAtResult_notItsArgument() {
    assertEquals(Verdict.SUCCESSFUL, judge("isNil(result)", null, null));
    assertEquals(Verdict.FAILED, judge("isNil(result)", null, 0.0));
    Map<String, Object> withNullField = new HashMap<>();
    withNullField.put("foo", null);
    // result.foo is nil, but Argo's isNil ignores its argument: result itself is not nil.
    assertEquals(Verdict.FAILED, judge("isNil(result.foo)", null, withNullField));
    assertEquals(Verdict.SUCCESSFUL, judge("isNil(42)", null, null));
  }

  @Test
  void defaultOnAVectorReturnsTheWholeVector() {
    // A common surprise carried over from Argo: default(result, 0) is the list itself when there is
    // data.
    assertEquals(
        "could not evaluate successCondition \"default(result, 0) >= 0.95\": invalid operation: "
            + "[]interface {} >= float64",
        error("default(result, 0) >= 0.95", null, List.of(0.97)));
  }

  @Test
  void defaultLooksAtResult_notItsArgument() {
    assertEquals(Verdict.SUCCESSFUL, judge("default(result, 0) < 1", null, null));
    assertEquals(Verdict.SUCCESSFUL, judge("default(result, 0) == 5.0", null, 5.0));
    // default(result.missing, 10) is the whole result (a map), not 10: the argument is ignored.
    assertEquals(
        Verdict.FAILED, judge("default(result.missing, 10) == 10", null, Map.of("x", 5.0)));
    assertEquals(
        Verdict.SUCCESSFUL, judge("default(result.missing, 10).x == 5", null, Map.of("x", 5.0)));
    assertEquals(Verdict.SUCCESSFUL, judge("default(nil, 7) == 7", null, null));
  }

  @Test
  void argumentsOfIsNilAndDefaultAreStillEvaluated() {
    // As in Argo: the ignored argument is evaluated first, so a nil result fails here (with the
    // no-data message).
    assertEquals(AnalysisConditions.NO_DATA_MESSAGE, error("default(result.x, 0) > 1", null, null));
  }

  @Test
  void asIntAndAsFloat() {
    assertEquals(Verdict.SUCCESSFUL, judge("asInt(result) == 42", null, "42"));
    assertEquals(Verdict.SUCCESSFUL, judge("asInt(result) == 3", null, 3.9));
    assertEquals(Verdict.SUCCESSFUL, judge("asFloat(result) == 0.5", null, "0.5"));
    assertEquals(Verdict.SUCCESSFUL, judge("asFloat(result) == 2", null, 2));
    assertEquals(
        "could not evaluate successCondition \"asInt(result) > 1\": strconv.ParseInt: parsing \"abc\": "
            + "invalid syntax",
        error("asInt(result) > 1", null, "abc"));
    assertEquals(
        "could not evaluate successCondition \"asFloat(result) > 1\": strconv.ParseFloat: parsing "
            + "\"1,5\": invalid syntax",
        error("asFloat(result) > 1", null, "1,5"));
    assertEquals(
        "could not evaluate successCondition \"asInt(result) > 1\": unsupported type",
        error("asInt(result) > 1", null, true));
  }

  @Test
  void isNaNAndIsInf() {
    assertEquals(Verdict.FAILED, judge(null, "isNaN(result)", Double.NaN));
    assertEquals(Verdict.SUCCESSFUL, judge(null, "isNaN(result)", 0.3));
    assertEquals(Verdict.SUCCESSFUL, judge("isInf(result)", null, Double.POSITIVE_INFINITY));
    assertEquals(Verdict.SUCCESSFUL, judge("isInf(result)", null, Double.NEGATIVE_INFINITY));
    assertEquals(Verdict.FAILED, judge("isInf(result)", null, 1.0));
  }

  @Test
  void helperArityIsChecked() {
    assertEquals(
        "could not evaluate successCondition \"default(result)\": not enough arguments to call default",
        error("default(result)", null, 1.0));
    assertEquals(
        "could not evaluate successCondition \"asInt(1, 2) > 0\": too many arguments to call asInt",
        error("asInt(1, 2) > 0", null, 1.0));
  }

  @Test
  void prometheusAndWebShapes() {
    assertEquals(
        Verdict.SUCCESSFUL, judge("all(result, {# < 0.05})", null, List.of(0.01, 0.02, 0.03)));
    assertEquals(
        Verdict.SUCCESSFUL, judge("result[0] > 0.9 && len(result) == 1", null, List.of(0.95)));
    Map<String, Object> web =
        Map.of("data", Map.of("ok", true, "ratio", 0.97, "items", List.of("a", "b")));
    assertEquals(Verdict.SUCCESSFUL, judge("result.data.ok && result.data.ratio > 0.9", null, web));
    assertEquals(Verdict.SUCCESSFUL, judge("\"a\" in result.data.items", null, web));
    assertEquals(Verdict.SUCCESSFUL, judge("result == \"healthy\"", null, "healthy"));
    assertEquals(Verdict.SUCCESSFUL, judge("result == 3", null, 3));
  }

  @Test
  void resultNumbersAreFloat64AsInArgo() {
    // Every provider value is a Go float64 in Argo, even when a Java provider hands over an
    // Integer.
    assertEquals(
        Verdict.SUCCESSFUL, judge("type(result) == \"float\" && result / 2 == 1.5", null, 3));
    assertEquals(
        "could not evaluate successCondition \"result\": expected bool, but got float64",
        error("result", null, 3));
    assertEquals(
        "could not evaluate successCondition \"result.n % 2 == 0\": invalid operation: float64 % int",
        error("result.n % 2 == 0", null, Map.of("n", 4)));
    assertEquals(
        "could not evaluate successCondition \"result\": expected bool, but got []float64",
        error("result", null, List.of(1, 2L)));
    assertEquals(Verdict.SUCCESSFUL, judge("asInt(result.n) % 2 == 0", null, Map.of("n", 4)));
  }

  @Test
  void syntaxErrorsNameTheConditionAndPosition() {
    ExpressionSyntaxException e =
        assertThrows(
            ExpressionSyntaxException.class,
            () -> AnalysisConditions.compile("result >= 0.9", "result <"));
    assertEquals(
        "could not evaluate failureCondition \"result <\": unexpected token EOF (1:9)",
        e.getMessage());
    assertEquals(8, e.position());
    assertEquals("unexpected token EOF", e.reason());
    e =
        assertThrows(
            ExpressionSyntaxException.class, () -> AnalysisConditions.compile("result >>", null));
    assertEquals(
        "could not evaluate successCondition \"result >>\": unexpected token Operator(\">\") (1:9)",
        e.getMessage());
  }

  @Test
  void keepsTheSources() {
    AnalysisConditions c = AnalysisConditions.compile("result > 1", " ");
    assertEquals("result > 1", c.successCondition());
    assertNull(c.failureCondition());
  }

  @Test
  void nowUsesTheGivenClock() {
    Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    AnalysisConditions c =
        AnalysisConditions.compile(
            "now() - duration(\"1h\") > now() - duration(\"2h\")",
            "string(now()) != \"2026-01-01 00:00:00 +0000 UTC\"");
    assertEquals(Verdict.SUCCESSFUL, c.evaluate(1.0, clock));
    assertEquals(
        Verdict.FAILED, c.evaluate(1.0, Clock.offset(clock, java.time.Duration.ofSeconds(1))));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      value = {
        "result[0] >= 0.95 => SUCCESSFUL",
        "result[0] <= 0.01 => FAILED",
        "len(result) == 0 || result[0] < 0.99 => SUCCESSFUL",
        "all(result, {# >= 0.9}) => SUCCESSFUL",
        "any(result, # > 0.99) => FAILED",
        "default(result, [0])[0] >= 0.95 => SUCCESSFUL",
        "isNaN(result[0]) || result[0] >= 0.95 => SUCCESSFUL",
        "asFloat(result[0]) > 0.5 => SUCCESSFUL",
        "asInt(result[0] * 100) == 97 => SUCCESSFUL",
        "result[0] > 0.5 and result[0] < 1 => SUCCESSFUL",
        "not (result[0] in [0.1, 0.2]) => SUCCESSFUL",
        "'\n  result[0] >= 0.9\n' => SUCCESSFUL",
      })
  void conditionsAsArgoUsersWriteThem_onAPrometheusVector(String condition, Verdict expected) {
    assertEquals(expected, judge(condition, null, List.of(0.97)));
  }

  @Test
  void webJsonConditionsAsArgoUsersWriteThem() {
    Map<String, Object> body =
        Map.of(
            "status",
            "ok",
            "data",
            Map.of(
                "successPercent",
                "0.99",
                "errors",
                0.0,
                "checks",
                List.of(
                    Map.of("name", "db", "passed", true),
                    Map.of("name", "cache", "passed", true))));
    assertEquals(Verdict.SUCCESSFUL, judge("result.status == 'ok'", null, body));
    assertEquals(
        Verdict.SUCCESSFUL, judge("asFloat(result.data.successPercent) > 0.95", null, body));
    assertEquals(Verdict.SUCCESSFUL, judge(null, "result.data.errors > 0", body));
    assertEquals(Verdict.SUCCESSFUL, judge("all(result.data.checks, .passed)", null, body));
    assertEquals(Verdict.SUCCESSFUL, judge("result.data?.missing?.deep == nil", null, body));
    assertEquals(Verdict.SUCCESSFUL, judge("result == true", null, true));
  }

  @Test
  void timeOverflowIsAnErrorNotACrash() {
    assertEquals(
        "could not evaluate successCondition \"now() + duration(\"2000000h\") * 9000000 > now()\": "
            + "runtime error: Instant exceeds minimum or maximum instant",
        error("now() + duration(\"2000000h\") * 9000000 > now()", null, 1.0));
  }

  @Test
  void verdictPhasesAreArgoAnalysisPhases() {
    assertEquals("Successful", Verdict.SUCCESSFUL.phase());
    assertEquals("Failed", Verdict.FAILED.phase());
    assertEquals("Inconclusive", Verdict.INCONCLUSIVE.phase());
  }

  @Test
  void environmentExposesResultAndHelpers() {
    Map<String, Object> env = AnalysisConditions.environment(List.of(1.0));
    assertEquals(List.of(1.0), env.get("result"));
    for (String helper : List.of("asInt", "asFloat", "isNaN", "isInf", "isNil", "default")) {
      assertEquals(true, env.get(helper) instanceof ExprFunction, helper);
    }
    assertEquals(2L, Expression.parse("asInt(\"2\")").evaluate(env));
    List<Object> list = new ArrayList<>();
    assertEquals(
        list, Expression.parse("default(1, 2)").evaluate(AnalysisConditions.environment(list)));
  }
}
