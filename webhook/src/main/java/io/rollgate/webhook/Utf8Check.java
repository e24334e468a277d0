package io.rollgate.webhook;

/**
 * Strict UTF-8 check of a request body before it is parsed as JSON.
 *
 * <p>JSON exchanged between systems must be UTF-8 (RFC 8259 section 8.1), and the API server sends
 * AdmissionReviews so. The JSON parser alone is not enough: it detects UTF-16 and UTF-32 from zero
 * bytes (and then has no byte offsets to keep the object by), and it lets overlong forms, encoded
 * surrogates and code points above U+10FFFF through in values it skips, which fail only later, when
 * the object is read. This check follows RFC 3629 section 4: every sequence is the shortest form of
 * a scalar value; and refuses the byte 0x00, which no UTF-8 JSON text contains outside a string's
 * escapes.
 */
final class Utf8Check {

  private Utf8Check() {}

  /**
   * Finds the first problem in a body.
   *
   * @param b the body
   * @return null when the body is well-formed UTF-8 without NUL bytes, else the problem with its
   *     byte offset
   */
  static String problem(byte[] b) {
    int n = b.length;
    if (n >= 2
        && ((b[0] & 0xff) == 0xfe && (b[1] & 0xff) == 0xff
            || (b[0] & 0xff) == 0xff && (b[1] & 0xff) == 0xfe)) {
      return "the body starts with a UTF-16 byte order mark: an AdmissionReview must be UTF-8 JSON";
    }
    int i = 0;
    while (i < n) {
      int c = b[i] & 0xff;
      if (c < 0x80) {
        if (c == 0) {
          return zero(b, i);
        }
        i++;
        continue;
      }
      int need;
      int min;
      if (c == 0xc0 || c == 0xc1) {
        return "overlong UTF-8 sequence at offset "
            + i
            + " (lead byte 0x"
            + Integer.toHexString(c)
            + ")";
      }
      if (c >= 0xc2 && c <= 0xdf) {
        need = 1;
        min = 0x80;
      } else if (c >= 0xe0 && c <= 0xef) {
        need = 2;
        min = 0x800;
      } else if (c >= 0xf0 && c <= 0xf4) {
        need = 3;
        min = 0x10000;
      } else {
        return String.format("byte 0x%02x at offset %d cannot start a UTF-8 sequence", c, i);
      }
      if (i + need >= n) {
        return "UTF-8 sequence cut short at the end of the body (offset " + i + ")";
      }
      int cp = c & (0x3f >> need);
      for (int k = 1; k <= need; k++) {
        int d = b[i + k] & 0xff;
        if ((d & 0xc0) != 0x80) {
          return String.format(
              "the UTF-8 sequence at offset %d is broken: byte 0x%02x at offset %d does not continue it",
              i, d, i + k);
        }
        cp = (cp << 6) | (d & 0x3f);
      }
      if (cp < min) {
        return "overlong UTF-8 sequence at offset " + i;
      }
      if (cp >= 0xd800 && cp <= 0xdfff) {
        return String.format(
            "UTF-8 encoded surrogate U+%04X at offset %d (not a character)", cp, i);
      }
      if (cp > 0x10ffff) {
        return String.format("code point U+%X at offset %d is beyond U+10FFFF", cp, i);
      }
      i += need + 1;
    }
    return null;
  }

  private static String zero(byte[] b, int i) {
    boolean wide = b.length >= 2 && (b[0] == 0 || b[1] == 0);
    return wide
        ? "the body looks like UTF-16 or UTF-32: an AdmissionReview must be UTF-8 JSON"
        : "NUL byte at offset " + i + ": JSON text cannot contain one outside a string escape";
  }
}
