package io.rollgate.controller.rollout.replicasets;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Formats label selectors as the string form Kubernetes uses in {@code status.selector} (scale
 * subresource).
 */
public final class Selectors {

  private Selectors() {}

  /**
   * Formats a selector like {@code metav1.FormatLabelSelector}: requirements sorted by key, {@code
   * k=v}, {@code k in (a,b)}, {@code k notin (a)}, {@code k}, {@code !k}.
   *
   * @param selector the selector, may be null
   * @return the string form; empty for an empty selector
   */
  public static String format(LabelSelector selector) {
    if (selector == null) {
      return "";
    }
    TreeMap<String, List<String>> byKey = new TreeMap<>();
    Map<String, String> labels = selector.getMatchLabels();
    if (labels != null) {
      labels.forEach((k, v) -> byKey.computeIfAbsent(k, x -> new ArrayList<>()).add(k + "=" + v));
    }
    if (selector.getMatchExpressions() != null) {
      for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
        List<String> values = r.getValues() == null ? List.of() : new ArrayList<>(r.getValues());
        values = values.stream().sorted().toList();
        String text;
        switch (r.getOperator()) {
          case "In":
            text = r.getKey() + " in (" + String.join(",", values) + ")";
            break;
          case "NotIn":
            text = r.getKey() + " notin (" + String.join(",", values) + ")";
            break;
          case "Exists":
            text = r.getKey();
            break;
          case "DoesNotExist":
            text = "!" + r.getKey();
            break;
          default:
            text = r.getKey() + " " + r.getOperator() + " (" + String.join(",", values) + ")";
        }
        byKey.computeIfAbsent(r.getKey(), x -> new ArrayList<>()).add(text);
      }
    }
    List<String> parts = new ArrayList<>();
    byKey.values().forEach(parts::addAll);
    return String.join(",", parts);
  }
}
