package io.rollgate.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The expression table in {@code expr/expressions.txt}: value, evaluation error or syntax error per
 * expression.
 */
class ExpressionTableTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  static final Map<String, Object> ENV = env();

  private static Map<String, Object> env() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("a", 1);
    m.put("b", Map.of("c", "x"));
    m.put("list", List.of(1, 2));
    m.put("nil", null);
    Map<String, Object> env = new HashMap<>();
    env.put("result", 0.95);
    env.put("vec", List.of(0.5, 0.7, 0.9));
    env.put("ints", List.of(1, 2, 3, 4, 5));
    env.put("m", m);
    env.put("s", "Hello World");
    env.put("n", null);
    env.put("users", List.of(Map.of("name", "ann", "age", 30), Map.of("name", "bob", "age", 17)));
    env.put("big", new BigDecimal("2.5"));
    env.put("answer", 42);
    return env;
  }

  static Stream<Arguments> cases() throws IOException {
    List<Arguments> out = new ArrayList<>();
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(
                Objects.requireNonNull(
                    ExpressionTableTest.class.getResourceAsStream("/expr/expressions.txt")),
                StandardCharsets.UTF_8))) {
      String line;
      int number = 0;
      while ((line = r.readLine()) != null) {
        number++;
        if (line.isBlank() || line.startsWith("# ")) {
          continue;
        }
        int sep = line.lastIndexOf(" ==> ");
        if (sep < 0) {
          throw new IllegalStateException(
              "expressions.txt line " + number + " has no ' ==> ': " + line);
        }
        out.add(Arguments.of(number, line.substring(0, sep), line.substring(sep + 5).trim()));
      }
    }
    return out.stream();
  }

  @Test
  void tableHasEnoughCases() throws IOException {
    List<Arguments> all = cases().toList();
    long errors =
        all.stream()
            .filter(
                a -> {
                  String expected = (String) a.get()[2];
                  return expected.startsWith("error:") || expected.startsWith("syntax:");
                })
            .count();
    assertTrue(all.size() >= 100, "cases: " + all.size());
    assertTrue(errors >= 20, "error cases: " + errors);
  }

  @ParameterizedTest(name = "line {0}: {1} ==> {2}")
  @MethodSource("cases")
  void evaluates(int line, String source, String expected) throws IOException {
    if (expected.startsWith("syntax:")) {
      String spec = expected.substring("syntax:".length()).trim();
      int at = spec.lastIndexOf(" @");
      String fragment = spec.substring(0, at);
      int position = Integer.parseInt(spec.substring(at + 2));
      ExpressionSyntaxException e =
          assertThrows(ExpressionSyntaxException.class, () -> Expression.parse(source));
      assertTrue(e.getMessage().contains(fragment), () -> "message: " + e.getMessage());
      assertEquals(position, e.position(), () -> "position in message: " + e.getMessage());
      assertTrue(
          e.getMessage().matches(".* \\(\\d+:\\d+\\)$"),
          () -> "no line:column in: " + e.getMessage());
      return;
    }
    Expression expression = Expression.parse(source);
    if (expected.startsWith("error:")) {
      String fragment = expected.substring("error:".length()).trim();
      ExpressionEvaluationException e =
          assertThrows(ExpressionEvaluationException.class, () -> expression.evaluate(ENV));
      assertTrue(e.getMessage().contains(fragment), () -> "message: " + e.getMessage());
      assertTrue(
          e.position() >= 0 && e.position() <= source.length(), () -> "position: " + e.position());
      return;
    }
    Object want =
        switch (expected) {
          case "+Inf" -> Double.POSITIVE_INFINITY;
          case "-Inf" -> Double.NEGATIVE_INFINITY;
          case "NaN" -> Double.NaN;
          default -> JSON.readValue(expected, Object.class);
        };
    Object got;
    try {
      got = expression.evaluate(ENV);
    } catch (ExpressionEvaluationException e) {
      fail("unexpected error: " + e.getMessage());
      return;
    }
    assertEquals(
        canonical(want), canonical(got), "types must match too (int = Long, float = Double)");
  }

  /**
   * Integers as Long, so that JSON's Integer and the evaluator's Long compare equal but 1 and 1.0
   * do not.
   */
  static Object canonical(Object v) {
    if (v instanceof Integer i) {
      return i.longValue();
    } else if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(x -> out.add(canonical(x)));
      return out;
    } else if (v instanceof Map<?, ?> m) {
      Map<Object, Object> out = new HashMap<>();
      m.forEach((k, x) -> out.put(k, canonical(x)));
      return out;
    } else if (v instanceof Object[] a) {
      return canonical(Arrays.asList(a));
    }
    return v;
  }
}
