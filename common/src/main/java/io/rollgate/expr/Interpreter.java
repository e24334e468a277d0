package io.rollgate.expr;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Walks a syntax tree against one environment. One instance per evaluation; never shared between
 * threads.
 */
final class Interpreter {

  /**
   * The variable holding the whole environment as a map, as in expr-lang ({@code 'foo' in $env}).
   */
  static final String ENV_NAME = "$env";

  /**
   * Largest array or string a range or {@code repeat} may build; expr-lang calls this its memory
   * budget.
   */
  static final int MAX_ELEMENTS = 1_000_000;

  /**
   * Thrown by {@code ?.} on nil and caught by the enclosing {@link Node.Chain}; carries no stack
   * trace.
   */
  private static final class ShortCircuit extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final ShortCircuit INSTANCE = new ShortCircuit();

    private ShortCircuit() {
      super(null, null, false, false);
    }
  }

  /** A lexical frame: a {@code let} variable or a predicate's current element. */
  record Frame(
      Frame parent,
      String letName,
      Object letValue,
      boolean closure,
      Object element,
      long index,
      Object acc) {

    Frame let(String name, Object value) {
      return new Frame(this, name, value, false, null, 0, null);
    }

    Frame element(Object element, long index, Object acc) {
      return new Frame(this, null, null, true, element, index, acc);
    }
  }

  private final Map<String, ?> env;
  private final Clock clock;

  Interpreter(Map<String, ?> env, Clock clock) {
    this.env = env;
    this.clock = clock;
  }

  Map<String, ?> env() {
    return env;
  }

  static ExpressionEvaluationException error(int pos, String message) {
    return new ExpressionEvaluationException(message, pos);
  }

  Object eval(Node node, Frame frame) {
    if (node instanceof Node.Literal n) {
      return n.value();
    } else if (node instanceof Node.Ident n) {
      return lookup(n, frame);
    } else if (node instanceof Node.Pointer n) {
      return pointer(n, frame);
    } else if (node instanceof Node.Binary n) {
      return binary(n, frame);
    } else if (node instanceof Node.Member n) {
      Object object = eval(n.object(), frame);
      if (object == null && n.optional()) {
        throw ShortCircuit.INSTANCE;
      }
      return fetch(object, eval(n.key(), frame), n.pos());
    } else if (node instanceof Node.Call n) {
      return Builtins.call(this, n, frame);
    } else if (node instanceof Node.Unary n) {
      return unary(n, frame);
    } else if (node instanceof Node.Conditional n) {
      Object cond = eval(n.cond(), frame);
      if (!(cond instanceof Boolean)) {
        throw error(
            n.pos(), "non-bool expression (type " + Values.typeName(cond) + ") used as condition");
      }
      return (Boolean) cond ? eval(n.then(), frame) : eval(n.otherwise(), frame);
    } else if (node instanceof Node.ArrayLit n) {
      List<Object> out = new ArrayList<>(n.items().size());
      for (Node item : n.items()) {
        out.add(eval(item, frame));
      }
      return out;
    } else if (node instanceof Node.MapLit n) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (int i = 0; i < n.keys().size(); i++) {
        Object key = eval(n.keys().get(i), frame);
        if (!(key instanceof String)) {
          throw error(
              n.keys().get(i).pos(), "map key must be a string, got " + Values.typeName(key));
        }
        out.put((String) key, eval(n.values().get(i), frame));
      }
      return out;
    } else if (node instanceof Node.Slice n) {
      return slice(n, frame);
    } else if (node instanceof Node.Chain n) {
      try {
        return eval(n.node(), frame);
      } catch (ShortCircuit nil) {
        return null;
      }
    } else if (node instanceof Node.Let n) {
      Object value = eval(n.value(), frame);
      return eval(n.body(), new Frame(frame, n.name(), value, false, null, 0, null));
    } else if (node instanceof Node.MethodCall n) {
      Object object = eval(n.object(), frame);
      if (object == null && n.optional()) {
        throw ShortCircuit.INSTANCE;
      }
      List<Object> args = new ArrayList<>(n.args().size());
      for (Node arg : n.args()) {
        args.add(eval(arg, frame));
      }
      return Methods.call(object, n.name(), args, n.pos());
    } else if (node instanceof Node.Closure n) {
      throw error(n.pos(), "a predicate can only be used as a function argument");
    }
    throw new IllegalStateException("unknown node " + node);
  }

  private Object lookup(Node.Ident n, Frame frame) {
    for (Frame f = frame; f != null; f = f.parent()) {
      if (n.name().equals(f.letName())) {
        return f.letValue();
      }
    }
    if (!env.containsKey(n.name())) {
      if (n.name().equals(ENV_NAME)) {
        return java.util.Collections.unmodifiableMap(env);
      }
      throw error(n.pos(), "unknown name " + n.name());
    }
    return Values.normalize(env.get(n.name()));
  }

  private static Object pointer(Node.Pointer n, Frame frame) {
    for (Frame f = frame; f != null; f = f.parent()) {
      if (f.closure()) {
        switch (n.name()) {
          case "index":
            return f.index();
          case "acc":
            return f.acc();
          default:
            return Values.normalize(f.element());
        }
      }
    }
    throw error(n.pos(), "cannot use pointer accessor outside predicate");
  }

  private Object unary(Node.Unary n, Frame frame) {
    Object v = eval(n.operand(), frame);
    switch (n.op()) {
      case "not":
        if (v instanceof Boolean) {
          return !(Boolean) v;
        }
        break;
      case "-":
        if (v instanceof Long) {
          return -(Long) v;
        } else if (v instanceof Double) {
          return -(Double) v;
        } else if (v instanceof Duration) {
          return ((Duration) v).negated();
        }
        break;
      case "+":
        if (v instanceof Long || v instanceof Double || v instanceof Duration) {
          return v;
        }
        break;
      default:
        break;
    }
    String symbol = n.op().equals("not") ? "!" : n.op();
    throw error(
        n.pos(), "invalid operation: " + symbol + " (mismatched type " + Values.typeName(v) + ")");
  }

  private Object binary(Node.Binary n, Frame frame) {
    String op = n.op();
    switch (op) {
      case "&&", "and", "||", "or" -> {
        Object left = eval(n.left(), frame);
        if (!(left instanceof Boolean)) {
          throw error(
              n.pos(),
              "invalid operation: operator " + op + " not defined on " + Values.typeName(left));
        }
        boolean and = op.equals("&&") || op.equals("and");
        if ((Boolean) left != and) {
          return left;
        }
        // As in expr-lang's VM, the right operand is the result as is; a non-bool surfaces where a
        // bool is needed.
        return eval(n.right(), frame);
      }
      case "??" -> {
        Object left = eval(n.left(), frame);
        return left != null ? left : eval(n.right(), frame);
      }
      default -> {
        Object left = eval(n.left(), frame);
        Object right = eval(n.right(), frame);
        return Operators.apply(op, left, right, n.pos());
      }
    }
  }

  /**
   * expr-lang's member/index access: maps by key (missing ⇒ nil), arrays and strings by (negative)
   * index.
   */
  static Object fetch(Object from, Object key, int pos) {
    from = Values.normalize(from);
    if (from instanceof Map<?, ?> map) {
      if (key instanceof String) {
        return Values.normalize(map.get(key));
      }
    } else if (from instanceof List<?> list) {
      if (key instanceof Number) {
        return Values.normalize(list.get(index(Values.toLong(key), list.size(), pos)));
      }
    } else if (from instanceof String s) {
      if (key instanceof Number) {
        int i = index(Values.toLong(key), s.length(), pos);
        return s.substring(i, i + 1);
      }
    }
    throw error(pos, "cannot fetch " + Values.format(key) + " from " + Values.typeName(from));
  }

  private static int index(long i, int length, int pos) {
    long adjusted = i < 0 ? length + i : i;
    if (adjusted < 0 || adjusted >= length) {
      throw error(pos, "index out of range: " + adjusted + " (array length is " + length + ")");
    }
    return (int) adjusted;
  }

  private Object slice(Node.Slice n, Frame frame) {
    Object from = eval(n.object(), frame);
    Object lo = n.from() == null ? null : eval(n.from(), frame);
    Object hi = n.to() == null ? null : eval(n.to(), frame);
    int length;
    if (from instanceof List<?> list) {
      length = list.size();
    } else if (from instanceof String s) {
      length = s.length();
    } else {
      throw error(n.pos(), "cannot slice " + Values.typeName(from));
    }
    for (Object bound : new Object[] {lo, hi}) {
      if (bound != null && !Values.isInt(bound)) {
        throw error(n.pos(), "invalid slice index (type " + Values.typeName(bound) + ")");
      }
    }
    long a = lo == null ? 0 : Values.toLong(lo);
    long b = hi == null ? length : Values.toLong(hi);
    a = a < 0 ? Math.max(0, length + a) : Math.min(a, length);
    b = b < 0 ? Math.max(0, length + b) : Math.min(b, length);
    if (a > b) {
      a = b;
    }
    if (from instanceof String s) {
      return s.substring((int) a, (int) b);
    }
    return new ArrayList<Object>(((List<?>) from).subList((int) a, (int) b));
  }

  /** Compiles a {@code matches} pattern; Go's RE2 syntax is, for the common subset, Java's. */
  static Pattern regex(String pattern, int pos) {
    try {
      return Pattern.compile(pattern);
    } catch (PatternSyntaxException e) {
      throw error(pos, "error parsing regexp: " + e.getDescription() + ": `" + pattern + "`");
    }
  }

  Instant now() {
    return clock.instant();
  }
}
