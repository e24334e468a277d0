package io.rollgate.controller.rollout.model;

import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Finds which of a Rollout's ReplicaSets runs its current template (the "new" ReplicaSet),
 * docs/compatibility.md §4 item 3: by the {@code rollouts-pod-template-hash} label equal to the
 * template's hash; else by a hash of the encoding of another {@link GoKubeApiVersion} (ReplicaSets
 * named by older Argo Rollouts releases); else by comparing the templates themselves.
 *
 * <p>The template comparison is the costly test, so it runs only when no hash matched.
 */
public final class NewReplicaSetMatch {

  private NewReplicaSetMatch() {}

  /**
   * Picks the new ReplicaSet.
   *
   * @param replicaSets the Rollout's ReplicaSets, in the order they are considered
   * @param hashOf a ReplicaSet's {@code rollouts-pod-template-hash} label, or null
   * @param podHash the template's hash with the default encoding
   * @param otherHashes the template's hashes with the other encodings
   * @param sameTemplate whether a ReplicaSet's template equals the Rollout's (the costly test)
   * @param <T> the ReplicaSet representation
   * @return the last ReplicaSet whose label is {@code podHash}; else the first whose label is one
   *     of {@code otherHashes}; else the first with the same template; else null
   */
  public static <T> T find(
      List<T> replicaSets,
      Function<T, String> hashOf,
      String podHash,
      Collection<String> otherHashes,
      Predicate<T> sameTemplate) {
    T byLabel = null;
    T byOtherHash = null;
    for (T rs : replicaSets) {
      String h = hashOf.apply(rs);
      if (podHash.equals(h)) {
        byLabel = rs;
      } else if (byOtherHash == null && otherHashes.contains(h)) {
        byOtherHash = rs;
      }
    }
    if (byLabel != null) {
      return byLabel;
    }
    if (byOtherHash != null) {
      return byOtherHash;
    }
    for (T rs : replicaSets) {
      if (sameTemplate.test(rs)) {
        return rs;
      }
    }
    return null;
  }
}
