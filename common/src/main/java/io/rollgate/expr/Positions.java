package io.rollgate.expr;

/** Turns character offsets into expr-lang's {@code (line:column)} notation (both 1-based). */
final class Positions {

  private Positions() {}

  static String lineColumn(String source, int position) {
    int line = 1;
    int column = 1;
    int end = Math.min(Math.max(position, 0), source.length());
    for (int i = 0; i < end; i++) {
      if (source.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return "(" + line + ":" + column + ")";
  }
}
