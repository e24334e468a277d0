package io.rollgate.expr;

import java.util.List;

/**
 * A function made available to an expression through its environment: an environment entry whose
 * value implements this interface may be called by name, as {@code asInt(result)} is in Argo
 * Rollouts' condition environment. A function reports bad input by throwing {@link
 * ExpressionEvaluationException} (or any runtime exception, whose message becomes the evaluation
 * error).
 */
@FunctionalInterface
public interface ExprFunction {

  /**
   * Calls the function.
   *
   * @param args the evaluated arguments, JSON-like values (Long for integers, Double for floats)
   * @return the result, a JSON-like value
   */
  Object call(List<Object> args);
}
