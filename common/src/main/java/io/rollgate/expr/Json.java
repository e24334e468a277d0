package io.rollgate.expr;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code toJSON} / {@code fromJSON} as expr-lang does them with Go's encoding/json: output indented
 * by two spaces with sorted keys and HTML characters escaped; input numbers all become float64.
 */
final class Json {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  static Object read(String text, int pos) {
    try {
      return floats(MAPPER.readValue(text, Object.class));
    } catch (JsonProcessingException e) {
      throw Interpreter.error(pos, "fromJSON: " + e.getOriginalMessage());
    }
  }

  private static Object floats(Object v) {
    if (v instanceof Number n) {
      return n.doubleValue();
    } else if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      l.forEach(x -> out.add(floats(x)));
      return out;
    } else if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, x) -> out.put(String.valueOf(k), floats(x)));
      return out;
    }
    return v;
  }

  static String write(Object v, int pos) {
    StringBuilder out = new StringBuilder();
    write(Values.normalize(v), out, "", pos);
    return out.toString();
  }

  private static void write(Object v, StringBuilder out, String indent, int pos) {
    v = Values.normalize(v);
    if (v == null) {
      out.append("null");
    } else if (v instanceof Boolean || v instanceof Long) {
      out.append(v);
    } else if (v instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) {
        throw Interpreter.error(pos, "json: unsupported value: " + Values.formatFloat(d));
      }
      out.append(number(d));
    } else if (v instanceof String s) {
      string(s, out);
    } else if (v instanceof Instant t) {
      string(t.toString(), out);
    } else if (v instanceof Duration d) {
      out.append(d.toNanos());
    } else if (v instanceof List<?> l) {
      if (l.isEmpty()) {
        out.append("[]");
        return;
      }
      out.append("[\n");
      for (int i = 0; i < l.size(); i++) {
        out.append(indent).append("  ");
        write(l.get(i), out, indent + "  ", pos);
        out.append(i < l.size() - 1 ? ",\n" : "\n");
      }
      out.append(indent).append(']');
    } else if (v instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        out.append("{}");
        return;
      }
      TreeMap<String, Object> sorted = new TreeMap<>();
      m.forEach((k, x) -> sorted.put(String.valueOf(k), x));
      out.append("{\n");
      int i = 0;
      for (Map.Entry<String, Object> e : sorted.entrySet()) {
        out.append(indent).append("  ");
        string(e.getKey(), out);
        out.append(": ");
        write(e.getValue(), out, indent + "  ", pos);
        out.append(++i < sorted.size() ? ",\n" : "\n");
      }
      out.append(indent).append('}');
    } else {
      throw Interpreter.error(pos, "json: unsupported type: " + Values.typeName(v));
    }
  }

  /** Go's encoding/json float format: plain decimal, exponent form below 1e-6 or from 1e21. */
  private static String number(double d) {
    if (d == 0) {
      return "0";
    }
    double abs = Math.abs(d);
    if (abs < 1e-6 || abs >= 1e21) {
      String s = Values.formatFloat(d);
      // Go writes e-07 as e-7 here.
      return s.replaceAll("e([+-])0(\\d)$", "e$1$2");
    }
    return new BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
  }

  private static void string(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '<', '>', '&', '\u2028', '\u2029' -> out.append(String.format("\\u%04x", (int) c));
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
