package io.rollgate.controller.analysis.provider.common;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes metric values the way Argo Rollouts (a Go program) writes them into {@code
 * measurements[].value}: Prometheus sample values with {@code strconv.FormatFloat(v, 'f', -1, 64)}
 * and web-metric values with {@code json.Marshal}, so the strings a user sees in an AnalysisRun are
 * the ones Argo Rollouts would have written.
 */
public final class GoFormat {

  private GoFormat() {}

  /**
   * Formats a float64 as {@code strconv.FormatFloat(v, 'f', -1, 64)}: the shortest decimal that
   * reads back as the same double, never in exponent notation; {@code NaN}, {@code +Inf}, {@code
   * -Inf} for the special values.
   *
   * @param v the value
   * @return the text, e.g. {@code 0.95}, {@code 1}, {@code 0.0000001}, {@code +Inf}
   */
  public static String formatFloat(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return 1 / v < 0 ? "-0" : "0";
    }
    return shortest(v).toPlainString();
  }

  /**
   * Turns every number of a decoded JSON value into a {@code Double}, as Go decodes every JSON
   * number into a float64: the conditions must see what Argo's see.
   *
   * @param value null, Boolean, Number, String, List or Map (as produced by JSON decoding)
   * @return the same value with numbers as {@code Double}; maps keep their order
   */
  public static Object numbersAsFloat64(Object value) {
    if (value instanceof Number n) {
      return n.doubleValue();
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object o : list) {
        out.add(numbersAsFloat64(o));
      }
      return out;
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), numbersAsFloat64(v)));
      return out;
    }
    return value;
  }

  /**
   * Encodes a decoded JSON value as Go's {@code json.Marshal} does for the {@code interface{}} it
   * decodes to: object keys sorted, numbers as float64 (plain notation in [1e-6, 1e21), else {@code
   * 1e+21} style), strings with HTML escaping ({@code <}, {@code >}, {@code &} as {@code \u003c}
   * ...).
   *
   * @param value null, Boolean, Number, String, List or Map (as produced by JSON decoding)
   * @return the JSON text
   * @throws IllegalArgumentException for NaN or infinite numbers (Go's {@code json: unsupported
   *     value}) or other types
   */
  public static String marshalJson(Object value) {
    StringBuilder out = new StringBuilder();
    write(out, value);
    return out.toString();
  }

  private static void write(StringBuilder out, Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Boolean b) {
      out.append(b ? "true" : "false");
    } else if (value instanceof Number n) {
      out.append(jsonFloat(n.doubleValue()));
    } else if (value instanceof String s) {
      writeString(out, s);
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(out, list.get(i));
      }
      out.append(']');
    } else if (value instanceof Map<?, ?> map) {
      Map<String, Object> sorted = new TreeMap<>();
      map.forEach((k, v) -> sorted.put(String.valueOf(k), v));
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, Object> e : sorted.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        writeString(out, e.getKey());
        out.append(':');
        write(out, e.getValue());
      }
      out.append('}');
    } else {
      throw new IllegalArgumentException(
          "json: unsupported type: " + value.getClass().getSimpleName());
    }
  }

  private static String jsonFloat(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new IllegalArgumentException("json: unsupported value: " + formatFloat(d));
    }
    if (d == 0) {
      return 1 / d < 0 ? "-0" : "0";
    }
    BigDecimal s = shortest(d);
    double abs = Math.abs(d);
    if (abs >= 1e-6 && abs < 1e21) {
      return s.toPlainString();
    }
    String digits = s.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - s.scale();
    StringBuilder b = new StringBuilder();
    if (d < 0) {
      b.append('-');
    }
    b.append(digits.charAt(0));
    if (digits.length() > 1) {
      b.append('.').append(digits, 1, digits.length());
    }
    b.append('e').append(exponent < 0 ? '-' : '+');
    if (Math.abs(exponent) < 10) {
      b.append('0');
    }
    b.append(Math.abs(exponent));
    // Go trims the exponent's leading zero for e-07 -> e-7 and e+07 -> e+7 (two digits only for 10
    // and up).
    String text = b.toString();
    return text.replaceFirst("e([+-])0(\\d)$", "e$1$2");
  }

  private static BigDecimal shortest(double d) {
    BigDecimal exact = new BigDecimal(d);
    for (int precision = 1; precision <= 17; precision++) {
      BigDecimal rounded = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
      if (rounded.doubleValue() == d) {
        return rounded.stripTrailingZeros();
      }
    }
    return exact.stripTrailingZeros();
  }

  private static void writeString(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '<', '>', '&', '\u2028', '\u2029' -> out.append(String.format("\\u%04x", (int) c));
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else if (Character.isSurrogate(c)) {
            if (Character.isHighSurrogate(c)
                && i + 1 < s.length()
                && Character.isLowSurrogate(s.charAt(i + 1))) {
              out.append(c).append(s.charAt(++i));
            } else {
              out.append('\ufffd');
            }
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
