package io.rollgate.expr;

/**
 * An expression that cannot be parsed. The message reads like expr-lang's, followed by the 1-based
 * {@code (line:column)} of the offending token, for example {@code unexpected token Operator(">")
 * (1:9)}.
 */
public class ExpressionSyntaxException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final int position;
  private final String reason;

  /**
   * Creates the exception for a problem found at {@code position} in {@code source}.
   *
   * @param source the whole expression text, used to compute line and column
   * @param position 0-based character offset of the problem
   * @param reason what is wrong, without position
   */
  public ExpressionSyntaxException(String source, int position, String reason) {
    this(reason + " " + Positions.lineColumn(source, position), reason, position);
  }

  private ExpressionSyntaxException(String message, String reason, int position) {
    super(message);
    this.position = position;
    this.reason = reason;
  }

  /**
   * Returns a copy whose message starts with {@code prefix}, keeping position and reason.
   *
   * @param prefix text put before this message, for example {@code could not evaluate
   *     successCondition "x": }
   * @return the new exception
   */
  public ExpressionSyntaxException withPrefix(String prefix) {
    return new ExpressionSyntaxException(prefix + getMessage(), reason, position);
  }

  /**
   * Returns where the problem is.
   *
   * @return the 0-based character offset into the expression source
   */
  public int position() {
    return position;
  }

  /**
   * Returns what is wrong, without the position suffix.
   *
   * @return for example {@code unexpected token EOF}
   */
  public String reason() {
    return reason;
  }
}
