package io.rollgate.expr;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.rollgate.defaults.GoDurations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * expr-lang's built-in functions. Predicate functions receive their predicate as a {@link
 * Node.Closure}.
 */
final class Builtins {

  /** name → {min, max} argument count; max -1 means variadic. */
  private static final Map<String, int[]> ARITY = new HashMap<>();

  private static final Set<String> PREDICATES =
      Set.of(
          "all",
          "any",
          "none",
          "one",
          "filter",
          "map",
          "count",
          "find",
          "findIndex",
          "findLast",
          "findLastIndex",
          "groupBy",
          "sortBy",
          "reduce",
          "sum");
  private static final Pattern GO_FLOAT =
      Pattern.compile(
          "[+-]?(?:(?:\\d+(?:_\\d+)*)?\\.?\\d*(?:[eE][+-]?\\d+)?|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|[nN][aA][nN])");
  private static final Pattern GO_INT = Pattern.compile("[+-]?\\d+");

  static {
    for (String name :
        List.of(
            "len",
            "abs",
            "int",
            "float",
            "string",
            "upper",
            "lower",
            "first",
            "last",
            "keys",
            "values",
            "duration",
            "type",
            "ceil",
            "floor",
            "round",
            "reverse",
            "uniq",
            "flatten",
            "toPairs",
            "fromPairs")) {
      ARITY.put(name, new int[] {1, 1});
    }
    for (String name :
        List.of(
            "all",
            "any",
            "none",
            "one",
            "filter",
            "map",
            "find",
            "findIndex",
            "findLast",
            "findLastIndex",
            "groupBy",
            "trimPrefix",
            "trimSuffix",
            "take",
            "repeat",
            "indexOf",
            "lastIndexOf",
            "hasPrefix",
            "hasSuffix",
            "get")) {
      ARITY.put(name, new int[] {2, 2});
    }
    ARITY.put("count", new int[] {1, 2});
    ARITY.put("sum", new int[] {1, 2});
    ARITY.put("sortBy", new int[] {2, 3});
    ARITY.put("reduce", new int[] {2, 3});
    ARITY.put("trim", new int[] {1, 2});
    ARITY.put("split", new int[] {2, 3});
    ARITY.put("join", new int[] {1, 2});
    ARITY.put("sort", new int[] {1, 2});
    ARITY.put("replace", new int[] {3, 3});
    ARITY.put("now", new int[] {0, 0});
    ARITY.put("splitAfter", new int[] {2, 3});
    ARITY.put("date", new int[] {1, 3});
    for (String name : List.of("toBase64", "fromBase64", "toJSON", "fromJSON", "bitnot")) {
      ARITY.put(name, new int[] {1, 1});
    }
    for (String name :
        List.of("bitand", "bitor", "bitxor", "bitnand", "bitshl", "bitshr", "bitushr")) {
      ARITY.put(name, new int[] {2, 2});
    }
    for (String name : List.of("max", "min", "mean", "median", "concat")) {
      ARITY.put(name, new int[] {1, -1});
    }
  }

  private Builtins() {}

  static boolean isBuiltin(String name) {
    return ARITY.containsKey(name);
  }

  /** Index of the argument parsed as a predicate for {@code name}, or -1. */
  static int predicateArgument(String name) {
    return PREDICATES.contains(name) ? 1 : -1;
  }

  static void checkArity(String name, int count, String src, int pos) {
    int[] arity = ARITY.get(name);
    if (arity == null) {
      return;
    }
    if (count < arity[0]) {
      throw new ExpressionSyntaxException(src, pos, "not enough arguments to call " + name);
    }
    if (arity[1] >= 0 && count > arity[1]) {
      throw new ExpressionSyntaxException(src, pos, "too many arguments to call " + name);
    }
  }

