package io.rollgate.validation;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities ({@code 500m}, {@code 1.5Gi}, {@code 2e3}): the grammar of the API server's
 * {@code resource.Quantity}, so a value our CRD would otherwise store as a plain string is refused on apply.
 *
 * <pre>
 * quantity        ::= signedNumber suffix
 * signedNumber    ::= number | "+" number | "-" number
 * number          ::= digits | digits "." digits | digits "." | "." digits
 * suffix          ::= binarySuffix | decimalExponent | decimalSuffix
 * binarySuffix    ::= Ki | Mi | Gi | Ti | Pi | Ei
 * decimalSuffix   ::= m | "" | k | M | G | T | P | E
 * decimalExponent ::= ("e" | "E") signedNumber       (an integer exponent)
 * </pre>
 *
 * <p>Every container's requests and limits of every admitted Rollout pass through here, so a quantity is read
 * character by character with {@code long} arithmetic and allocates nothing; the regular expression and
 * {@link BigDecimal} arithmetic remain for mantissas of more than 18 digits, large exponents and values beyond a
 * {@code long}, and give the same results.
 */
public final class Quantities {

  private static final Pattern GRAMMAR =
      Pattern.compile("([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?");
  private static final Map<String, BigDecimal> SUFFIX =
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
  /** The API server refuses exponents whose magnitude would not fit its int64 scaled representation. */
  private static final int MAX_EXPONENT = 30;
  /** Longest quantity text accepted. */
  private static final int MAX_LENGTH = 64;
  /** Digits of a mantissa {@link #scan} keeps in a {@code long} (10<sup>18</sup> - 1 fits). */
  private static final int MAX_MANTISSA_DIGITS = 18;
  /** {@link #scan} result: the text does not follow the grammar. */
  private static final long INVALID = Long.MIN_VALUE;
  /** {@link #scan} result: the value is beyond {@code long} arithmetic; {@link #parseExactly} decides. */
  private static final long EXACT_PATH = Long.MIN_VALUE + 1;
  /** {@link #scan} target meaning "the scale the text itself has" (see {@link #referenceScale}). */
  private static final int OWN_SCALE = Integer.MIN_VALUE;
  /** {@link #check} result for a text that is not a quantity. */
  static final int NOT_A_QUANTITY = -2;
  private static final long[] POWERS_OF_TEN = new long[19];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

  private Quantities() {}

  /**
   * Parses a quantity.
   *
   * @param text the quantity as written, for example {@code 250m} or {@code 1Gi}
   * @return its value in base units (cores, bytes), or empty when {@code text} does not follow the grammar or its
   *     exponent is out of range
   */
  public static Optional<BigDecimal> parse(String text) {
    if (text == null || text.isEmpty() || text.length() > MAX_LENGTH) {
      return Optional.empty();
    }
    long unscaled = scan(text, "", OWN_SCALE);
    if (unscaled == INVALID) {
      return Optional.empty();
    }
    if (unscaled == EXACT_PATH) {
      return parseExactly(text);
    }
    return Optional.of(BigDecimal.valueOf(unscaled, referenceScale(text)));
  }

  /**
   * Whether a text is a well-formed quantity.
   *
   * @param text the quantity as written
   * @return true when {@link #parse} accepts it
   */
  public static boolean isValid(String text) {
    if (text == null || text.isEmpty() || text.length() > MAX_LENGTH) {
      return false;
    }
    long unscaled = scan(text, "", OWN_SCALE);
    if (unscaled == EXACT_PATH) {
      return parseExactly(text).isPresent();
    }
    return unscaled != INVALID;
  }

  /**
   * Checks the quantity written as {@code amount} followed by {@code format} (fabric8's split of a
   * {@code Quantity}) without joining them.
   *
   * @param amount the number part, not null
   * @param format the suffix part, not null
   * @return {@link #NOT_A_QUANTITY} when {@link #parse} refuses {@code amount + format}, otherwise the sign of its
   *     value (-1, 0 or 1)
   */
  static int check(String amount, String format) {
    long unscaled = scan(amount, format, OWN_SCALE);
    if (unscaled == INVALID) {
      return NOT_A_QUANTITY;
    }
    if (unscaled == EXACT_PATH) {
      return parse(amount + format).map(BigDecimal::signum).orElse(NOT_A_QUANTITY);
    }
    return Long.signum(unscaled);
  }

  /**
   * Compares two quantities, each written as amount followed by format; both must pass {@link #check}.
   *
   * @return negative, zero or positive as the first value is less than, equal to or greater than the second
   */
  static int compare(String amount, String format, String otherAmount, String otherFormat) {
    long milli = scan(amount, format, 3);
    long otherMilli = scan(otherAmount, otherFormat, 3);
    if (milli > EXACT_PATH && otherMilli > EXACT_PATH) {
      return Long.compare(milli, otherMilli);
    }
    return parse(amount + format).orElseThrow().compareTo(parse(otherAmount + otherFormat).orElseThrow());
  }

