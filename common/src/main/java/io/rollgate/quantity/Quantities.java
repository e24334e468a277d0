package io.rollgate.quantity;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Optional;

/**
 * Kubernetes resource quantities ({@code 500m}, {@code 1.5Gi}, {@code 2e3}), read by one grammar
 * and seen two ways: as admission judges them ({@link #parse}, {@link #isValid}, {@link #check},
 * {@link #compare}), and as Go's {@code resource.Quantity} writes them back ({@link #canonical}),
 * which is what the pod-template hash sees.
 *
 * <p>The text is read as Go's {@code parseQuantityString} reads it, and its suffix means something
 * only as one of three kinds:
 *
 * <pre>
 * quantity        ::= sign? digit* ("." digit*)? suffix
 * suffix          ::= letter* sign? digit*          (a letter is one of "eEinumkKMGTP")
 * decimalSuffix   ::= n | u | m | "" | k | M | G | T | P | E
 * binarySuffix    ::= Ki | Mi | Gi | Ti | Pi | Ei
 * decimalExponent ::= ("e" | "E") sign? digit+
 * </pre>
 *
 * <p>Validation accepts less than Go parses: at least one digit, no {@code n} or {@code u}, an
 * exponent of at most 30 either way and at most 64 characters, so a value our CRD would otherwise
 * store as a plain string is refused on apply. Every container's requests and limits of every
 * admitted Rollout pass through {@link #check}, so a quantity is read character by character with
 * {@code long} arithmetic and allocates nothing; {@link BigDecimal} arithmetic remains for
 * mantissas of more than 18 digits and values beyond a {@code long}, and gives the same results.
 */
public final class Quantities {

  /** {@link #check} result for a text that is not a quantity. */
  public static final int NOT_A_QUANTITY = -2;

  /** The letters a suffix is made of. */
  private static final String SUFFIX_LETTERS = "eEinumkKMGTP";

  /**
   * Decimal SI suffixes, each 10<sup>3</sup> times the one before it, from 10<sup>-9</sup>; the
   * space stands for no suffix.
   */
  private static final String DECIMAL_SI = "num kMGTPE";

  /**
   * Binary SI suffixes without their {@code i}, each 2<sup>10</sup> times the one before it, from
   * 2<sup>10</sup>.
   */
  private static final String BINARY_SI = "KMGTPE";

  private static final Map<String, BigDecimal> SUFFIX_VALUES =
      Map.ofEntries(
          Map.entry("Ki", BigDecimal.valueOf(1024L)),
          Map.entry("Mi", BigDecimal.valueOf(1024L * 1024)),
          Map.entry("Gi", BigDecimal.valueOf(1024L * 1024 * 1024)),
          Map.entry("Ti", BigDecimal.valueOf(1024L * 1024 * 1024 * 1024)),
          Map.entry("Pi", BigDecimal.valueOf(1024L * 1024 * 1024 * 1024 * 1024)),
          Map.entry("Ei", BigDecimal.valueOf(1024L * 1024 * 1024 * 1024 * 1024 * 1024)),
          Map.entry("m", new BigDecimal("0.001")),
          Map.entry("k", BigDecimal.TEN.pow(3)),
          Map.entry("M", BigDecimal.TEN.pow(6)),
          Map.entry("G", BigDecimal.TEN.pow(9)),
          Map.entry("T", BigDecimal.TEN.pow(12)),
          Map.entry("P", BigDecimal.TEN.pow(15)),
          Map.entry("E", BigDecimal.TEN.pow(18)));

  /**
   * The API server refuses exponents whose magnitude would not fit its int64 scaled representation.
   */
  private static final int MAX_EXPONENT = 30;

  /** Longest quantity text accepted. */
  private static final int MAX_LENGTH = 64;

  /** Digits of a mantissa {@link #scan} keeps in a {@code long} (10<sup>18</sup> - 1 fits). */
  private static final int MAX_MANTISSA_DIGITS = 18;

  /** {@link #scan} result: the text is not a valid quantity. */
  private static final long INVALID = Long.MIN_VALUE;

  /**
   * {@link #scan} result: the value is beyond {@code long} arithmetic; {@link #exactValue} computes
   * it.
   */
  private static final long EXACT_PATH = Long.MIN_VALUE + 1;

  /** {@link #scan} target meaning "the scale the text itself has" (see {@link #ownScale}). */
  private static final int OWN_SCALE = Integer.MIN_VALUE;