  static Object call(Interpreter in, Node.Call n, Interpreter.Frame frame) {
    Object fromEnv = in.env().get(n.name());
    if (fromEnv instanceof ExprFunction f) {
      return callEnv(in, f, n, frame);
    }
    if (fromEnv != null || in.env().containsKey(n.name())) {
      throw Interpreter.error(
          n.pos(), n.name() + " is not a function (type " + Values.typeName(fromEnv) + ")");
    }
    if (!isBuiltin(n.name())) {
      throw Interpreter.error(n.pos(), "unknown func " + n.name());
    }
    if (PREDICATES.contains(n.name()) && n.args().size() > 1) {
      return predicate(in, n, frame);
    }
    List<Object> args = new ArrayList<>(n.args().size());
    for (Node arg : n.args()) {
      args.add(in.eval(arg, frame));
    }
    return simple(in, n.name(), args, n.pos());
  }

  private static Object callEnv(
      Interpreter in, ExprFunction f, Node.Call n, Interpreter.Frame frame) {
    List<Object> args = new ArrayList<>(n.args().size());
    for (Node arg : n.args()) {
      if (arg instanceof Node.Closure) {
        throw Interpreter.error(arg.pos(), "a predicate can only be passed to a built-in function");
      }
      args.add(in.eval(arg, frame));
    }
    try {
      return Values.normalize(f.call(args));
    } catch (ExpressionEvaluationException e) {
      throw e.position() >= 0 ? e : Interpreter.error(n.pos(), e.getMessage());
    } catch (RuntimeException e) {
      throw Interpreter.error(n.pos(), String.valueOf(e.getMessage()));
    }
  }

  private static ExpressionEvaluationException invalid(String name, Object arg, int pos) {
    return Interpreter.error(
        pos, "invalid argument for " + name + " (type " + Values.typeName(arg) + ")");
  }

  private static List<?> array(String name, Object v, int pos) {
    if (v instanceof List<?> list) {
      return list;
    }
    throw invalid(name, v, pos);
  }

  private static boolean test(
      Interpreter in, Node body, Interpreter.Frame frame, Object element, long index) {
    Object r =
        in.eval(
            body,
            frame == null
                ? new Interpreter.Frame(null, null, null, true, element, index, null)
                : frame.element(element, index, null));
    if (r instanceof Boolean b) {
      return b;
    }
    throw Interpreter.error(
        body.pos(), "predicate should return boolean (got " + Values.typeName(r) + ")");
  }

  private static Interpreter.Frame scope(
      Interpreter.Frame frame, Object element, long index, Object acc) {
    return frame == null
        ? new Interpreter.Frame(null, null, null, true, element, index, acc)
        : frame.element(element, index, acc);
  }

