package io.rollgate.validation;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The regular-expression and BigDecimal quantity parser that {@link Quantities} is checked against. */
final class QuantitiesReference {

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
  private static final int MAX_EXPONENT = 30;

  private QuantitiesReference() {}

  static Optional<BigDecimal> parse(String text) {
    if (text == null || text.isEmpty() || text.length() > 64) {
      return Optional.empty();
    }
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
