package io.rollgate.expr;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A parsed condition expression in the expr-lang/expr syntax that Argo Rollouts evaluates for
 * {@code metrics[].successCondition} and {@code failureCondition} (docs/compatibility.md §9.6), and
 * for Prometheus {@code rangeQuery.start}/{@code end}. Parse once, evaluate many times: an instance
 * is immutable and thread-safe.
 *
 * <p>Values are JSON-like Java objects. Integer numbers (Integer, Long, ...) are expr's {@code int}
 * and evaluate to Long; floating-point numbers (Double, BigDecimal, ...) are {@code float64} and
 * evaluate to Double; arrays are {@link List}, maps {@link Map} with String keys; {@code now()} is
 * an {@link java.time.Instant} and {@code duration("5m")} a {@link java.time.Duration}. An
 * environment value implementing {@link ExprFunction} can be called by name.
 */
public final class Expression {

  private final String source;
  private final Node root;

  /**
   * Names read from the environment, each with the offset of its first use; checked before
   * evaluation.
   */
  private final Map<String, Integer> freeNames;

  /** Called names that are not built-ins; the environment must provide them. */
  private final Map<String, Integer> freeFunctions;

  private Expression(
      String source,
      Node root,
      Map<String, Integer> freeNames,
      Map<String, Integer> freeFunctions) {
    this.source = source;
    this.root = root;
    this.freeNames = freeNames;
    this.freeFunctions = freeFunctions;
  }

  /**
   * Parses an expression.
   *
   * @param source the expression text, for example {@code result[0] >= 0.95}
   * @return the parsed expression
   * @throws ExpressionSyntaxException when the text is not a valid expression; the message names
   *     the 1-based {@code (line:column)} and {@link ExpressionSyntaxException#position()} the
   *     0-based offset
   */
  public static Expression parse(String source) throws ExpressionSyntaxException {
    Objects.requireNonNull(source, "source");
    Node root = Parser.parse(source);
    Map<String, Integer> names = new LinkedHashMap<>();
    Map<String, Integer> functions = new LinkedHashMap<>();
    try {
      collectFree(root, new HashSet<>(), names, functions);
    } catch (StackOverflowError e) {
      // A very long operator chain (a + a + a ...) builds a deep tree without deep parser
      // recursion.
      throw new ExpressionSyntaxException(source, 0, "expression too deeply nested");
    }
    return new Expression(source, root, Map.copyOf(names), Map.copyOf(functions));
  }

  /**
   * Evaluates the expression against an environment, with {@code now()} reading the system clock.
   *
   * @param env the variables (and {@link ExprFunction}s) the expression may use, for example {@code
   *     result}
   * @return the value: Boolean, Long, Double, String, List, Map, Instant, Duration or null
   * @throws ExpressionEvaluationException when a name is not in the environment (checked up front
   *     for the whole expression, as expr-lang's compiler does), an operator gets the wrong types,
   *     an index is out of range, or a function rejects its argument
   */
  public Object evaluate(Map<String, ?> env) throws ExpressionEvaluationException {
    return evaluate(env, Clock.systemUTC());
  }

  /**
   * Evaluates the expression with {@code now()} reading the given clock.
   *
   * @param env the variables (and {@link ExprFunction}s) the expression may use
   * @param clock the time source for {@code now()}
   * @return the value, as for {@link #evaluate(Map)}
   * @throws ExpressionEvaluationException as for {@link #evaluate(Map)}
   */
  public Object evaluate(Map<String, ?> env, Clock clock) throws ExpressionEvaluationException {
    Map<String, ?> vars = env == null ? Map.of() : env;
    for (Map.Entry<String, Integer> name : freeNames.entrySet()) {
      if (!vars.containsKey(name.getKey())) {
        throw new ExpressionEvaluationException("unknown name " + name.getKey(), name.getValue());
      }
    }
    for (Map.Entry<String, Integer> function : freeFunctions.entrySet()) {
      if (!vars.containsKey(function.getKey())) {
        throw new ExpressionEvaluationException(
            "unknown func " + function.getKey(), function.getValue());
      }
    }
    try {
      return Values.normalize(
          new Interpreter(vars, Objects.requireNonNull(clock, "clock")).eval(root, null));
    } catch (StackOverflowError e) {
      throw new ExpressionEvaluationException("expression too deeply nested", 0);
    } catch (ExpressionEvaluationException e) {
      throw e;
    } catch (RuntimeException e) {
      // Overflow in time arithmetic and the like: still an evaluation error, never a crash of the
      // caller.
      throw new ExpressionEvaluationException("runtime error: " + e.getMessage(), -1);
    }
  }

  /**
   * Returns the text this expression was parsed from.
   *
   * @return the source, unchanged
   */
  public String source() {
    return source;
  }

  /**
   * Returns the names the expression reads from its environment (not counting built-in functions).
   *
   * @return variable and function names, in order of first use
   */
  public Set<String> names() {
    Set<String> all = new java.util.LinkedHashSet<>(freeNames.keySet());
    all.addAll(freeFunctions.keySet());
    return all;
  }

  /**
   * Formats an evaluation error of this expression with its place in the source, for messages shown
   * to users.
   *
   * @param error an error thrown by {@link #evaluate(Map)} of this expression
   * @return for example {@code unknown name foo (1:1)}; the bare message when the error has no
   *     position
   */
  public String describe(ExpressionEvaluationException error) {
    if (error.position() < 0) {
      return error.getMessage();
    }
    return error.getMessage() + " " + Positions.lineColumn(source, error.position());
  }

  @Override
  public String toString() {
    return source;
  }

  private static void collectFree(
      Node node, Set<String> bound, Map<String, Integer> names, Map<String, Integer> functions) {
    if (node == null) {
      return;
    }
    List<Node> children = new ArrayList<>();
    if (node instanceof Node.Ident n) {
      if (!bound.contains(n.name()) && !n.name().equals(Interpreter.ENV_NAME)) {
        names.putIfAbsent(n.name(), n.pos());
      }
    } else if (node instanceof Node.Let n) {
      collectFree(n.value(), bound, names, functions);
      Set<String> inner = new HashSet<>(bound);
      inner.add(n.name());
      collectFree(n.body(), inner, names, functions);
    } else if (node instanceof Node.Call n) {
      if (!Builtins.isBuiltin(n.name())) {
        functions.putIfAbsent(n.name(), n.pos());
      }
      children.addAll(n.args());
    } else if (node instanceof Node.ArrayLit n) {
      children.addAll(n.items());
    } else if (node instanceof Node.MapLit n) {
      children.addAll(n.keys());
      children.addAll(n.values());
    } else if (node instanceof Node.Unary n) {
      children.add(n.operand());
    } else if (node instanceof Node.Binary n) {
      children.add(n.left());
      children.add(n.right());
    } else if (node instanceof Node.Member n) {
      children.add(n.object());
      children.add(n.key());
    } else if (node instanceof Node.Slice n) {
      children.add(n.object());
      children.add(n.from());
      children.add(n.to());
    } else if (node instanceof Node.Closure n) {
      children.add(n.body());
    } else if (node instanceof Node.Conditional n) {
      children.add(n.cond());
      children.add(n.then());
      children.add(n.otherwise());
    } else if (node instanceof Node.Chain n) {
      children.add(n.node());
    } else if (node instanceof Node.MethodCall n) {
      children.add(n.object());
      children.addAll(n.args());
    }
    for (Node child : children) {
      collectFree(child, bound, names, functions);
    }
  }
}