  private static Object predicate(Interpreter in, Node.Call n, Interpreter.Frame frame) {
    String name = n.name();
    List<?> items = array(name, in.eval(n.args().get(0), frame), n.pos());
    Node body = ((Node.Closure) n.args().get(1)).body();
    switch (name) {
      case "all":
        {
          for (int i = 0; i < items.size(); i++) {
            if (!test(in, body, frame, items.get(i), i)) {
              return false;
            }
          }
          return true;
        }
      case "any":
        {
          for (int i = 0; i < items.size(); i++) {
            if (test(in, body, frame, items.get(i), i)) {
              return true;
            }
          }
          return false;
        }
      case "none":
        {
          for (int i = 0; i < items.size(); i++) {
            if (test(in, body, frame, items.get(i), i)) {
              return false;
            }
          }
          return true;
        }
      case "one":
        {
          int found = 0;
          for (int i = 0; i < items.size(); i++) {
            if (test(in, body, frame, items.get(i), i) && ++found > 1) {
              return false;
            }
          }
          return found == 1;
        }
      case "count":
        {
          long found = 0;
          for (int i = 0; i < items.size(); i++) {
            if (test(in, body, frame, items.get(i), i)) {
              found++;
            }
          }
          return found;
        }
      case "filter":
        {
          List<Object> out = new ArrayList<>();
          for (int i = 0; i < items.size(); i++) {
            if (test(in, body, frame, items.get(i), i)) {
              out.add(items.get(i));
            }
          }
          return out;
        }
      case "map":
        {
          List<Object> out = new ArrayList<>(items.size());
          for (int i = 0; i < items.size(); i++) {
            out.add(in.eval(body, scope(frame, items.get(i), i, null)));
          }
          return out;
        }
      case "sum":
        {
          List<Object> mapped = new ArrayList<>(items.size());
          for (int i = 0; i < items.size(); i++) {
            mapped.add(in.eval(body, scope(frame, items.get(i), i, null)));
          }
          return sum(mapped, n.pos());
        }
      case "find", "findIndex":
        {
          for (int i = 0; i < items.size(); i++) {
            if (test(in, body, frame, items.get(i), i)) {
              return name.equals("find") ? Values.normalize(items.get(i)) : (Object) (long) i;
            }
          }
          return name.equals("find") ? null : (Object) (-1L);
        }
      case "findLast", "findLastIndex":
        {
          for (int i = items.size() - 1; i >= 0; i--) {
            if (test(in, body, frame, items.get(i), i)) {
              return name.equals("findLast") ? Values.normalize(items.get(i)) : (Object) (long) i;
            }
          }
          return name.equals("findLast") ? null : (Object) (-1L);
        }
      case "groupBy":
        {
          Map<String, Object> out = new LinkedHashMap<>();
          for (int i = 0; i < items.size(); i++) {
            Object key = in.eval(body, scope(frame, items.get(i), i, null));
            String k = key instanceof String s ? s : Values.format(key);
            @SuppressWarnings("unchecked")
            List<Object> group = (List<Object>) out.computeIfAbsent(k, x -> new ArrayList<>());
            group.add(items.get(i));
          }
          return out;
        }
      case "sortBy":
        {
          List<Object[]> keyed = new ArrayList<>();
          for (int i = 0; i < items.size(); i++) {
            // sortBy(users, "Age") (a field name, older expr-lang) or sortBy(users, .Age) (a
            // predicate).
            Object key =
                body instanceof Node.Literal lit && lit.value() instanceof String field
                    ? Interpreter.fetch(items.get(i), field, n.pos())
                    : in.eval(body, scope(frame, items.get(i), i, null));
            keyed.add(new Object[] {key, items.get(i)});
          }
          boolean desc = order(in, n, frame, 2);
          Comparator<Object[]> cmp = (x, y) -> compareForSort("sortBy", x[0], y[0], n.pos());
          keyed.sort(desc ? cmp.reversed() : cmp);
          List<Object> out = new ArrayList<>(keyed.size());
          keyed.forEach(k -> out.add(k[1]));
          return out;
        }
      case "reduce":
        {
          int start = 0;
          Object acc;
          if (n.args().size() > 2) {
            acc = in.eval(n.args().get(2), frame);
          } else {
            if (items.isEmpty()) {
              throw Interpreter.error(n.pos(), "reduce of empty array with no initial value");
            }
            acc = Values.normalize(items.get(0));
            start = 1;
          }
          for (int i = start; i < items.size(); i++) {
            acc = in.eval(body, scope(frame, items.get(i), i, acc));
          }
          return acc;
        }
      default:
        throw new IllegalStateException(name);
    }
  }

  private static boolean order(Interpreter in, Node.Call n, Interpreter.Frame frame, int at) {
    if (n.args().size() <= at) {
      return false;
    }
    Object o = in.eval(n.args().get(at), frame);
    if ("asc".equals(o)) {
      return false;
    } else if ("desc".equals(o)) {
      return true;
    }
    throw Interpreter.error(n.args().get(at).pos(), "unknown order, use asc or desc");
  }