  private static final long[] POWERS_OF_TEN = new long[19];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

  /** The kinds of suffix ({@link #suffixKind}). */
  private enum Kind {
    DECIMAL_SI,
    BINARY_SI,
    DECIMAL_EXPONENT,
    UNKNOWN
  }

  private Quantities() {}

  /**
   * Parses a quantity as validation reads it.
   *
   * @param text the quantity as written, for example {@code 250m} or {@code 1Gi}
   * @return its value in base units (cores, bytes), or empty when {@code text} is not a valid
   *     quantity
   */
  public static Optional<BigDecimal> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    long unscaled = scan(text, "", OWN_SCALE);
    if (unscaled == INVALID) {
      return Optional.empty();
    }
    if (unscaled == EXACT_PATH) {
      return Optional.of(exactValue(text));
    }
    return Optional.of(BigDecimal.valueOf(unscaled, ownScale(text)));
  }

  /**
   * Whether a text is a valid quantity.
   *
   * @param text the quantity as written
   * @return true when {@link #parse} accepts it
   */
  public static boolean isValid(String text) {
    return text != null && scan(text, "", OWN_SCALE) != INVALID;
  }

  /**
   * Checks the quantity written as {@code amount} followed by {@code format} (fabric8's split of a
   * {@code Quantity}) without joining them.
   *
   * @param amount the number part, not null
   * @param format the suffix part, not null
   * @return {@link #NOT_A_QUANTITY} when {@link #parse} refuses {@code amount + format}, otherwise
   *     the sign of its value (-1, 0 or 1)
   */
  public static int check(String amount, String format) {
    long unscaled = scan(amount, format, OWN_SCALE);
    if (unscaled == INVALID) {
      return NOT_A_QUANTITY;
    }
    if (unscaled == EXACT_PATH) {
      return exactValue(amount + format).signum();
    }
    return Long.signum(unscaled);
  }

  /**
   * Compares two quantities, each written as amount followed by format; both must pass {@link
   * #check}.
   *
   * @param amount the number part of the first quantity
   * @param format the suffix part of the first quantity
   * @param otherAmount the number part of the second quantity
   * @param otherFormat the suffix part of the second quantity
   * @return negative, zero or positive as the first value is less than, equal to or greater than
   *     the second
   */
  public static int compare(String amount, String format, String otherAmount, String otherFormat) {
    long milli = scan(amount, format, 3);
    long otherMilli = scan(otherAmount, otherFormat, 3);
    if (milli > EXACT_PATH && otherMilli > EXACT_PATH) {
      return Long.compare(milli, otherMilli);
    }
    return parse(amount + format)
        .orElseThrow()
        .compareTo(parse(otherAmount + otherFormat).orElseThrow());
  }

  /**
   * Returns what Go writes for a quantity it parsed from {@code raw}: {@code ParseQuantity}
   * followed by {@code MarshalJSON}, which is the text itself when the parser deems it canonical
   * (so {@code 1.500}, {@code +1} or {@code 1e3} stay as they are) and otherwise the canonical form
   * ({@code 0.5} → {@code 500m}, {@code 1000m} → {@code 1}, {@code 1024Mi} → {@code 1Gi}, {@code
   * 1.5Gi} → {@code 1536Mi}).
   *
   * @param raw the text as Go's {@code UnmarshalJSON} hands it to the parser: a JSON string's
   *     content with its escapes left in, or a JSON number's text
   * @return the encoded quantity, without quotes
   * @throws IllegalArgumentException with Go's message ({@code quantity <text>: ...}) when Go fails
   *     to parse it
   */
  public static String canonical(String raw) {
    String str = trimSpace(raw);
    if (str.isEmpty()) {
      throw formatWrong(raw);
    }
    if (str.equals("0")) {
      return str;
    }
    return GoRoundTrip.parseAndEncode(str);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // The grammar, read from a text given in two parts (a + b) so that fabric8's amount and format
  // need no joining.

  private static char charAt(String a, String b, int i) {
    int na = a.length();
    return i < na ? a.charAt(i) : b.charAt(i - na);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isSign(char c) {
    return c == '+' || c == '-';
  }

  /**
   * Reads {@code a + b} as Go's {@code parseQuantityString} does: an optional sign, digits with at
   * most one point, then a suffix of letters from {@link #SUFFIX_LETTERS}, an optional sign and
   * digits.
   *
   * @param n the length of {@code a + b}
   * @return the index where the suffix begins, or -1 when the text is not of that form
   */
  private static int numberEnd(String a, String b, int n) {
    int i = n > 0 && isSign(charAt(a, b, 0)) ? 1 : 0;
    while (i < n && isDigit(charAt(a, b, i))) {
      i++;
    }
    if (i < n && charAt(a, b, i) == '.') {
      i++;
      while (i < n && isDigit(charAt(a, b, i))) {
        i++;
      }
    }
    int end = i;
    while (i < n && SUFFIX_LETTERS.indexOf(charAt(a, b, i)) >= 0) {
      i++;
    }
    if (i < n && isSign(charAt(a, b, i))) {
      i++;
    }
    while (i < n && isDigit(charAt(a, b, i))) {
      i++;
    }
    return i == n ? end : -1;
  }

  /**
   * The kind of the suffix from {@code from} to {@code to} of {@code a + b}, read as Go's suffixer
   * reads it.
   */
  private static Kind suffixKind(String a, String b, int from, int to) {
    int length = to - from;
    if (length == 0) {
      return Kind.DECIMAL_SI;
    }
    char c = charAt(a, b, from);
    if (length == 1 && c != ' ' && DECIMAL_SI.indexOf(c) >= 0) {
      return Kind.DECIMAL_SI;
    }
    if (length == 2 && charAt(a, b, from + 1) == 'i' && BINARY_SI.indexOf(c) >= 0) {
      return Kind.BINARY_SI;
    }
    if (length > 1 && (c == 'e' || c == 'E')) {
      int i = from + 1;
      if (isSign(charAt(a, b, i))) {
        i++;
      }
      if (i == to) {
        return Kind.UNKNOWN;
      }
      for (; i < to; i++) {
        if (!isDigit(charAt(a, b, i))) {
          return Kind.UNKNOWN;
        }
      }
      return Kind.DECIMAL_EXPONENT;
    }
    return Kind.UNKNOWN;
  }

  /** The power of ten of a one-letter decimal SI suffix ({@code n} is -9, {@code E} is 18). */
  private static int decimalPower(char letter) {
    return 3 * DECIMAL_SI.indexOf(letter) - 9;
  }

  /**
   * The power of 2<sup>10</sup> of a binary SI suffix given by its first letter ({@code K} is 1,
   * {@code E} 6).
   */
  private static int binaryPower(char letter) {
    return BINARY_SI.indexOf(letter) + 1;
  }

  /**
   * The exponent of a decimal-exponent suffix starting at {@code from}, as validation bounds it.
   *
   * @return the exponent, or {@link Integer#MIN_VALUE} when its magnitude is beyond {@link
   *     #MAX_EXPONENT}
   */
  private static int boundedExponent(String a, String b, int from, int to) {
    int j = from + 1;
    boolean negative = charAt(a, b, j) == '-';
    if (isSign(charAt(a, b, j))) {
      j++;
    }
    int exponent = 0;
    for (; j < to; j++) {
      exponent = exponent * 10 + (charAt(a, b, j) - '0');
      if (exponent > MAX_EXPONENT) {
        return Integer.MIN_VALUE;
      }
    }
    return negative ? -exponent : exponent;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Validation's reading.

  /**
   * Reads the quantity {@code a + b} as validation does and computes its value times
   * 10<sup>target</sup> in a {@code long}.
   *
   * @param target the power of ten to scale the value to, or {@link #OWN_SCALE} for the scale the
   *     text itself has ({@link #ownScale}), at which the value is always a whole number
   * @return the scaled value; {@link #INVALID} when the text is not a valid quantity; {@link
   *     #EXACT_PATH} when the mantissa has more than 18 significant digits, or the scaled value is
   *     not a whole number or does not fit a {@code long}
   */
  private static long scan(String a, String b, int target) {
    int n = a.length() + b.length();
    if (n == 0 || n > MAX_LENGTH) {
      return INVALID;
    }
    int end = numberEnd(a, b, n);
    if (end < 0) {
      return INVALID;
    }
    int binaryPower = 0;
    int decimalPower = 0;
    int scale = 0;
    switch (suffixKind(a, b, end, n)) {
      case DECIMAL_SI -> {
        if (end < n) {
          char c = charAt(a, b, end);
          if (c == 'n' || c == 'u') {
            return INVALID;
          }
          if (c == 'm') {
            scale = 3;
          } else {
            decimalPower = decimalPower(c);
          }
        }
      }
      case BINARY_SI -> binaryPower = binaryPower(charAt(a, b, end));
      case DECIMAL_EXPONENT -> {
        int exponent = boundedExponent(a, b, end, n);
        if (exponent == Integer.MIN_VALUE) {
          return INVALID;
        }
        scale = -exponent;
      }
      default -> {
        return INVALID;
      }
    }
    boolean negative = charAt(a, b, 0) == '-';
    long mantissa = 0;
    int significant = 0;
    int digits = 0;
    int fractionDigits = 0;
    boolean fraction = false;
    for (int i = isSign(charAt(a, b, 0)) ? 1 : 0; i < end; i++) {
      char c = charAt(a, b, i);
      if (c == '.') {
        fraction = true;
        continue;
      }
      digits++;
      if (fraction) {
        fractionDigits++;
      }
      if (significant > 0 || c != '0') {
        if (++significant > MAX_MANTISSA_DIGITS) {
          return EXACT_PATH;
        }
        mantissa = mantissa * 10 + (c - '0');
      }
    }
    if (digits == 0) {
      return INVALID;
    }
    if (fraction && fractionDigits == 0) {
      // "5." reads as "5.0", one fraction digit, as the decimal path reads it.
      fractionDigits = 1;
      if (significant > 0) {
        if (++significant > MAX_MANTISSA_DIGITS) {
          return EXACT_PATH;
        }
        mantissa *= 10;
      }
    }
    scale += fractionDigits;
    long value = mantissa;
    if (value == 0) {
      return 0;
    }
    int power = decimalPower + (target == OWN_SCALE ? 0 : target - scale);
    try {
      value = Math.multiplyExact(value, 1L << (10 * binaryPower));
      if (power > 0) {
        if (power >= POWERS_OF_TEN.length) {
          return EXACT_PATH;
        }
        value = Math.multiplyExact(value, POWERS_OF_TEN[power]);
      } else if (power < 0) {
        if (-power >= POWERS_OF_TEN.length || value % POWERS_OF_TEN[-power] != 0) {
          return EXACT_PATH;
        }
        value /= POWERS_OF_TEN[-power];
      }
    } catch (ArithmeticException e) {
      return EXACT_PATH;
    }
    if (value >= Long.MAX_VALUE - 1) {
      return EXACT_PATH;
    }
    return negative ? -value : value;
  }

  /**
   * The scale {@link #exactValue} gives a valid quantity: its fraction digits (at least one after a
   * point, {@code 5.} reading as {@code 5.0}), plus 3 for {@code m}, minus the exponent.
   */
  private static int ownScale(String text) {
    int n = text.length();
    int end = numberEnd(text, "", n);
    int dot = text.indexOf('.');
    int scale = dot >= 0 ? Math.max(end - dot - 1, 1) : 0;
    if (end == n || suffixKind(text, "", end, n) != Kind.DECIMAL_EXPONENT) {
      return text.charAt(n - 1) == 'm' ? scale + 3 : scale;
    }
    return scale - boundedExponent(text, "", end, n);
  }

  /** The value of a valid quantity in {@link BigDecimal} arithmetic, exact for any text. */
  private static BigDecimal exactValue(String text) {
    int n = text.length();
    int end = numberEnd(text, "", n);
    String number = text.substring(0, end);
    if (number.endsWith(".")) {
      number = number + "0";
    }
    if (number.startsWith(".") || number.startsWith("+.") || number.startsWith("-.")) {
      number = number.replace(".", "0.");
    }
    BigDecimal value = new BigDecimal(number.startsWith("+") ? number.substring(1) : number);
    if (end == n) {
      return value;
    }
    if (suffixKind(text, "", end, n) == Kind.DECIMAL_EXPONENT) {
      return value.scaleByPowerOfTen(boundedExponent(text, "", end, n));
    }
    return value.multiply(SUFFIX_VALUES.get(text.substring(end)));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Go's reading: ParseQuantity and MarshalJSON.

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
      case '\t',
          '\n',
          '\u000b',
          '\f',
          '\r',
          ' ',
          '\u0085',
          '\u00a0',
          '\u1680',
          '\u2028',
          '\u2029',
          '\u202f',
          '\u205f',
          '\u3000' ->
          true;
      default -> c >= '\u2000' && c <= '\u200a';
    };
  }

  private static IllegalArgumentException formatWrong(String s) {
    return new IllegalArgumentException(
        "quantity "
            + s
            + ": quantities must match the regular expression "
            + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  }

  /**
   * Go's {@code ParseQuantity} (after its empty and "0" checks) followed by {@code MarshalJSON}.
   */
  private static final class GoRoundTrip {

    private enum Format {
      DECIMAL_EXPONENT,
      BINARY_SI,
      DECIMAL_SI
    }

    private static final BigDecimal MAX_ALLOWED = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal MINUS_1024 = BigDecimal.valueOf(-1024);
    private static final BigDecimal PLUS_1024 = BigDecimal.valueOf(1024);
    private static final BigInteger B1024 = BigInteger.valueOf(1024);
    private static final Map<Integer, String> DECIMAL_BY_EXPONENT =
        Map.of(-9, "n", -6, "u", -3, "m", 0, "", 3, "k", 6, "M", 9, "G", 12, "T", 15, "P", 18, "E");
    private static final Map<Integer, String> BINARY_BY_EXPONENT =
        Map.of(10, "Ki", 20, "Mi", 30, "Gi", 40, "Ti", 50, "Pi", 60, "Ei");
    private static final int NANO = -9;
    private static final int MAX_INT64_FACTORS = 18;

    private GoRoundTrip() {}

    static String parseAndEncode(String str) {
      int n = str.length();
      int end = numberEnd(str, "", n);
      if (end < 0) {
        throw formatWrong(str);
      }
      // parseQuantityString: the sign, the digits after leading zeros (num), the fraction digits
      // (denom), the number as written (value) and the suffix.
      boolean positive = str.charAt(0) != '-';
      int start = isSign(str.charAt(0)) ? 1 : 0;
      while (start < n && str.charAt(start) == '0') {
        start++;
      }
      String num = "0";
      String denom = "";
      String value = "0";
      if (start < n) {
        int point = start;
        while (point < end && isDigit(str.charAt(point))) {
          point++;
        }
        num = point > start ? str.substring(start, point) : "0";
        denom = point < end ? str.substring(point + 1, end) : "";
        value = str.substring(0, end);
      }

      Format format;
      int exponent;
      int base;
      switch (suffixKind(str, "", end, n)) {
        case DECIMAL_SI -> {
          format = Format.DECIMAL_SI;
          exponent = end == n ? 0 : decimalPower(str.charAt(end));
          base = 10;
        }
        case BINARY_SI -> {
          format = Format.BINARY_SI;
          exponent = 10 * binaryPower(str.charAt(end));
          base = 2;
        }
        case DECIMAL_EXPONENT -> {
          format = Format.DECIMAL_EXPONENT;
          try {
            // Go keeps the int64 and converts it to int32, wrapping around.
            exponent = (int) Long.parseLong(str.substring(end + 1));
          } catch (NumberFormatException e) {
            throw suffixUnknown(str);
          }
          base = 10;
        }
        default -> throw suffixUnknown(str);
      }

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
            throw new IllegalArgumentException(
                "quantity " + str + ": unable to parse numeric part of quantity", e);
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

      // inf.Dec's SetString wants at least one digit.
      if (value.chars().noneMatch(c -> isDigit((char) c))) {
        throw new IllegalArgumentException(
            "quantity " + str + ": unable to parse numeric part of quantity");
      }
      BigDecimal amount = new BigDecimal(value);
      if (base == 10) {
        amount = amount.scaleByPowerOfTen(exponent);
      } else {
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
      if (format == Format.BINARY_SI
          && amount.compareTo(BigDecimal.ONE) < 0
          && amount.signum() > 0) {
        format = Format.DECIMAL_SI;
      }
      if (sign == -1) {
        amount = amount.negate();
      }
      return canonicalize(amount, format);
    }

    private static IllegalArgumentException suffixUnknown(String str) {
      return new IllegalArgumentException(
          "quantity " + str + ": unable to parse quantity's suffix");
    }

    /** Go's int64Multiply for the non-negative operands used here; null on overflow. */
    private static Long multiply(long a, long b) {
      try {
        return Math.multiplyExact(a, b);
      } catch (ArithmeticException e) {
        return null;
      }
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
}
