package io.rollgate.expr;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random token soup (fixed seed, so failures reproduce): parsing only ever throws {@link
 * ExpressionSyntaxException} and evaluation only {@link ExpressionEvaluationException}, whatever
 * users type into a condition.
 */
class RobustnessTest {

  private static final String[] PIECES = {
    "result",
    "vec",
    "m",
    "s",
    "n",
    "ints",
    "users",
    "1",
    "0",
    "-1",
    "2.5",
    "1e3",
    "\"x\"",
    "'y'",
    "nil",
    "true",
    "false",
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    ",",
    ":",
    "?",
    "?.",
    ".",
    "..",
    "#",
    "#index",
    ".name",
    "+",
    "-",
    "*",
    "/",
    "%",
    "**",
    "==",
    "!=",
    "<",
    ">=",
    "&&",
    "||",
    "!",
    "not",
    "in",
    "and",
    "or",
    "??",
    "|",
    "matches",
    "contains",
    "len(",
    "all(",
    "map(",
    "filter(",
    "sum(",
    "max(",
    "int(",
    "string(",
    "split(",
    "duration(",
    "now()",
    "let x = ",
    ";",
    "x",
    "if",
    "else",
    "`raw`",
    "\\",
    "@",
    "0x",
    "1_0",
    ".5",
    "startsWith",
    "[1:2]",
    "[-1]",
  };

  @Test
  void onlyOurExceptionsEscape() {
    Random random = new Random(20261130L);
    int parsed = 0;
    int evaluated = 0;
    for (int i = 0; i < 30_000; i++) {
      StringBuilder source = new StringBuilder();
      int length = 1 + random.nextInt(9);
      for (int j = 0; j < length; j++) {
        source
            .append(PIECES[random.nextInt(PIECES.length)])
            .append(random.nextInt(3) == 0 ? "" : " ");
      }
      String text = source.toString();
      Expression expression;
      try {
        expression = Expression.parse(text);
      } catch (ExpressionSyntaxException expected) {
        continue;
      } catch (RuntimeException | StackOverflowError e) {
        fail("parse of <" + text + "> threw " + e, e);
        return;
      }
      parsed++;
      try {
        expression.evaluate(ExpressionTableTest.ENV);
        evaluated++;
      } catch (ExpressionEvaluationException expected) {
        // A clear evaluation error is fine; an internal failure caught by the safety net is a bug.
        if (expected.getMessage().startsWith("runtime error:")
            && !expected.getMessage().equals("runtime error: integer divide by zero")) {
          fail("evaluation of <" + text + "> hit an internal failure: " + expected.getMessage());
        }
      } catch (RuntimeException | StackOverflowError e) {
        fail("evaluation of <" + text + "> threw " + e, e);
      }
    }
    // The soup must reach the evaluator often enough for this test to mean something.
    assertTrue(parsed > 1_000 && evaluated > 300, "parsed " + parsed + ", evaluated " + evaluated);
  }
}