  private static int compareForSort(String name, Object a, Object b, int pos) {
    a = Values.normalize(a);
    b = Values.normalize(b);
    if (a instanceof Long x && b instanceof Long y) {
      return Long.compare(x, y);
    } else if (a instanceof Number && b instanceof Number) {
      return Double.compare(Values.toDouble(a), Values.toDouble(b));
    } else if (a instanceof String x && b instanceof String y) {
      return Boolean.TRUE.equals(Operators.apply("<", x, y, pos)) ? -1 : x.equals(y) ? 0 : 1;
    }
    throw Interpreter.error(
        pos,
        "invalid argument for "
            + name
            + " (cannot compare "
            + Values.typeName(a)
            + " and "
            + Values.typeName(b)
            + ")");
  }

  private static Object simple(Interpreter in, String name, List<Object> args, int pos) {
    Object a = args.isEmpty() ? null : Values.normalize(args.get(0));
    switch (name) {
      case "len":
        if (a instanceof String s) {
          return (long) s.codePointCount(0, s.length());
        } else if (a instanceof List<?> l) {
          return (long) l.size();
        } else if (a instanceof Map<?, ?> m) {
          return (long) m.size();
        }
        throw invalid(name, a, pos);
      case "count":
        {
          long c = 0;
          for (Object o : array(name, a, pos)) {
            if (Boolean.TRUE.equals(o)) {
              c++;
            }
          }
          return c;
        }
      case "sum":
        return sum(array(name, a, pos), pos);
      case "abs":
        if (a instanceof Long l) {
          return Math.abs(l);
        } else if (a instanceof Double d) {
          return Math.abs(d);
        }
        throw invalid(name, a, pos);
      case "int":
        if (a instanceof Long) {
          return a;
        } else if (a instanceof Double d) {
          return d.longValue();
        } else if (a instanceof String s) {
          return parseInt("strconv.Atoi", s, pos);
        }
        throw invalid(name, a, pos);
      case "float":
        if (a instanceof Number) {
          return Values.toDouble(a);
        } else if (a instanceof String s) {
          return parseFloat(s, pos);
        }
        throw invalid(name, a, pos);
      case "string":
        return a instanceof String ? a : Values.format(a);
      case "upper":
        return string(name, a, pos).toUpperCase(Locale.ROOT);
      case "lower":
        return string(name, a, pos).toLowerCase(Locale.ROOT);
      case "trim":
        return args.size() == 1
            ? trimSpace(string(name, a, pos))
            : trimChars(string(name, a, pos), string(name, args.get(1), pos));
      case "trimPrefix":
        {
          String s = string(name, a, pos);
          String p = string(name, args.get(1), pos);
          return s.startsWith(p) ? s.substring(p.length()) : s;
        }
      case "trimSuffix":
        {
          String s = string(name, a, pos);
          String p = string(name, args.get(1), pos);
          return s.endsWith(p) ? s.substring(0, s.length() - p.length()) : s;
        }
      case "split":
        return split(
            string(name, a, pos),
            string(name, args.get(1), pos),
            args.size() > 2 ? integer(name, args.get(2), pos) : -1,
            false);
      case "splitAfter":
        return split(
            string(name, a, pos),
            string(name, args.get(1), pos),
            args.size() > 2 ? integer(name, args.get(2), pos) : -1,
            true);
      case "toBase64":
        return java.util.Base64.getEncoder().encodeToString(string(name, a, pos).getBytes(UTF_8));
      case "fromBase64":
        try {
          return new String(java.util.Base64.getDecoder().decode(string(name, a, pos)), UTF_8);
        } catch (IllegalArgumentException e) {
          throw Interpreter.error(pos, "illegal base64 data: " + e.getMessage());
        }
      case "toJSON":
        return Json.write(a, pos);
      case "fromJSON":
        return Json.read(string(name, a, pos), pos);
      case "date":
        return Dates.parse(
            string(name, a, pos),
            args.size() > 1 ? string(name, args.get(1), pos) : null,
            args.size() > 2 ? string(name, args.get(2), pos) : null,
            pos);
      case "bitnot":
        return ~integer(name, a, pos);
      case "bitand", "bitor", "bitxor", "bitnand", "bitshl", "bitshr", "bitushr":
        {
          long x = integer(name, a, pos);
          long y = integer(name, args.get(1), pos);
          return switch (name) {
            case "bitand" -> x & y;
            case "bitor" -> x | y;
            case "bitxor" -> x ^ y;
            case "bitnand" -> x & ~y;
            case "bitshl" -> x << y;
            case "bitshr" -> x >> y;
            default -> x >>> y;
          };
        }
      case "join":
        {
          String sep = args.size() > 1 ? string(name, args.get(1), pos) : "";
          StringBuilder b = new StringBuilder();
          List<?> items = array(name, a, pos);
          for (int i = 0; i < items.size(); i++) {
            if (!(items.get(i) instanceof String s)) {
              throw Interpreter.error(
                  pos,
                  "invalid argument for join (element of type "
                      + Values.typeName(items.get(i))
                      + ")");
            }
            b.append(i > 0 ? sep : "").append(s);
          }
          return b.toString();
        }
      case "replace":
        return string(name, a, pos)
            .replace(string(name, args.get(1), pos), string(name, args.get(2), pos));
      case "repeat":
        {
          long times = integer(name, args.get(1), pos);
          String s = string(name, a, pos);
          if (times < 0) {
            throw Interpreter.error(pos, "strings: negative Repeat count");
          }
          if ((double) times * s.length() > Interpreter.MAX_ELEMENTS) {
            throw Interpreter.error(pos, "memory budget exceeded");
          }
          return s.repeat((int) times);
        }
      case "indexOf":
        return (long) string(name, a, pos).indexOf(string(name, args.get(1), pos));
      case "lastIndexOf":
        return (long) string(name, a, pos).lastIndexOf(string(name, args.get(1), pos));
      case "hasPrefix":
        return string(name, a, pos).startsWith(string(name, args.get(1), pos));
      case "hasSuffix":
        return string(name, a, pos).endsWith(string(name, args.get(1), pos));
      case "max", "min":
        return extreme(name, numbers(name, args, pos), pos);
      case "mean":
        {
          List<Object> values = numbers(name, args, pos);
          if (values.isEmpty()) {
            return 0.0;
          }
          double total = 0;
          for (Object v : values) {
            total += Values.toDouble(v);
          }
          return total / values.size();
        }
      case "median":
        {
          List<Object> values = numbers(name, args, pos);
          if (values.isEmpty()) {
            return 0.0;
          }
          double[] sorted = values.stream().mapToDouble(Values::toDouble).sorted().toArray();
          int mid = sorted.length / 2;
          return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
        }
      case "first":
      case "last":
        {
          if (a instanceof List<?> l && !l.isEmpty()) {
            return Values.normalize(l.get(name.equals("first") ? 0 : l.size() - 1));
          }
          return null;
        }
      case "take":
        {
          long k = integer(name, args.get(1), pos);
          List<?> l = array(name, a, pos);
          return new ArrayList<Object>(l.subList(0, (int) Math.max(0, Math.min(k, l.size()))));
        }
      case "reverse":
        {
          List<Object> out = Values.copy(array(name, a, pos));
          java.util.Collections.reverse(out);
          return out;
        }
      case "uniq":
        {
          List<Object> out = new ArrayList<>();
          for (Object o : array(name, a, pos)) {
            if (out.stream().noneMatch(x -> Values.equal(x, o))) {
              out.add(o);
            }
          }
          return out;
        }
      case "sort":
        {
          List<Object> out = Values.copy(array(name, a, pos));
          Comparator<Object> cmp = (x, y) -> compareForSort(name, x, y, pos);
          boolean desc = false;
          if (args.size() > 1) {
            if ("desc".equals(args.get(1))) {
              desc = true;
            } else if (!"asc".equals(args.get(1))) {
              throw Interpreter.error(pos, "unknown order, use asc or desc");
            }
          }
          out.sort(desc ? cmp.reversed() : cmp);
          return out;
        }
      case "concat":
        {
          List<Object> out = new ArrayList<>();
          for (Object arg : args) {
            out.addAll(array(name, arg, pos));
          }
          return out;
        }
      case "flatten":
        {
          List<Object> out = new ArrayList<>();
          flatten(array(name, a, pos), out);
          return out;
        }
      case "keys":
      case "values":
        {
          if (!(a instanceof Map<?, ?> m)) {
            throw invalid(name, a, pos);
          }
          return new ArrayList<Object>(name.equals("keys") ? m.keySet() : m.values());
        }
      case "toPairs":
        {
          if (!(a instanceof Map<?, ?> m)) {
            throw invalid(name, a, pos);
          }
          List<Object> out = new ArrayList<>();
          m.forEach((k, v) -> out.add(new ArrayList<>(java.util.Arrays.asList(k, v))));
          return out;
        }
      case "fromPairs":
        {
          Map<String, Object> out = new LinkedHashMap<>();
          for (Object pair : array(name, a, pos)) {
            if (!(pair instanceof List<?> p) || p.size() != 2 || !(p.get(0) instanceof String k)) {
              throw Interpreter.error(
                  pos, "invalid argument for fromPairs (each pair must be [string, value])");
            }
            out.put(k, p.get(1));
          }
          return out;
        }
      case "get":
        try {
          return Interpreter.fetch(a, Values.normalize(args.get(1)), pos);
        } catch (ExpressionEvaluationException e) {
          return null;
        }
      case "ceil":
      case "floor":
      case "round":
        {
          if (!(a instanceof Number)) {
            throw invalid(name, a, pos);
          }
          double d = Values.toDouble(a);
          return switch (name) {
            case "ceil" -> Math.ceil(d);
            case "floor" -> Math.floor(d);
            default ->
                Double.isNaN(d) || Double.isInfinite(d)
                    ? d
                    : Math.signum(d) * Math.floor(Math.abs(d) + 0.5);
          };
        }
      case "type":
        return typeOf(a);
      case "now":
        return in.now();
      case "duration":
        {
          String s = string(name, a, pos);
          Optional<Duration> d = GoDurations.parse(s);
          if (d.isEmpty()) {
            throw Interpreter.error(pos, "time: invalid duration " + Values.quote(s));
          }
          return d.get();
        }
      default:
        throw Interpreter.error(pos, "unknown func " + name);
    }
  }