  /**
   * Reads the quantity {@code a + b} character by character, without joining the two, and computes its value times
   * 10<sup>target</sup> in a {@code long}.
   *
   * @param a the first part of the text
   * @param b the rest of the text
   * @param target the power of ten to scale the value to, or {@link #OWN_SCALE} for the scale the text itself has
   *     ({@link #referenceScale}), at which the value is always a whole number
   * @return the scaled value; {@link #INVALID} when the text does not follow the grammar; {@link #EXACT_PATH} when
   *     the mantissa has more than 18 significant digits, the exponent is beyond {@link #MAX_EXPONENT}, the scaled
   *     value is not a whole number or does not fit a {@code long}
   */
  private static long scan(String a, String b, int target) {
    int na = a.length();
    int n = na + b.length();
    if (n == 0 || n > MAX_LENGTH) {
      return INVALID;
    }
    int i = 0;
    char c = charAt(a, b, 0);
    boolean negative = c == '-';
    if (c == '-' || c == '+') {
      i++;
    }
    long mantissa = 0;
    int significant = 0;
    int digits = 0;
    int fractionDigits = 0;
    boolean fraction = false;
    for (; i < n; i++) {
      c = charAt(a, b, i);
      if (c >= '0' && c <= '9') {
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
      } else if (c == '.' && !fraction) {
        fraction = true;
      } else {
        break;
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
    int binaryPower = 0;
    int decimalPower = 0;
    int scale = fractionDigits;
    if (i < n) {
      c = charAt(a, b, i);
      int rest = n - i;
      if (rest == 2 && charAt(a, b, i + 1) == 'i' && "KMGTPE".indexOf(c) >= 0) {
        binaryPower = "KMGTPE".indexOf(c) + 1;
      } else if (rest == 1 && "mkMGTPE".indexOf(c) >= 0) {
        if (c == 'm') {
          scale += 3;
        } else {
          decimalPower = 3 * "kMGTPE".indexOf(c) + 3;
        }
      } else if (c == 'e' || c == 'E') {
        int j = i + 1;
        boolean negativeExponent = false;
        if (j < n && (charAt(a, b, j) == '+' || charAt(a, b, j) == '-')) {
          negativeExponent = charAt(a, b, j) == '-';
          j++;
        }
        if (j == n) {
          return INVALID;
        }
        int exponent = 0;
        for (; j < n; j++) {
          char e = charAt(a, b, j);
          if (e < '0' || e > '9') {
            return INVALID;
          }
          if (exponent <= MAX_EXPONENT) {
            exponent = exponent * 10 + (e - '0');
          }
        }
        if (exponent > MAX_EXPONENT) {
          return EXACT_PATH;
        }
        scale -= negativeExponent ? -exponent : exponent;
      } else {
        return INVALID;
      }
    }
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

  private static char charAt(String a, String b, int i) {
    int na = a.length();
    return i < na ? a.charAt(i) : b.charAt(i - na);
  }

  /**
   * The scale {@link #parseExactly} gives a valid quantity whose exponent is within range: its fraction digits (at
   * least one after a point, {@code 5.} reading as {@code 5.0}), plus 3 for {@code m}, minus the exponent.
   */
  private static int referenceScale(String text) {
    int n = text.length();
    int scale = 0;
    int dot = text.indexOf('.');
    if (dot >= 0) {
      for (int i = dot + 1; i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9'; i++) {
        scale++;
      }
      scale = Math.max(scale, 1);
    }
    char last = text.charAt(n - 1);
    if (last == 'm') {
      return scale + 3;
    }
    int e = Math.max(text.indexOf('e'), text.indexOf('E'));
    if (e < 0 || e == n - 1 || last == 'i') {
      return scale;
    }
    int exponent = 0;
    boolean negative = false;
    for (int i = e + 1; i < n; i++) {
      char c = text.charAt(i);
      if (c == '-') {
        negative = true;
      } else if (c != '+') {
        exponent = exponent * 10 + (c - '0');
      }
    }
    return scale - (negative ? -exponent : exponent);
  }

  /** The decimal path, exact for any text: the grammar as a regular expression and the value as a BigDecimal. */
  private static Optional<BigDecimal> parseExactly(String text) {
    Matcher m = GRAMMAR.matcher(text);
    if (!m.matches()) {
      return Optional.empty();
    }
    String num = m.group(1);
    if (num.endsWith(".")) {
      num = num + "0";
    }
    if (num.startsWith(".") || num.startsWith("+.") || num.startsWith("-.")) {
      num = num.replace(".", "0.");
    }
    BigDecimal value = new BigDecimal(num.startsWith("+") ? num.substring(1) : num);
    String suffix = m.group(2);
    if (suffix == null) {
      return Optional.of(value);
    }
    if (suffix.charAt(0) == 'e' || (suffix.charAt(0) == 'E' && suffix.length() > 1 && !suffix.equals("Ei"))) {
      int exp;
      try {
        exp = Integer.parseInt(suffix.substring(1).replace("+", ""));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
      if (exp > MAX_EXPONENT || exp < -MAX_EXPONENT) {
        return Optional.empty();
      }
      return Optional.of(value.scaleByPowerOfTen(exp));
    }
    return Optional.of(value.multiply(SUFFIX.get(suffix)));
  }
}
