package io.rollgate.webhook;

import io.rollgate.api.AnalysisTemplateSpec;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.plugin.PluginRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What admission decisions may look up in the cluster, read from informer caches (never from the
 * API server while a request waits): the plugin registry, the RolloutPolicies, and namespace
 * labels.
 */
public interface ClusterView {

  /**
   * The plugin registry as last seen.
   *
   * @param registry the registry, or null when it cannot be read (not synced yet, forbidden) or the
   *     ConfigMap is absent
   * @param where {@code <namespace>/argo-rollouts-config}, for messages
   * @param state {@code present}, {@code absent} or {@code unreadable}
   */
  record Plugins(PluginRegistry registry, String where, String state) {}

  /**
   * A view with no informers: no registry known, no policy, no namespace labels (unit tests,
   * benchmarks).
   */
  ClusterView NONE =
      new ClusterView() {
        @Override
        public Plugins plugins() {
          return new Plugins(null, PluginRegistry.CONFIG_MAP_NAME, "unreadable");
        }

        @Override
        public List<RolloutPolicy> policies() {
          return List.of();
        }

        @Override
        public boolean policiesKnown() {
          return true;
        }

        @Override
        public Optional<Map<String, String>> namespaceLabels(String namespace) {
          return Optional.of(Map.of());
        }
      };

  /**
   * The plugin registry.
   *
   * @return the registry state
   */
  Plugins plugins();

  /**
   * Every RolloutPolicy.
   *
   * @return the policies in the cache
   */
  List<RolloutPolicy> policies();

  /**
   * Whether {@link #policies()} is complete (the informer has synced).
   *
   * @return true once the policies are known
   */
  boolean policiesKnown();

  /**
   * Whether the RolloutPolicy CRD is not installed (listing RolloutPolicies answers 404): policies
   * are then off, which is not a reason to warn about an applied Rollout.
   *
   * @return true while the API server does not serve RolloutPolicies
   */
  default boolean policiesAbsent() {
    return false;
  }

  /**
   * The labels of a namespace.
   *
   * @param namespace the namespace's name
   * @return its labels, or empty when the namespace is not (yet) in the cache
   */
  Optional<Map<String, String>> namespaceLabels(String namespace);

  /**
   * Whether the AnalysisTemplate and ClusterAnalysisTemplate caches are synced, so that a template
   * absent from them does not exist. False when they cannot be read (not synced yet, forbidden):
   * the Rollout's analyses are then not checked on apply (the controller still reports
   * InvalidSpec).
   *
   * @return whether {@link #analysisTemplate} and {@link #clusterAnalysisTemplate} answer
   */
  default boolean templatesKnown() {
    return false;
  }

  /**
   * An AnalysisTemplate's spec, as last seen.
   *
   * @param namespace the namespace
   * @param name the name
   * @return its spec, or null when there is no such template
   */
  default AnalysisTemplateSpec analysisTemplate(String namespace, String name) {
    return null;
  }

  /**
   * A ClusterAnalysisTemplate's spec, as last seen.
   *
   * @param name the name
   * @return its spec, or null when there is no such template
   */
  default AnalysisTemplateSpec clusterAnalysisTemplate(String name) {
    return null;
  }
}
