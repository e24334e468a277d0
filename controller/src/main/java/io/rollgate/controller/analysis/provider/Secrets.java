package io.rollgate.controller.analysis.provider;

import java.util.Comparator;
import java.util.Set;

/**
 * Masking of secret argument values in measurement messages and logs (docs/compatibility.md §9.3).
 */
public final class Secrets {

  private Secrets() {}

  /**
   * Replaces every occurrence of each secret value with {@code *****}; longer values first, so that
   * a secret that contains another is masked whole.
   *
   * @param text the text to mask; may be {@code null}
   * @param secrets the secret values; empty strings are ignored
   * @return the masked text, or {@code null} for {@code null}
   */
  public static String mask(String text, Set<String> secrets) {
    if (text == null || secrets.isEmpty()) {
      return text;
    }
    String out = text;
    for (String secret :
        secrets.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList()) {
      if (!secret.isEmpty()) {
        out = out.replace(secret, MeasurementContext.MASK);
      }
    }
    return out;
  }
}
