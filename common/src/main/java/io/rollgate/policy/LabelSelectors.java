package io.rollgate.policy;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes label-selector matching ({@code matchLabels} AND every {@code matchExpressions}
 * requirement).
 */
public final class LabelSelectors {

  private LabelSelectors() {}

  /**
   * Whether labels satisfy a selector.
   *
   * @param selector the selector; null or empty matches everything
   * @param labels the labels; null counts as none
   * @return true when every term holds; an unknown operator never matches
   */
  public static boolean matches(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return true;
    }
    Map<String, String> l = labels == null ? Map.of() : labels;
    if (selector.getMatchLabels() != null) {
      for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
        if (!e.getValue().equals(l.get(e.getKey()))) {
          return false;
        }
      }
    }
    if (selector.getMatchExpressions() != null) {
      for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
        String v = l.get(r.getKey());
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        boolean ok =
            switch (String.valueOf(r.getOperator())) {
              case "In" -> v != null && values.contains(v);
              case "NotIn" -> v == null || !values.contains(v);
              case "Exists" -> v != null;
              case "DoesNotExist" -> v == null;
              default -> false;
            };
        if (!ok) {
          return false;
        }
      }
    }
    return true;
  }
}