  private static String typeOf(Object a) {
    if (a == null) {
      return "nil";
    } else if (a instanceof Boolean) {
      return "bool";
    } else if (a instanceof Long) {
      return "int";
    } else if (a instanceof Double) {
      return "float";
    } else if (a instanceof String) {
      return "string";
    } else if (a instanceof List) {
      return "array";
    } else if (a instanceof Map) {
      return "map";
    } else if (a instanceof ExprFunction) {
      return "func";
    }
    return Values.typeName(a);
  }

  private static void flatten(List<?> in, List<Object> out) {
    for (Object o : in) {
      if (o instanceof List<?> l) {
        flatten(l, out);
      } else {
        out.add(o);
      }
    }
  }

  private static String string(String name, Object v, int pos) {
    if (v instanceof String s) {
      return s;
    }
    throw invalid(name, v, pos);
  }

  private static long integer(String name, Object v, int pos) {
    if (Values.isInt(v)) {
      return Values.toLong(v);
    }
    throw invalid(name, v, pos);
  }

  /**
   * Numbers from the arguments, one level of arrays flattened ({@code max([1, 2], 3)}), as
   * expr-lang does.
   */
  private static List<Object> numbers(String name, List<Object> args, int pos) {
    List<Object> out = new ArrayList<>();
    for (Object arg : args) {
      arg = Values.normalize(arg);
      if (arg instanceof List<?> l) {
        for (Object o : l) {
          out.add(number(name, o, pos));
        }
      } else {
        out.add(number(name, arg, pos));
      }
    }
    return out;
  }

