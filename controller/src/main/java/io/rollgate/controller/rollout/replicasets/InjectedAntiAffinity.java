package io.rollgate.controller.rollout.replicasets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodAntiAffinity;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTermBuilder;
import io.rollgate.api.AntiAffinity;
import io.rollgate.api.Labels;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The pod anti-affinity term a new ReplicaSet gets against the stable pods ({@code
 * spec.strategy.canary.antiAffinity}, {@code spec.strategy.blueGreen.antiAffinity};
 * docs/compatibility.md §4 item 4 and §6): {@code rollouts-pod-template-hash In [status.stableRS]}
 * with topology key {@code kubernetes.io/hostname}, appended to the user's own terms, preferred
 * with the configured weight or required. Pure: no I/O.
 */
public final class InjectedAntiAffinity {

  /** The topology key of the injected term. */
  static final String TOPOLOGY_KEY = "kubernetes.io/hostname";

  private InjectedAntiAffinity() {}

  /**
   * Appends the anti-affinity term to a (copied) template, when configured and a different stable
   * ReplicaSet exists.
   *
   * @param template the new ReplicaSet's template, modified in place
   * @param config the strategy's {@code antiAffinity}, may be null
   * @param stableHash {@code status.stableRS}, may be null
   * @param podHash the new ReplicaSet's hash
   * @param namespace the Rollout's namespace
   * @return whether a term was added
   */
  public static boolean inject(
      PodTemplateSpec template,
      AntiAffinity config,
      String stableHash,
      String podHash,
      String namespace) {
    if (config == null
        || stableHash == null
        || stableHash.isEmpty()
        || stableHash.equals(podHash)) {
      return false;
    }
    var preferred = config.getPreferredDuringSchedulingIgnoredDuringExecution();
    boolean required = config.getRequiredDuringSchedulingIgnoredDuringExecution() != null;
    if (preferred == null && !required) {
      return false;
    }
    PodAffinityTerm term =
        new PodAffinityTermBuilder()
            .withNewLabelSelector()
            .withMatchExpressions(
                new LabelSelectorRequirementBuilder()
                    .withKey(Labels.POD_TEMPLATE_HASH)
                    .withOperator("In")
                    .withValues(stableHash)
                    .build())
            .endLabelSelector()
            .withNamespaces(namespace)
            .withTopologyKey(TOPOLOGY_KEY)
            .build();
    if (template.getSpec().getAffinity() == null) {
      template.getSpec().setAffinity(new Affinity());
    }
    Affinity affinity = template.getSpec().getAffinity();
    if (affinity.getPodAntiAffinity() == null) {
      affinity.setPodAntiAffinity(new PodAntiAffinity());
    }
    PodAntiAffinity anti = affinity.getPodAntiAffinity();
    if (preferred != null) {
      var terms =
          new ArrayList<>(nonNull(anti.getPreferredDuringSchedulingIgnoredDuringExecution()));
      int weight = preferred.getWeight() == null ? 1 : preferred.getWeight();
      terms.add(
          new WeightedPodAffinityTermBuilder()
              .withWeight(weight)
              .withPodAffinityTerm(term)
              .build());
      anti.setPreferredDuringSchedulingIgnoredDuringExecution(terms);
    } else {
      var terms =
          new ArrayList<>(nonNull(anti.getRequiredDuringSchedulingIgnoredDuringExecution()));
      terms.add(term);
      anti.setRequiredDuringSchedulingIgnoredDuringExecution(terms);
    }
    return true;
  }

  /**
   * Removes injected terms (those selecting on {@code rollouts-pod-template-hash}) from a
   * template's JSON tree, so that a ReplicaSet created with the term still compares equal to the
   * Rollout's template.
   *
   * @param spec the {@code spec} object of a pod template tree, may be null; modified in place
   */
  static void strip(ObjectNode spec) {
    JsonNode anti = spec == null ? null : spec.path("affinity").path("podAntiAffinity");
    if (!(anti instanceof ObjectNode a)) {
      return;
    }
    removeInjected(a.get("requiredDuringSchedulingIgnoredDuringExecution"), false);
    removeInjected(a.get("preferredDuringSchedulingIgnoredDuringExecution"), true);
  }

  private static void removeInjected(JsonNode terms, boolean weighted) {
    if (!(terms instanceof ArrayNode list)) {
      return;
    }
    for (Iterator<JsonNode> it = list.elements(); it.hasNext(); ) {
      JsonNode t = it.next();
      JsonNode term = weighted ? t.path("podAffinityTerm") : t;
      if (selectsHash(term) && TOPOLOGY_KEY.equals(term.path("topologyKey").asText())) {
        it.remove();
      }
    }
  }

  private static boolean selectsHash(JsonNode term) {
    for (JsonNode e : term.path("labelSelector").path("matchExpressions")) {
      if (Labels.POD_TEMPLATE_HASH.equals(e.path("key").asText())
          && "In".equals(e.path("operator").asText())) {
        return true;
      }
    }
    return false;
  }

  private static <T> List<T> nonNull(List<T> l) {
    return l == null ? List.of() : l;
  }
}
