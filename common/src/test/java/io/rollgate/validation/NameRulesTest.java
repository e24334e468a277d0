package io.rollgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The character-by-character name rules agree with the regular expressions of Kubernetes API
 * validation.
 */
class NameRulesTest {

  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern NAME_PART =
      Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final Pattern HAS_LETTER = Pattern.compile(".*[a-z].*");

  @Test
  void agreesWithTheRegularExpressionsOnRandomText() {
    String alphabet = "az09AZ-_. /é";
    Random random = new Random(7);
    for (int i = 0; i < 200_000; i++) {
      StringBuilder b = new StringBuilder();
      int n = random.nextInt(8);
      for (int k = 0; k < n; k++) {
        b.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String s = b.toString();
      assertEquals(DNS_LABEL.matcher(s).matches(), NameRules.isDnsLabel(s), s);
      assertEquals(DNS_SUBDOMAIN.matcher(s).matches(), NameRules.isDnsSubdomain(s), s);
      assertEquals(NAME_PART.matcher(s).matches(), NameRules.isQualifiedNamePart(s), s);
      assertEquals(HAS_LETTER.matcher(s).matches(), NameRules.hasLowercaseLetter(s), s);
      int start = random.nextInt(n + 1);
      int end = start + random.nextInt(n - start + 1);
      String part = s.substring(start, end);
      assertEquals(
          DNS_SUBDOMAIN.matcher(part).matches(),
          NameRules.isDnsSubdomain(s, start, end),
          s + " " + start);
      assertEquals(
          NAME_PART.matcher(part).matches(),
          NameRules.isQualifiedNamePart(s, start, end),
          s + " " + start);
    }
  }

  @Test
  void typicalNames() {
    assertTrue(NameRules.isDnsLabel("web-1"));
    assertFalse(NameRules.isDnsLabel("Web"));
    assertFalse(NameRules.isDnsLabel("-web"));
    assertTrue(NameRules.isDnsSubdomain("example.com"));
    assertFalse(NameRules.isDnsSubdomain("example..com"));
    assertFalse(NameRules.isDnsSubdomain("example.com."));
    assertTrue(NameRules.isQualifiedNamePart("app.kubernetes_io-Name"));
    assertFalse(NameRules.isQualifiedNamePart("_x"));
    assertFalse(NameRules.isQualifiedNamePart(""));
  }
}
