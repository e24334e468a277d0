package io.rollgate.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Positions, environment handling and sharing of a parsed expression. */
class ExpressionTest {

  @Test
  void syntaxErrorMessageNamesLineAndColumn() {
    ExpressionSyntaxException e =
        assertThrows(
            ExpressionSyntaxException.class, () -> Expression.parse("result > 1 &&\n  result <"));
    assertEquals("unexpected token EOF (2:11)", e.getMessage());
    assertEquals(24, e.position());
    e =
        assertThrows(
            ExpressionSyntaxException.class, () -> Expression.parse("all(result,\n {# > 1}\n ]"));
    assertEquals("unexpected \"]\" (3:2)", e.getMessage());
  }

  @Test
  void evaluationErrorsCarryThePositionOfTheFailingNode() {
    ExpressionEvaluationException e =
        assertThrows(
            ExpressionEvaluationException.class,
            () -> Expression.parse("1 + vec[7]").evaluate(Map.of("vec", List.of(1))));
    assertEquals("index out of range: 7 (array length is 1)", e.getMessage());
    assertEquals(7, e.position());
    e =
        assertThrows(
            ExpressionEvaluationException.class,
            () -> Expression.parse("x == 1 || y > 2").evaluate(Map.of("x", 1)));
    assertEquals("unknown name y", e.getMessage());
    assertEquals(10, e.position());
    e =
        assertThrows(
            ExpressionEvaluationException.class,
            () -> Expression.parse("\"a\" > 1").evaluate(Map.of()));
    assertEquals("invalid operation: string > int", e.getMessage());
    assertEquals(4, e.position());
    Expression multiLine = Expression.parse("result > 0.5 &&\n  result.x");
    e =
        assertThrows(
            ExpressionEvaluationException.class, () -> multiLine.evaluate(Map.of("result", 1.0)));
    assertEquals("cannot fetch x from float64 (2:9)", multiLine.describe(e));
  }

  @Test
  void unknownNamesAreReportedEvenInBranchesNotTaken() {
    // expr-lang checks names against the environment when compiling, so short-circuiting does not
    // hide a typo.
    Expression e = Expression.parse("true || typo > 1");
    assertEquals(
        "unknown name typo",
        assertThrows(ExpressionEvaluationException.class, () -> e.evaluate(Map.of())).getMessage());
    assertEquals(true, e.evaluate(Map.of("typo", 0)));
    assertEquals(Set.of("typo"), e.names());
  }

  @Test
  void letVariablesAndPredicateNamesAreNotEnvironmentNames() {
    Expression e = Expression.parse("let t = 2; all(xs, {# < t})");
    assertEquals(Set.of("xs"), e.names());
    assertEquals(true, e.evaluate(Map.of("xs", List.of(1, 1))));
  }

  @Test
  void integersFromTheEnvironmentComeBackAsLong() {
    assertEquals(7L, Expression.parse("x").evaluate(Map.of("x", 7)));
    assertEquals(2.5, Expression.parse("x").evaluate(Map.of("x", new java.math.BigDecimal("2.5"))));
  }

  @Test
  void nullEnvironmentValuesAreNil() {
    Map<String, Object> env = new HashMap<>();
    env.put("x", null);
    assertEquals(true, Expression.parse("x == nil").evaluate(env));
  }

  @Test
  void environmentFunctionsAreCallable() {
    ExprFunction twice = args -> ((Number) args.get(0)).longValue() * 2;
    assertEquals(8L, Expression.parse("twice(4)").evaluate(Map.of("twice", twice)));
    ExprFunction boom =
        args -> {
          throw new IllegalStateException("boom");
        };
    ExpressionEvaluationException e =
        assertThrows(
            ExpressionEvaluationException.class,
            () -> Expression.parse("1 + boom()").evaluate(Map.of("boom", boom)));
    assertEquals("boom", e.getMessage());
    assertEquals(4, e.position());
    assertEquals(
        "x is not a function (type int)",
        assertThrows(
                ExpressionEvaluationException.class,
                () -> Expression.parse("x()").evaluate(Map.of("x", 1)))
            .getMessage());
  }

  @Test
  void inputsAreNotModified() {
    List<Object> xs = new ArrayList<>(List.of(3, 1, 2));
    Expression.parse("sort(xs)").evaluate(Map.of("xs", xs));
    Expression.parse("reverse(xs)").evaluate(Map.of("xs", xs));
    assertEquals(List.of(3, 1, 2), xs);
  }

  @Test
  void sourceIsKept() {
    assertEquals("result > 1", Expression.parse("result > 1").source());
    assertEquals("result > 1", Expression.parse("result > 1").toString());
  }

  @Test
  void deepNestingIsAnErrorNotACrash() {
    String deep = "(".repeat(20_000) + "1" + ")".repeat(20_000);
    assertEquals(
        "expression too deeply nested (1:257)",
        assertThrows(ExpressionSyntaxException.class, () -> Expression.parse(deep)).getMessage());
    String nested = "(".repeat(100) + "1" + ")".repeat(100);
    assertEquals(1L, Expression.parse(nested).evaluate(Map.of()));
    String longChain = "1" + " + 1".repeat(200_000);
    Throwable t =
        assertThrows(Throwable.class, () -> Expression.parse(longChain).evaluate(Map.of()));
    assertTrue(
        t instanceof ExpressionSyntaxException || t instanceof ExpressionEvaluationException,
        t.toString());
  }

  @Test
  void oneParsedExpressionServesManyThreads() throws Exception {
    Expression e = Expression.parse("sum(map(filter(xs, # % 2 == 0), # * k)) + len(xs)");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Object>> results = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        long k = i;
        results.add(pool.submit(() -> e.evaluate(Map.of("xs", List.of(1, 2, 3, 4), "k", k))));
      }
      for (int i = 0; i < results.size(); i++) {
        assertEquals(6L * i + 4, results.get(i).get(10, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
