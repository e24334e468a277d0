package io.rollgate.expr;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * expr-lang's binary operators on evaluated operands (the short-circuiting ones live in the
 * interpreter).
 */
final class Operators {

  private Operators() {}

  static Object apply(String op, Object a, Object b, int pos) {
    a = Values.normalize(a);
    b = Values.normalize(b);
    Object result =
        switch (op) {
          case "==" -> Values.equal(a, b);
          case "!=" -> !Values.equal(a, b);
          case "<", ">", "<=", ">=" -> compare(op, a, b);
          case "+" -> add(a, b);
          case "-" -> subtract(a, b);
          case "*" -> multiply(a, b);
          case "/" -> divide(a, b);
          case "%" -> modulo(a, b, pos);
          case "**", "^" ->
              a instanceof Number && b instanceof Number
                  ? (Object) Math.pow(Values.toDouble(a), Values.toDouble(b))
                  : null;
          case "in" -> in(a, b, pos);
          case "contains" ->
              a instanceof String x && b instanceof String y ? (Object) x.contains(y) : null;
          case "startsWith" ->
              a instanceof String x && b instanceof String y ? (Object) x.startsWith(y) : null;
          case "endsWith" ->
              a instanceof String x && b instanceof String y ? (Object) x.endsWith(y) : null;
          case "matches" -> matches(a, b, pos);
          case ".." -> range(a, b, pos);
          default -> throw Interpreter.error(pos, "unknown operator " + op);
        };
    if (result == null) {
      throw mismatch(op, a, b, pos);
    }
    return result;
  }

  static ExpressionEvaluationException mismatch(String op, Object a, Object b, int pos) {
    return Interpreter.error(
        pos, "invalid operation: " + Values.typeName(a) + " " + op + " " + Values.typeName(b));
  }

  private static Object compare(String op, Object a, Object b) {
    int c;
    if (a instanceof Long x && b instanceof Long y) {
      c = Long.compare(x, y);
    } else if (a instanceof Number && b instanceof Number) {
      double x = Values.toDouble(a);
      double y = Values.toDouble(b);
      if (Double.isNaN(x) || Double.isNaN(y)) {
        return false;
      }
      c = Double.compare(x, y);
      if (x == y) {
        c = 0;
      }
    } else if (a instanceof String x && b instanceof String y) {
      c = compareCodePoints(x, y);
    } else if (a instanceof Instant x && b instanceof Instant y) {
      c = x.compareTo(y);
    } else if (a instanceof Duration x && b instanceof Duration y) {
      c = x.compareTo(y);
    } else {
      return null;
    }
    return switch (op) {
      case "<" -> c < 0;
      case ">" -> c > 0;
      case "<=" -> c <= 0;
      default -> c >= 0;
    };
  }

  /** Go compares strings byte-wise in UTF-8, which is code point order. */
  private static int compareCodePoints(String x, String y) {
    int i = 0;
    int j = 0;
    while (i < x.length() && j < y.length()) {
      int cx = x.codePointAt(i);
      int cy = y.codePointAt(j);
      if (cx != cy) {
        return Integer.compare(cx, cy);
      }
      i += Character.charCount(cx);
      j += Character.charCount(cy);
    }
    return Boolean.compare(i < x.length(), j < y.length());
  }

  private static Object add(Object a, Object b) {
    if (a instanceof Long x && b instanceof Long y) {
      return x + y;
    } else if (a instanceof Number && b instanceof Number) {
      return Values.toDouble(a) + Values.toDouble(b);
    } else if (a instanceof String x && b instanceof String y) {
      return x + y;
    } else if (a instanceof Instant x && b instanceof Duration y) {
      return x.plus(y);
    } else if (a instanceof Duration x && b instanceof Instant y) {
      return y.plus(x);
    } else if (a instanceof Duration x && b instanceof Duration y) {
      return x.plus(y);
    }
    return null;
  }

  private static Object subtract(Object a, Object b) {
    if (a instanceof Long x && b instanceof Long y) {
      return x - y;
    } else if (a instanceof Number && b instanceof Number) {
      return Values.toDouble(a) - Values.toDouble(b);
    } else if (a instanceof Instant x && b instanceof Duration y) {
      return x.minus(y);
    } else if (a instanceof Instant x && b instanceof Instant y) {
      return Duration.between(y, x);
    } else if (a instanceof Duration x && b instanceof Duration y) {
      return x.minus(y);
    }
    return null;
  }

  private static Object multiply(Object a, Object b) {
    if (a instanceof Long x && b instanceof Long y) {
      return x * y;
    } else if (a instanceof Number && b instanceof Number) {
      return Values.toDouble(a) * Values.toDouble(b);
    } else if (a instanceof Duration x && b instanceof Long y) {
      return x.multipliedBy(y);
    } else if (a instanceof Long x && b instanceof Duration y) {
      return y.multipliedBy(x);
    }
    return null;
  }

  /**
   * expr-lang's {@code /} always yields a float: {@code 7 / 2 == 3.5}; division by zero gives ±Inf
   * or NaN.
   */
  private static Object divide(Object a, Object b) {
    if (a instanceof Number && b instanceof Number) {
      return Values.toDouble(a) / Values.toDouble(b);
    }
    return null;
  }

  private static Object modulo(Object a, Object b, int pos) {
    if (a instanceof Long x && b instanceof Long y) {
      if (y == 0) {
        throw Interpreter.error(pos, "runtime error: integer divide by zero");
      }
      return x % y;
    }
    return null;
  }

  private static Object in(Object needle, Object haystack, int pos) {
    if (haystack == null) {
      return false;
    }
    if (haystack instanceof List<?> list) {
      for (Object item : list) {
        if (Values.equal(item, needle)) {
          return true;
        }
      }
      return false;
    }
    if (haystack instanceof Map<?, ?> map) {
      return needle instanceof String && map.containsKey(needle);
    }
    throw Interpreter.error(pos, "operator \"in\" not defined on " + Values.typeName(haystack));
  }

  private static Object matches(Object a, Object b, int pos) {
    if (!(a instanceof String s)) {
      return null;
    }
    if (b instanceof Pattern p) {
      return p.matcher(s).find();
    }
    if (b instanceof String re) {
      return Interpreter.regex(re, pos).matcher(s).find();
    }
    return null;
  }

  private static Object range(Object a, Object b, int pos) {
    if (!(a instanceof Long from) || !(b instanceof Long to)) {
      return null;
    }
    if ((double) to - (double) from >= Interpreter.MAX_ELEMENTS) {
      throw Interpreter.error(pos, "memory budget exceeded");
    }
    List<Object> out = new ArrayList<>();
    for (long i = from; i <= to; i++) {
      out.add(i);
    }
    return out;
  }
}
