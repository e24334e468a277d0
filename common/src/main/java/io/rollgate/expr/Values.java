package io.rollgate.expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The value model shared by the evaluator and the built-in functions: integers are Long (Go {@code
 * int}), floats Double (Go {@code float64}), and the type names, equality, ordering and text forms
 * follow Go and expr-lang.
 */
final class Values {

  private static final DateTimeFormatter GO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private Values() {}

  /** Brings numbers from the environment into the two numeric types the evaluator works with. */
  static Object normalize(Object v) {
    if (v instanceof Long
        || v instanceof Double
        || v instanceof String
        || v instanceof Boolean
        || v == null) {
      return v;
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof Float) {
      return ((Float) v).doubleValue();
    }
    if (v instanceof BigDecimal) {
      return ((BigDecimal) v).doubleValue();
    }
    if (v instanceof BigInteger) {
      BigInteger b = (BigInteger) v;
      return b.bitLength() < 64 ? (Object) b.longValue() : (Object) b.doubleValue();
    }
    if (v instanceof Object[]) {
      return List.of((Object[]) v);
    }
    return v;
  }

  static boolean isInt(Object v) {
    return v instanceof Long
        || v instanceof Integer
        || v instanceof Short
        || v instanceof Byte
        || (v instanceof BigInteger && ((BigInteger) v).bitLength() < 64);
  }

  static boolean isNumber(Object v) {
    return v instanceof Number;
  }

  static long toLong(Object v) {
    return ((Number) v).longValue();
  }

  static double toDouble(Object v) {
    return ((Number) v).doubleValue();
  }

  /** Go's {@code %T} of the value as expr-lang reports it in errors. */
  static String typeName(Object v) {
    v = normalize(v);
    if (v == null) {
      return "<nil>";
    } else if (v instanceof Long) {
      return "int";
    } else if (v instanceof Double) {
      return "float64";
    } else if (v instanceof String || v instanceof java.util.regex.Pattern) {
      return "string";
    } else if (v instanceof Boolean) {
      return "bool";
    } else if (v instanceof List) {
      return "[]interface {}";
    } else if (v instanceof Map) {
      return "map[string]interface {}";
    } else if (v instanceof Instant) {
      return "time.Time";
    } else if (v instanceof Duration) {
      return "time.Duration";
    } else if (v instanceof ExprFunction) {
      return "func(...interface {}) interface {}";
    }
    return v.getClass().getSimpleName();
  }

  /** expr-lang's {@code ==}: numbers compare by value across int and float; other values deeply. */
  static boolean equal(Object a, Object b) {
    a = normalize(a);
    b = normalize(b);
    if (a instanceof Number && b instanceof Number) {
      if (a instanceof Long && b instanceof Long) {
        return a.equals(b);
      }
      return toDouble(a) == toDouble(b);
    }
    return deepEqual(a, b);
  }

