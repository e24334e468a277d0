package io.rollgate.controller.rollout.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * The lexical side of Go's {@code encoding/json}: string escaping (with its default HTML escaping),
 * float formatting, and raw JSON values written the way a Kubernetes API server sends them.
 */
final class GoJsonText {

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private GoJsonText() {}

  /**
   * Returns the string Go holds after decoding a JSON string that Jackson decoded as {@code s}: Go
   * replaces an unpaired UTF-16 surrogate (an escape of a lone surrogate) with U+FFFD, Java keeps
   * it.
   *
   * @param s the string as Jackson decoded it
   * @return the string as Go decodes it
   */
  static String goString(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isSurrogate(s.charAt(i))) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> b.appendCodePoint(isSurrogate(cp) ? 0xFFFD : cp));
        return b.toString();
      }
    }
    return s;
  }

  private static boolean isSurrogate(int codePoint) {
    return codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE;
  }

  /**
   * Writes a string as Go's {@code encoding/json} does with HTML escaping on: quotes and backslash
   * escaped, the control characters {@code \b \f \n \r \t} by name and the others, {@code < > &}
   * and U+2028/U+2029 as six-character {@code \\u} escapes with lower-case hex, everything else as
   * UTF-8 (an unpaired surrogate as U+FFFD).
   *
   * @param out the output
   * @param s the string, already as Go holds it ({@link #goString})
   */
  static void writeString(ByteArrayOutputStream out, String s) {
    out.write('"');
    writeStringContent(out, s);
    out.write('"');
  }

  /**
   * Writes the escaped content of a JSON string, without the quotes.
   *
   * @param out the output
   * @param s the string
   */
  static void writeStringContent(ByteArrayOutputStream out, String s) {
    int n = s.length();
    for (int i = 0; i < n; ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (cp < 0x80) {
        switch (cp) {
          case '"', '\\' -> {
            out.write('\\');
            out.write(cp);
          }
          case '\b' -> writeAscii(out, "\\b");
          case '\f' -> writeAscii(out, "\\f");
          case '\n' -> writeAscii(out, "\\n");
          case '\r' -> writeAscii(out, "\\r");
          case '\t' -> writeAscii(out, "\\t");
          case '<', '>', '&' -> writeUnicodeEscape(out, cp);
          default -> {
            if (cp < 0x20) {
              writeUnicodeEscape(out, cp);
            } else {
              out.write(cp);
            }
          }
        }
      } else if (cp == 0x2028 || cp == 0x2029) {
        writeUnicodeEscape(out, cp);
      } else {
        if (isSurrogate(cp)) {
          cp = 0xFFFD;
        }
        byte[] utf8 = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
        out.write(utf8, 0, utf8.length);
      }
    }
  }

  /**
   * Returns the escaped content of a JSON string as Go writes it, without the quotes: the raw bytes
   * a Go {@code UnmarshalJSON} method sees between the quotes when the JSON came from a Go encoder
   * (an API server).
   *
   * @param s the string
   * @return the escaped content
   */
  static String escapedContent(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() + 8);
    writeStringContent(out, s);
    return out.toString(StandardCharsets.UTF_8);
  }

  private static void writeUnicodeEscape(ByteArrayOutputStream out, int c) {
    out.write('\\');
    out.write('u');
    out.write(HEX[(c >> 12) & 0xF]);
    out.write(HEX[(c >> 8) & 0xF]);
    out.write(HEX[(c >> 4) & 0xF]);
    out.write(HEX[c & 0xF]);
  }

  static void writeAscii(ByteArrayOutputStream out, String s) {
    for (int i = 0; i < s.length(); i++) {
      out.write(s.charAt(i));
    }
  }

  /**
   * Formats a float64 as Go's {@code encoding/json} does: the shortest decimal that reads back as
   * the same double, plain notation for magnitudes in [1e-6, 1e21), otherwise exponent notation
   * like {@code 1e+21} or {@code 1e-7}.
   *
   * @param d the value, finite
   * @return the JSON number text
   */
  static String formatFloat64(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new IllegalArgumentException("unsupported float value " + d);
    }
    if (d == 0) {
      return 1 / d < 0 ? "-0" : "0";
    }
    BigDecimal exact = new BigDecimal(d);
    BigDecimal shortest = exact;
    for (int precision = 1; precision <= 17; precision++) {
      BigDecimal rounded = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
      if (rounded.doubleValue() == d) {
        shortest = rounded;
        break;
      }
    }
    shortest = shortest.stripTrailingZeros();
    double abs = Math.abs(d);
    if (abs >= 1e-6 && abs < 1e21) {
      return shortest.toPlainString();
    }
    String digits = shortest.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - shortest.scale();
    StringBuilder b = new StringBuilder();
    if (d < 0) {
      b.append('-');
    }
    b.append(digits.charAt(0));
    if (digits.length() > 1) {
      b.append('.').append(digits, 1, digits.length());
    }
    b.append('e').append(exponent < 0 ? '-' : '+');
    int absExponent = Math.abs(exponent);
    if (exponent > 0 && absExponent < 10) {
      b.append('0');
    }
    b.append(absExponent);
    return b.toString();
  }

  /**
   * Returns the text of a JSON number as a Kubernetes API server sends it: integers that fit in an
   * int64 as they are, every other number as the float64 Go decodes it to and re-encodes it as.
   *
   * @param number a numeric node
   * @return the number text
   */
  static String numberText(JsonNode number) {
    if (number.isIntegralNumber()) {
      BigInteger value = number.bigIntegerValue();
      if (value.compareTo(INT64_MIN) >= 0 && value.compareTo(INT64_MAX) <= 0) {
        return value.toString();
      }
    }
    return formatFloat64(number.doubleValue());
  }

  /**
   * Writes a JSON value verbatim (object keys in their order) with Go's escaping and number
   * formatting, as Go writes the compacted raw bytes of a raw-JSON field such as {@code
   * metav1.FieldsV1}.
   *
   * @param out the output
   * @param node the value, not a missing node
   */
  static void writeRaw(ByteArrayOutputStream out, JsonNode node) {
    if (node.isObject()) {
      out.write('{');
      boolean first = true;
      Iterator<Map.Entry<String, JsonNode>> it = node.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!first) {
          out.write(',');
        }
        first = false;
        writeString(out, goString(e.getKey()));
        out.write(':');
        writeRaw(out, e.getValue());
      }
      out.write('}');
    } else if (node.isArray()) {
      out.write('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.write(',');
        }
        writeRaw(out, node.get(i));
      }
      out.write(']');
    } else if (node.isTextual()) {
      writeString(out, goString(node.textValue()));
    } else if (node.isNumber()) {
      writeAscii(out, numberText(node));
    } else if (node.isBoolean()) {
      writeAscii(out, node.booleanValue() ? "true" : "false");
    } else if (node.isNull()) {
      writeAscii(out, "null");
    } else {
      throw new IllegalArgumentException("unsupported JSON node " + node.getNodeType());
    }
  }
}