  private static Object number(String name, Object v, int pos) {
    v = Values.normalize(v);
    if (v instanceof Long || v instanceof Double) {
      return v;
    }
    throw invalid(name, v, pos);
  }

  private static Object extreme(String name, List<Object> values, int pos) {
    Object best = null;
    for (Object v : values) {
      if (best == null) {
        best = v;
        continue;
      }
      boolean less = (Boolean) Operators.apply("<", v, best, pos);
      if (name.equals("min") == less && !Values.equal(v, best)) {
        best = v;
      }
    }
    return best;
  }

  private static Object sum(List<?> items, int pos) {
    long ints = 0;
    double floats = 0;
    boolean anyFloat = false;
    for (Object o : items) {
      Object v = number("sum", o, pos);
      if (v instanceof Long l) {
        ints += l;
      } else {
        anyFloat = true;
        floats += (Double) v;
      }
    }
    return anyFloat ? (Object) (floats + ints) : (Object) ints;
  }

  /** Go's {@code strconv.Atoi} / {@code ParseInt(s, 10, 64)} with their error wording. */
  static long parseInt(String function, String s, int pos) {
    if (!GO_INT.matcher(s).matches()) {
      throw Interpreter.error(pos, function + ": parsing " + Values.quote(s) + ": invalid syntax");
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw Interpreter.error(
          pos, function + ": parsing " + Values.quote(s) + ": value out of range");
    }
  }