  /**
   * Go's {@code reflect.DeepEqual} on JSON-like values: no cross-type numeric equality inside
   * collections.
   */
  static boolean deepEqual(Object a, Object b) {
    a = normalize(a);
    b = normalize(b);
    if (a == null || b == null) {
      return a == b;
    }
    if (a instanceof Double && b instanceof Double) {
      return ((Double) a).doubleValue() == ((Double) b).doubleValue();
    }
    if (a instanceof List && b instanceof List) {
      List<?> x = (List<?>) a;
      List<?> y = (List<?>) b;
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!deepEqual(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Map && b instanceof Map) {
      Map<?, ?> x = (Map<?, ?>) a;
      Map<?, ?> y = (Map<?, ?>) b;
      if (x.size() != y.size()) {
        return false;
      }
      for (Map.Entry<?, ?> e : x.entrySet()) {
        if (!y.containsKey(e.getKey()) || !deepEqual(e.getValue(), y.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  /** Go's {@code %v} of a value, as expr-lang's {@code string()} produces it. */
  static String format(Object v) {
    v = normalize(v);
    if (v == null) {
      return "<nil>";
    } else if (v instanceof Double) {
      return formatFloat((Double) v);
    } else if (v instanceof List) {
      StringBuilder b = new StringBuilder("[");
      Iterator<?> it = ((List<?>) v).iterator();
      while (it.hasNext()) {
        b.append(format(it.next()));
        if (it.hasNext()) {
          b.append(' ');
        }
      }
      return b.append(']').toString();
    } else if (v instanceof Map) {
      StringBuilder b = new StringBuilder("map[");
      TreeMap<String, Object> sorted = new TreeMap<>();
      ((Map<?, ?>) v).forEach((k, val) -> sorted.put(String.valueOf(k), val));
      Iterator<Map.Entry<String, Object>> it = sorted.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<String, Object> e = it.next();
        b.append(e.getKey()).append(':').append(format(e.getValue()));
        if (it.hasNext()) {
          b.append(' ');
        }
      }
      return b.append(']').toString();
    } else if (v instanceof Instant) {
      return formatTime((Instant) v);
    } else if (v instanceof Duration) {
      return formatDuration((Duration) v);
    }
    return String.valueOf(v);
  }

  /**
   * Go's {@code %v} of a float64 ({@code strconv.FormatFloat(f, 'g', -1, 64)}): shortest digits,
   * exponent form below 1e-4 and from 1e6 on ({@code 1e+06}, {@code 1.5e-07}).
   */
  static String formatFloat(double f) {
    if (Double.isNaN(f)) {
      return "NaN";
    }
    if (Double.isInfinite(f)) {
      return f > 0 ? "+Inf" : "-Inf";
    }
    if (f == 0) {
      return (1 / f < 0) ? "-0" : "0";
    }
    BigDecimal d = new BigDecimal(Double.toString(Math.abs(f))).stripTrailingZeros();
    String digits = d.unscaledValue().toString();
    int exp = digits.length() - d.scale() - 1;
    StringBuilder out = new StringBuilder(f < 0 ? "-" : "");
    if (exp < -4 || exp >= 6) {
      out.append(digits.charAt(0));
      if (digits.length() > 1) {
        out.append('.').append(digits, 1, digits.length());
      }
      out.append('e').append(exp < 0 ? '-' : '+');
      int abs = Math.abs(exp);
      if (abs < 10) {
        out.append('0');
      }
      out.append(abs);
    } else {
      out.append(d.toPlainString());
    }
    return out.toString();
  }

  /** Go's {@code time.Time.String()} in UTC: {@code 2026-01-01 10:00:00.5 +0000 UTC}. */
  static String formatTime(Instant t) {
    StringBuilder out = new StringBuilder(GO_TIME.format(t.atOffset(ZoneOffset.UTC)));
    if (t.getNano() != 0) {
      String nanos = String.format("%09d", t.getNano()).replaceAll("0+$", "");
      out.append('.').append(nanos);
    }
    return out.append(" +0000 UTC").toString();
  }

  /**
   * Go's {@code time.Duration.String()}: {@code 1h2m3.5s}, {@code 5m0s}, {@code 150ms}, {@code 0s}.
   */
  static String formatDuration(Duration d) {
    long nanos;
    try {
      nanos = d.toNanos();
    } catch (ArithmeticException e) {
      return d.toString();
    }
    if (nanos == 0) {
      return "0s";
    }
    boolean negative = nanos < 0;
    BigInteger abs = BigInteger.valueOf(nanos).abs();
    StringBuilder out = new StringBuilder(negative ? "-" : "");
    if (abs.compareTo(BigInteger.valueOf(1_000_000_000L)) < 0) {
      long n = abs.longValue();
      if (n < 1_000) {
        return out.append(n).append("ns").toString();
      } else if (n < 1_000_000) {
        return out.append(fraction(n, 1_000)).append("µs").toString();
      }
      return out.append(fraction(n, 1_000_000)).append("ms").toString();
    }
    long n = abs.longValue();
    long hours = n / 3_600_000_000_000L;
    long minutes = (n / 60_000_000_000L) % 60;
    long rest = n % 60_000_000_000L;
    if (hours > 0) {
      out.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      out.append(minutes).append('m');
    }
    return out.append(fraction(rest, 1_000_000_000L)).append('s').toString();
  }

  private static String fraction(long n, long unit) {
    BigDecimal v = BigDecimal.valueOf(n).divide(BigDecimal.valueOf(unit)).stripTrailingZeros();
    return v.scale() < 0 ? v.setScale(0).toPlainString() : v.toPlainString();
  }

  /** Go's {@code %q}-like quoting used when echoing tokens and values in messages. */
  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        case '\r' -> b.append("\\r");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\x%02x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  /**
   * The value with every number turned into a Double, lists and maps copied as needed; Go's decoded
   * JSON and Prometheus samples hold only float64.
   */
  static Object numbersAsFloat(Object v) {
    if (v instanceof Double || v == null || v instanceof String || v instanceof Boolean) {
      return v;
    } else if (v instanceof Number n) {
      return n.doubleValue();
    } else if (v instanceof List<?> l) {
      if (l.stream().allMatch(x -> x instanceof Double)) {
        return v;
      }
      List<Object> out = new ArrayList<>(l.size());
      l.forEach(x -> out.add(numbersAsFloat(x)));
      return out;
    } else if (v instanceof Map<?, ?> m) {
      Map<Object, Object> out = new java.util.LinkedHashMap<>();
      m.forEach((k, x) -> out.put(k, numbersAsFloat(x)));
      return out;
    }
    return v;
  }

  /** A mutable copy of a list, for functions that return new arrays. */
  static List<Object> copy(List<?> list) {
    return new ArrayList<>(list);
  }
}
