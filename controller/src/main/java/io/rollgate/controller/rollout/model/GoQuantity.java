package io.rollgate.controller.rollout.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;

/**
 * Kubernetes {@code resource.Quantity} as its Go JSON methods see it: the text is parsed like {@code ParseQuantity}
 * and written back like {@code MarshalJSON}, which is the original text when the parser deems it canonical (so
 * {@code "1.500"}, {@code "+1"} or {@code "1e3"} stay as they are) and otherwise the canonical form ({@code "0.5"} →
 * {@code "500m"}, {@code "1000m"} → {@code "1"}, {@code "1024Mi"} → {@code "1Gi"}, {@code "1.5Gi"} →
 * {@code "1536Mi"}).
 */
final class GoQuantity {

  private enum Format {
    DECIMAL_EXPONENT,
    BINARY_SI,
    DECIMAL_SI
  }

  private record Suffix(int base, int exponent, Format format) {}

  private static final Map<String, Integer> DECIMAL_SUFFIXES =
      Map.of("n", -9, "u", -6, "m", -3, "", 0, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
  private static final Map<String, Integer> BINARY_SUFFIXES =
      Map.of("Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40, "Pi", 50, "Ei", 60);
  private static final Map<Integer, String> DECIMAL_BY_EXPONENT =
      Map.of(-9, "n", -6, "u", -3, "m", 0, "", 3, "k", 6, "M", 9, "G", 12, "T", 15, "P", 18, "E");
  private static final Map<Integer, String> BINARY_BY_EXPONENT =
      Map.of(10, "Ki", 20, "Mi", 30, "Gi", 40, "Ti", 50, "Pi", 60, "Ei");
  private static final BigDecimal MAX_ALLOWED = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigDecimal MINUS_1024 = BigDecimal.valueOf(-1024);
  private static final BigDecimal PLUS_1024 = BigDecimal.valueOf(1024);
  private static final BigInteger B1024 = BigInteger.valueOf(1024);
  private static final int NANO = -9;
  private static final int MAX_INT64_FACTORS = 18;

  private GoQuantity() {}

  /**
   * Returns what Go writes between the quotes for a quantity given as a JSON string.
   *
   * @param text the string value
   * @return the encoded quantity, without quotes
   * @throws IllegalArgumentException if Go fails to parse it
   */
  static String fromJsonString(String text) {
    // UnmarshalJSON strips the quotes from the raw bytes without unescaping them, so escapes stay in the text.
    return encodeRaw(GoJsonText.escapedContent(text));
  }

  /**
   * Returns what Go writes between the quotes for a quantity given as a JSON number.
   *
   * @param numberText the number as it appears in the JSON
   * @return the encoded quantity, without quotes
   * @throws IllegalArgumentException if Go fails to parse it
   */
  static String fromJsonNumber(String numberText) {
    return encodeRaw(numberText);
  }

  private static String encodeRaw(String raw) {
    String str = trimSpace(raw);
    if (str.isEmpty()) {
      throw formatWrong(raw);
    }
    if (str.equals("0")) {
      return str;
    }
    return parseAndEncode(str);
  }

  /** Go's {@code strings.TrimSpace}: trims Unicode White_Space. */
  private static String trimSpace(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && isGoSpace(s.charAt(start))) {
      start++;
    }
    while (end > start && isGoSpace(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(start, end);
  }

  private static boolean isGoSpace(char c) {
    return switch (c) {
      case '\t', '\n', '\u000b', '\f', '\r', ' ', '\u0085', '\u00a0', '\u1680', '\u2028', '\u2029', '\u202f', '\u205f',
          '\u3000' -> true;
      default -> c >= '\u2000' && c <= '\u200a';
    };
  }

  private static IllegalArgumentException formatWrong(String s) {
    return new IllegalArgumentException(
        "quantity " + s + ": quantities must match the regular expression "
            + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** Port of ParseQuantity (after the empty and "0" checks) followed by MarshalJSON. */
  private static String parseAndEncode(String str) {
    // parseQuantityString
    boolean positive = true;
    int pos = 0;
    int end = str.length();
    String value;
    String num;
    String denom = "";
    String suffix = "";
    parse:
    {
      if (str.charAt(0) == '-') {
        positive = false;
        pos++;
      } else if (str.charAt(0) == '+') {
        pos++;
      }
      for (int i = pos; ; i++) {
        if (i >= end) {
          num = "0";
          value = num;
          break parse;
        }
        if (str.charAt(i) == '0') {
          pos++;
        } else {
          break;
        }
      }
      int i = pos;
      while (i < end && isDigit(str.charAt(i))) {
        i++;
      }
      if (i >= end) {
        num = str.substring(pos, end);
        value = str;
        break parse;
      }
      num = str.substring(pos, i);
      pos = i;
      if (num.isEmpty()) {
        num = "0";
      }
      if (str.charAt(pos) == '.') {
        pos++;
        i = pos;
        while (i < end && isDigit(str.charAt(i))) {
          i++;
        }
        if (i >= end) {
          denom = str.substring(pos, end);
          value = str;
          break parse;
        }
        denom = str.substring(pos, i);
        pos = i;
      }
      value = str.substring(0, pos);
      int suffixStart = pos;
      i = pos;
      while (i < end && "eEinumkKMGTP".indexOf(str.charAt(i)) >= 0) {
        i++;
      }
      if (i >= end) {
        suffix = str.substring(suffixStart, end);
        break parse;
      }
      pos = i;
      if (str.charAt(pos) == '-' || str.charAt(pos) == '+') {
        pos++;
      }
      i = pos;
      while (i < end && isDigit(str.charAt(i))) {
        i++;
      }
      if (i >= end) {
        suffix = str.substring(suffixStart, end);
        break parse;
      }
      throw formatWrong(str);
    }

    Suffix s = interpret(suffix);
    if (s == null) {
      throw new IllegalArgumentException("quantity " + str + ": unable to parse quantity's suffix");
    }
    Format format = s.format();
    int exponent = s.exponent();

    int precision = 0;
    int scale = 0;
    long mantissa = 1;
    switch (format) {
      case DECIMAL_EXPONENT, DECIMAL_SI -> {
        scale = exponent;
        precision = MAX_INT64_FACTORS - (num.length() + denom.length());
      }
      case BINARY_SI -> {
        if (exponent >= 0 && denom.isEmpty()) {
          mantissa = mantissa << exponent;
          precision = 15 - num.length() - (int) ((float) exponent * 3 / 10) - 1;
        } else {
          precision = -1;
        }
      }
      default -> throw new IllegalStateException();
    }

    if (precision >= 0) {
      scale -= denom.length();
      if (scale >= NANO) {
        String shifted = num + denom;
        long parsed;
        try {
          parsed = Long.parseLong(shifted);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("quantity " + str + ": unable to parse numeric part of quantity", e);
        }
        Long product = multiply(parsed, mantissa);
        if (product != null) {
          long result = positive ? product : -product;
          boolean canonical =
              format == Format.BINARY_SI
                  ? exponent % 10 == 0 && (parsed & 0x07) != 0
                  : scale % 3 == 0 && !shifted.endsWith("000") && shifted.charAt(0) != '0';
          if (canonical) {
            return str;
          }
          return canonicalize(BigDecimal.valueOf(result, -scale), format);
        }
      }
    }

    BigDecimal amount = infDec(value, str);
    if (s.base() == 10) {
      amount = amount.scaleByPowerOfTen(exponent);
    } else if (s.base() == 2) {
      amount = new BigDecimal(amount.unscaledValue().shiftLeft(exponent), amount.scale());
    }
    int sign = amount.signum();
    if (sign == -1) {
      amount = amount.negate();
    }
    if (sign != 0 && amount.scale() > -NANO) {
      amount = amount.setScale(-NANO, RoundingMode.UP);
    }
    if (format == Format.BINARY_SI && amount.compareTo(MAX_ALLOWED) > 0) {
      amount = MAX_ALLOWED;
    }
    if (format == Format.BINARY_SI && amount.compareTo(BigDecimal.ONE) < 0 && amount.signum() > 0) {
      format = Format.DECIMAL_SI;
    }
    if (sign == -1) {
      amount = amount.negate();
    }
    return canonicalize(amount, format);
  }

  /** Go's int64Multiply for the non-negative operands used here; null on overflow. */
  private static Long multiply(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      return null;
    }
  }

  /** inf.Dec SetString: optional sign, digits with at most one decimal point, at least one digit. */
  private static BigDecimal infDec(String value, String str) {
    int i = 0;
    if (!value.isEmpty() && (value.charAt(0) == '+' || value.charAt(0) == '-')) {
      i = 1;
    }
    boolean digit = false;
    boolean point = false;
    for (; i < value.length(); i++) {
      char c = value.charAt(i);
      if (isDigit(c)) {
        digit = true;
      } else if (c == '.' && !point) {
        point = true;
      } else {
        digit = false;
        break;
      }
    }
    if (!digit) {
      throw new IllegalArgumentException("quantity " + str + ": unable to parse numeric part of quantity");
    }
    return new BigDecimal(value);
  }

  private static Suffix interpret(String suffix) {
    Integer decimal = DECIMAL_SUFFIXES.get(suffix);
    if (decimal != null) {
      return new Suffix(10, decimal, Format.DECIMAL_SI);
    }
    Integer binary = BINARY_SUFFIXES.get(suffix);
    if (binary != null) {
      return new Suffix(2, binary, Format.BINARY_SI);
    }
    if (suffix.length() > 1 && (suffix.charAt(0) == 'E' || suffix.charAt(0) == 'e')) {
      String digits = suffix.substring(1);
      int start = digits.startsWith("+") || digits.startsWith("-") ? 1 : 0;
      if (digits.length() == start) {
        return null;
      }
      for (int i = start; i < digits.length(); i++) {
        if (!isDigit(digits.charAt(i))) {
          return null;
        }
      }
      try {
        // Go keeps the int64 and converts it to int32, wrapping around.
        return new Suffix(10, (int) Long.parseLong(digits), Format.DECIMAL_EXPONENT);
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  /** Port of CanonicalizeBytes plus the suffix. */
  private static String canonicalize(BigDecimal amount, Format format) {
    if (amount.signum() == 0) {
      return "0";
    }
    if (format == Format.BINARY_SI) {
      if (amount.compareTo(MINUS_1024) > 0 && amount.compareTo(PLUS_1024) < 0) {
        format = Format.DECIMAL_SI;
      } else if (amount.stripTrailingZeros().scale() > 0) {
        // not an integer: rounding would lose precision, show as DecimalSI
        format = Format.DECIMAL_SI;
      } else {
        BigInteger value = amount.toBigIntegerExact();
        int exponent = 0;
        while (value.abs().compareTo(B1024) >= 0 && value.mod(B1024).signum() == 0) {
          value = value.divide(B1024);
          exponent++;
        }
        return value + BINARY_BY_EXPONENT.getOrDefault(exponent * 10, "");
      }
    }
    BigDecimal stripped = amount.stripTrailingZeros();
    BigInteger mantissa = stripped.unscaledValue();
    int exponent = -stripped.scale();
    while (exponent % 3 != 0) {
      mantissa = mantissa.multiply(BigInteger.TEN);
      exponent--;
    }
    String suffix;
    if (format == Format.DECIMAL_EXPONENT) {
      suffix = exponent == 0 ? "" : "e" + exponent;
    } else {
      // an exponent without a suffix (past E) gets none, as in Go
      suffix = DECIMAL_BY_EXPONENT.getOrDefault(exponent, "");
    }
    return mantissa + suffix;
  }
}
