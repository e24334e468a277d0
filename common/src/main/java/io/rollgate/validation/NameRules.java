package io.rollgate.validation;

/**
 * The name shapes of Kubernetes API validation (apimachinery's {@code IsDNS1123Label}, {@code
 * IsDNS1123Subdomain}, {@code IsQualifiedName}'s name part and {@code IsValidPortName}'s character
 * rules), checked character by character. They run for every container, port, label and annotation
 * of every admitted object, so they allocate nothing (a regular expression with a repeated group
 * allocates a matcher and its loop state per call). Lengths are checked by the callers.
 */
final class NameRules {

  private NameRules() {}

  /**
   * Whether {@code s} is a DNS-1123 label: lowercase alphanumerics and '-', starting and ending
   * with an alphanumeric (the regular expression {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}). Port names
   * have the same shape.
   *
   * @param s the text
   * @return whether it has the shape
   */
  static boolean isDnsLabel(String s) {
    return isDnsLabel(s, 0, s.length());
  }

  /**
   * Whether {@code s} is a DNS-1123 subdomain: one or more DNS-1123 labels joined by '.'.
   *
   * @param s the text
   * @return whether it has the shape
   */
  static boolean isDnsSubdomain(String s) {
    return isDnsSubdomain(s, 0, s.length());
  }

  /**
   * Whether {@code s.substring(start, end)} is a DNS-1123 subdomain, without taking the substring.
   *
   * @param s the text
   * @param start the first index
   * @param end the index after the last
   * @return whether it has the shape
   */
  static boolean isDnsSubdomain(String s, int start, int end) {
    while (true) {
      int dot = s.indexOf('.', start);
      if (dot >= end) {
        dot = -1;
      }
      int labelEnd = dot < 0 ? end : dot;
      if (!isDnsLabel(s, start, labelEnd)) {
        return false;
      }
      if (dot < 0) {
        return true;
      }
      start = dot + 1;
    }
  }

  /**
   * Whether {@code s} is the name part of a qualified name (label keys and values): alphanumerics,
   * '-', '_' and '.', starting and ending with an alphanumeric (the regular expression {@code
   * ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]}).
   *
   * @param s the text
   * @return whether it has the shape
   */
  static boolean isQualifiedNamePart(String s) {
    return isQualifiedNamePart(s, 0, s.length());
  }

  /**
   * Whether {@code s.substring(start, end)} is the name part of a qualified name, without taking
   * the substring.
   *
   * @param s the text
   * @param start the first index
   * @param end the index after the last
   * @return whether it has the shape
   */
  static boolean isQualifiedNamePart(String s, int start, int end) {
    if (end <= start || !isAlphanumeric(s.charAt(start)) || !isAlphanumeric(s.charAt(end - 1))) {
      return false;
    }
    for (int i = start + 1; i < end - 1; i++) {
      char c = s.charAt(i);
      if (!isAlphanumeric(c) && c != '-' && c != '_' && c != '.') {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code s} contains a lowercase ASCII letter (a port name must have one).
   *
   * @param s the text
   * @return whether it has one
   */
  static boolean hasLowercaseLetter(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 'a' && c <= 'z') {
        return true;
      }
    }
    return false;
  }

  private static boolean isDnsLabel(String s, int start, int end) {
    if (end <= start
        || !isLowerAlphanumeric(s.charAt(start))
        || !isLowerAlphanumeric(s.charAt(end - 1))) {
      return false;
    }
    for (int i = start + 1; i < end - 1; i++) {
      char c = s.charAt(i);
      if (!isLowerAlphanumeric(c) && c != '-') {
        return false;
      }
    }
    return true;
  }

  private static boolean isLowerAlphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }

  private static boolean isAlphanumeric(char c) {
    return isLowerAlphanumeric(c) || (c >= 'A' && c <= 'Z');
  }
}