  /** Go's {@code strconv.ParseFloat(s, 64)} with its error wording. */
  static double parseFloat(String s, int pos) {
    if (!GO_FLOAT.matcher(s).matches() || s.isEmpty() || !s.matches(".*[0-9nNiI].*")) {
      throw Interpreter.error(
          pos, "strconv.ParseFloat: parsing " + Values.quote(s) + ": invalid syntax");
    }
    String t = s.replace("_", "").toLowerCase(Locale.ROOT);
    String unsigned = t.startsWith("+") || t.startsWith("-") ? t.substring(1) : t;
    boolean negative = t.startsWith("-");
    if (unsigned.equals("inf") || unsigned.equals("infinity")) {
      return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (unsigned.equals("nan")) {
      return Double.NaN;
    }
    double d = Double.parseDouble(t);
    if (Double.isInfinite(d)) {
      throw Interpreter.error(
          pos, "strconv.ParseFloat: parsing " + Values.quote(s) + ": value out of range");
    }
    return d;
  }

  private static boolean isSpace(int c) {
    return c == ' '
        || (c >= '\t' && c <= '\r')
        || c == 0x85
        || c == 0xA0
        || Character.isSpaceChar(c);
  }

  private static String trimSpace(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && isSpace(s.charAt(start))) {
      start++;
    }
    while (end > start && isSpace(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(start, end);
  }

  private static String trimChars(String s, String cutset) {
    int start = 0;
    int end = s.length();
    while (start < end && cutset.indexOf(s.charAt(start)) >= 0) {
      start++;
    }
    while (end > start && cutset.indexOf(s.charAt(end - 1)) >= 0) {
      end--;
    }
    return s.substring(start, end);
  }

  /**
   * Go's {@code strings.SplitN} (or {@code SplitAfterN}): n &lt; 0 all parts, n == 0 none, an empty
   * separator splits into characters.
   */
  private static List<Object> split(String s, String sep, long n, boolean keepSeparator) {
    List<Object> out = new ArrayList<>();
    if (n == 0) {
      return out;
    }
    if (sep.isEmpty()) {
      int i = 0;
      while (i < s.length()) {
        if (n > 0 && out.size() == n - 1) {
          out.add(s.substring(i));
          return out;
        }
        int next = i + Character.charCount(s.codePointAt(i));
        out.add(s.substring(i, next));
        i = next;
      }
      return out;
    }
    int from = 0;
    while (n < 0 || out.size() < n - 1) {
      int at = s.indexOf(sep, from);
      if (at < 0) {
        break;
      }
      out.add(s.substring(from, keepSeparator ? at + sep.length() : at));
      from = at + sep.length();
    }
    out.add(s.substring(from));
    return out;
  }
}
