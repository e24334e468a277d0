package io.rollgate.expr;

/**
 * One lexical token with its 0-based start offset. {@code literal} holds the decoded value of
 * numbers and strings.
 */
record Token(Kind kind, String value, Object literal, int pos) {

  enum Kind {
    NUMBER("Number"),
    STRING("String"),
    IDENTIFIER("Identifier"),
    OPERATOR("Operator"),
    BRACKET("Bracket"),
    POINTER("Pointer"),
    EOF("EOF");

    final String display;

    Kind(String display) {
      this.display = display;
    }
  }

  boolean is(Kind k, String v) {
    return kind == k && value.equals(v);
  }

  boolean isOperator(String v) {
    return is(Kind.OPERATOR, v);
  }

  boolean isBracket(String v) {
    return is(Kind.BRACKET, v);
  }

  /** The token as expr-lang prints it in errors: {@code Operator(">")}, {@code EOF}. */
  @Override
  public String toString() {
    if (kind == Kind.EOF) {
      return "EOF";
    }
    return kind.display + "(" + Values.quote(value) + ")";
  }
}
