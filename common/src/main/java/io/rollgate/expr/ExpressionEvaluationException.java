package io.rollgate.expr;

/**
 * An expression that failed while being evaluated: unknown name, type mismatch, index out of range,
 * a function that rejected its argument... The message is the bare reason worded as expr-lang words
 * it (for example {@code invalid operation: string > int}), which is what Argo Rollouts puts in a
 * measurement message; {@link #position()} tells where in the source the failing node starts.
 */
public class ExpressionEvaluationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int position;

  /**
   * Creates the exception.
   *
   * @param message the reason
   * @param position 0-based character offset of the failing node, or -1 when not tied to one
   */
  public ExpressionEvaluationException(String message, int position) {
    super(message);
    this.position = position;
  }

  /**
   * Creates the exception without a position.
   *
   * @param message the reason
   */
  public ExpressionEvaluationException(String message) {
    this(message, -1);
  }

  /**
   * Returns where evaluation failed.
   *
   * @return the 0-based character offset of the failing node, or -1 when unknown
   */
  public int position() {
    return position;
  }
}
