package io.rollgate.e2e.helm;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Rendered chart output split into objects, and the RBAC rules in it. */
final class ChartManifests {

  private ChartManifests() {}

  /** Every object in a multi-document YAML stream, as generic resources. */
  static List<GenericKubernetesResource> parse(String yaml) {
    List<GenericKubernetesResource> out = new ArrayList<>();
    for (String doc : yaml.split("(?m)^---\\s*$")) {
      String body = doc.replaceAll("(?m)^#.*$", "").strip();
      if (body.isEmpty()) {
        continue;
      }
      out.add(Serialization.unmarshal(body, GenericKubernetesResource.class));
    }
    return out;
  }

  /** A rule of a Role or ClusterRole, with where it comes from. */
  record Rule(String kind, String name, PolicyRule rule) {
    @Override
    public String toString() {
      return kind
          + "/"
          + name
          + ": apiGroups="
          + rule.getApiGroups()
          + " resources="
          + rule.getResources()
          + " resourceNames="
          + rule.getResourceNames()
          + " verbs="
          + rule.getVerbs();
    }
  }

  /** The rules of every Role and ClusterRole among the objects. */
  static List<Rule> rules(List<? extends HasMetadata> objects) {
    List<Rule> out = new ArrayList<>();
    for (HasMetadata o : objects) {
      if (!("Role".equals(o.getKind()) || "ClusterRole".equals(o.getKind()))) {
        continue;
      }
      Object raw =
          o instanceof GenericKubernetesResource g
              ? g.getAdditionalProperties().get("rules")
              : null;
      List<PolicyRule> rules =
          raw != null
              ? Serialization.unmarshal(
                  Serialization.asJson(raw),
                  new com.fasterxml.jackson.core.type.TypeReference<List<PolicyRule>>() {})
              : o instanceof io.fabric8.kubernetes.api.model.rbac.ClusterRole cr
                  ? cr.getRules()
                  : ((io.fabric8.kubernetes.api.model.rbac.Role) o).getRules();
      for (PolicyRule r : rules == null ? List.<PolicyRule>of() : rules) {
        out.add(new Rule(o.getKind(), o.getMetadata().getName(), r));
      }
    }
    return out;
  }

  /**
   * The rules that use a wildcard anywhere ({@code *} in apiGroups, resources, resourceNames,
   * verbs).
   */
  static List<Rule> wildcards(List<Rule> rules) {
    List<Rule> out = new ArrayList<>();
    for (Rule r : rules) {
      PolicyRule p = r.rule();
      for (List<String> l :
          List.of(
              nonNull(p.getApiGroups()),
              nonNull(p.getResources()),
              nonNull(p.getVerbs()),
              nonNull(p.getResourceNames()),
              nonNull(p.getNonResourceURLs()))) {
        if (l.stream().anyMatch(s -> s.contains("*"))) {
          out.add(r);
          break;
        }
      }
    }
    return out;
  }

  static List<String> nonNull(List<String> l) {
    return l == null ? List.of() : l;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }
}
