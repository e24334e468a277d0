package io.rollgate.expr;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Argo Rollouts' measurement verdict (docs/compatibility.md §9.6, {@code
 * metrics[].successCondition} and {@code metrics[].failureCondition}): both conditions compiled
 * once, then judged against each provider value.
 *
 * <p>Rules: neither condition ⇒ {@link Verdict#SUCCESSFUL}; only a success condition ⇒ {@link
 * Verdict#FAILED} when it is false; only a failure condition ⇒ {@link Verdict#SUCCESSFUL} when it
 * is false; both ⇒ FAILED if the failure condition holds, else SUCCESSFUL if the success condition
 * holds, else {@link Verdict#INCONCLUSIVE}. A condition must yield a bool. The environment is
 * Argo's: {@code result} plus {@code asInt}, {@code asFloat}, {@code isNaN}, {@code isInf}, {@code
 * isNil} and {@code default}, where, as in Argo, {@code isNil(x)} and {@code default(x, d)} ignore
 * {@code x} and look at {@code result} itself. Immutable and thread-safe.
 */
public final class AnalysisConditions {

  /** The message Argo gives when a condition fails on a nil or empty result. */
  public static final String NO_DATA_MESSAGE =
      "metric result is nil or empty: no data returned from the metric provider";

  private final Expression success;
  private final Expression failure;

  private AnalysisConditions(Expression success, Expression failure) {
    this.success = success;
    this.failure = failure;
  }

  /**
   * Compiles a metric's conditions.
   *
   * @param successCondition {@code metrics[].successCondition}; null or blank means absent
   * @param failureCondition {@code metrics[].failureCondition}; null or blank means absent
   * @return the compiled conditions
   * @throws ExpressionSyntaxException when a condition does not parse; the message reads {@code
   *     could not evaluate successCondition "<expr>": <reason> (line:column)} (or {@code
   *     failureCondition}) and {@link ExpressionSyntaxException#position()} is the offset inside
   *     that condition
   */
  public static AnalysisConditions compile(String successCondition, String failureCondition)
      throws ExpressionSyntaxException {
    return new AnalysisConditions(
        compileOne("successCondition", successCondition),
        compileOne("failureCondition", failureCondition));
  }

  private static Expression compileOne(String field, String source) {
    if (source == null || source.isBlank()) {
      return null;
    }
    try {
      return Expression.parse(source);
    } catch (ExpressionSyntaxException e) {
      throw e.withPrefix(prefix(field, source));
    }
  }

  private static String prefix(String field, String source) {
    return "could not evaluate " + field + " \"" + source + "\": ";
  }

  /**
   * Returns the success condition's source.
   *
   * @return the expression text, or null when absent
   */
  public String successCondition() {
    return success == null ? null : success.source();
  }

  /**
   * Returns the failure condition's source.
   *
   * @return the expression text, or null when absent
   */
  public String failureCondition() {
    return failure == null ? null : failure.source();
  }

  /**
   * Judges one measurement value, with {@code now()} reading the system clock.
   *
   * @param result the provider's value (Prometheus: Double or List of Double; Web: decoded JSON or
   *     the raw body)
   * @return the verdict
   * @throws ExpressionEvaluationException when a condition cannot be evaluated or does not yield a
   *     bool (the measurement is then an Error); the message is Argo's: {@code could not evaluate
   *     successCondition "<expr>": <err>} (or {@code failureCondition}), or {@value
   *     #NO_DATA_MESSAGE} when the result is null or an empty list
   */
  public Verdict evaluate(Object result) throws ExpressionEvaluationException {
    return evaluate(result, Clock.systemUTC());
  }

  /**
   * Judges one measurement value with {@code now()} reading the given clock.
   *
   * @param result the provider's value
   * @param clock the time source for {@code now()}
   * @return the verdict
   * @throws ExpressionEvaluationException as for {@link #evaluate(Object)}
   */
  public Verdict evaluate(Object result, Clock clock) throws ExpressionEvaluationException {
    boolean successHolds = false;
    boolean failureHolds = false;
    if (success == null && failure == null) {
      return Verdict.SUCCESSFUL;
    }
    Object argoResult = Values.numbersAsFloat(result);
    Map<String, Object> env = environmentOf(argoResult);
    if (success != null) {
      successHolds = condition("successCondition", success, env, argoResult, clock);
    }
    if (failure != null) {
      failureHolds = condition("failureCondition", failure, env, argoResult, clock);
    }
    if (failure == null) {
      failureHolds = !successHolds;
    } else if (success == null) {
      successHolds = !failureHolds;
    }
    if (failureHolds) {
      return Verdict.FAILED;
    }
    return successHolds ? Verdict.SUCCESSFUL : Verdict.INCONCLUSIVE;
  }

  private static boolean condition(
      String field, Expression expression, Map<String, Object> env, Object result, Clock clock) {
    String reason;
    int position;
    try {
      Object value = expression.evaluate(env, clock);
      if (value instanceof Boolean b) {
        return b;
      }
      reason = "expected bool, but got " + goType(value, result);
      position = -1;
    } catch (ExpressionEvaluationException e) {
      reason = e.getMessage();
      position = e.position();
    }
    if (result == null || (result instanceof List<?> list && list.isEmpty())) {
      throw new ExpressionEvaluationException(NO_DATA_MESSAGE, position);
    }
    throw new ExpressionEvaluationException(prefix(field, expression.source()) + reason, position);
  }

  /**
   * Go's type name of a condition's value. The result itself keeps its provider type: a Prometheus
   * vector is a Go {@code []float64}, which Java cannot tell from a JSON array, so a list of only
   * floats that is the result is named so.
   */
  private static String goType(Object value, Object result) {
    if (value == result
        && value instanceof List<?> list
        && !list.isEmpty()
        && list.stream().allMatch(x -> x instanceof Double)) {
      return "[]float64";
    }
    return Values.typeName(value);
  }

  /**
   * Builds Argo's condition environment for one result: {@code result} and the helper functions.
   * Every number in the result becomes a Double, because every provider value is a Go {@code
   * float64} in Argo (Prometheus samples and decoded JSON alike), so {@code result} behaves, and is
   * named in messages, as there.
   *
   * @param result the provider's value
   * @return a fresh map usable with {@link Expression#evaluate(Map)}
   */
  public static Map<String, Object> environment(Object result) {
    return environmentOf(Values.numbersAsFloat(result));
  }

  private static Map<String, Object> environmentOf(Object result) {
    Map<String, Object> env = new HashMap<>();
    env.put("result", result);
    env.put("asInt", (ExprFunction) args -> asInt(arity("asInt", args, 1).get(0)));
    env.put("asFloat", (ExprFunction) args -> asFloat(arity("asFloat", args, 1).get(0)));
    env.put(
        "isNaN",
        (ExprFunction)
            args -> {
              Object v = Values.normalize(arity("isNaN", args, 1).get(0));
              return v instanceof Number n ? Double.isNaN(n.doubleValue()) : invalid("isNaN", v);
            });
    env.put(
        "isInf",
        (ExprFunction)
            args -> {
              Object v = Values.normalize(arity("isInf", args, 1).get(0));
              return v instanceof Number n
                  ? Double.isInfinite(n.doubleValue())
                  : invalid("isInf", v);
            });
    // Argo's quirk: both ignore their first argument and look at the result the conditions are
    // judged against.
    env.put(
        "isNil",
        (ExprFunction)
            args -> {
              arity("isNil", args, 1);
              return result == null;
            });
    env.put(
        "default",
        (ExprFunction)
            args -> {
              arity("default", args, 2);
              return result == null ? args.get(1) : result;
            });
    return env;
  }

  private static List<Object> arity(String name, List<Object> args, int expected) {
    if (args.size() < expected) {
      throw new ExpressionEvaluationException("not enough arguments to call " + name);
    }
    if (args.size() > expected) {
      throw new ExpressionEvaluationException("too many arguments to call " + name);
    }
    return args;
  }

  private static Object invalid(String name, Object v) {
    throw new ExpressionEvaluationException(
        "invalid argument for " + name + " (type " + Values.typeName(v) + ")");
  }

  /** Argo's {@code asInt}: int64 of a number (floats truncated) or of a base-10 string. */
  private static Object asInt(Object v) {
    v = Values.normalize(v);
    if (v instanceof Long) {
      return v;
    } else if (v instanceof Double d) {
      return d.longValue();
    } else if (v instanceof String s) {
      return Builtins.parseInt("strconv.ParseInt", s, -1);
    }
    throw new ExpressionEvaluationException("unsupported type");
  }

  /** Argo's {@code asFloat}: float64 of a number or of a numeric string. */
  private static Object asFloat(Object v) {
    v = Values.normalize(v);
    if (v instanceof Number n) {
      return n.doubleValue();
    } else if (v instanceof String s) {
      return Builtins.parseFloat(s, -1);
    }
    throw new ExpressionEvaluationException("unsupported type");
  }
}
